// markdown-it's token stream → blocks (see blocks.ts). The parse is markdown-it's (GFM tables and
// strikethrough are in its default preset, bare URLs through linkify); this file only walks it.

import MarkdownIt from 'markdown-it';
import type { Block, Gap, Mark, Run } from './blocks';
import { layoutTable, type TableAlign } from './layoutTable';

type Token = ReturnType<InstanceType<typeof MarkdownIt>['parse']>[number];

// Made at the first render, not when the module loads: a page that bundles llm-rx only to read
// a stream then carries no markdown-it at all (a top-level `new` would keep it in the bundle).
let parser: InstanceType<typeof MarkdownIt> | undefined;
export function markdownParser(): InstanceType<typeof MarkdownIt> {
  if (!parser) {
    parser = new MarkdownIt({ linkify: true });
    // Only URLs with a scheme: a file name like `render.ts` is not a link (.ts is a TLD).
    parser.linkify.set({ fuzzyLink: false, fuzzyEmail: false });
    // Links keep their URL as the model wrote it: markdown-it would percent-encode it (and
    // punycode its host). linkUrl still lets only absolute http(s) through.
    parser.normalizeLink = (url) => url;
    parser.normalizeLinkText = (text) => text;
  }
  return parser;
}

/** A code block's language, when its fence's info string starts with a plain language name. */
function languageOf(info: string): string {
  const first = info.trim().split(/\s+/)[0] ?? '';
  return /^[\w#+.-]{1,32}$/.test(first) ? first : '';
}

/** A link target chat apps accept: absolute http(s) only (Telegram rejects anything else). */
function linkUrl(href: string): string | undefined {
  return href && /^https?:\/\/[^\s<>|"]+$/i.test(href) ? href : undefined;
}

/** The runs of one `inline` token: its children with their marks, outermost first. */
function inlineRuns(children: Token[]): Run[] {
  const runs: Run[] = [];
  // `null` stands for a span that opened without a mark (a link to a URL no chat app takes).
  const stack: Array<Mark | null> = [];
  const marks = () => stack.filter((mark): mark is Mark => mark !== null);
  const push = (text: string, extra?: Mark) => {
    if (text !== '') runs.push({ text, marks: extra ? [...marks(), extra] : marks() });
  };
  for (const token of children) {
    switch (token.type) {
      case 'text':
      case 'text_special':
      case 'html_inline':
        push(token.content);
        break;
      case 'softbreak':
      case 'hardbreak':
        push('\n');
        break;
      case 'code_inline':
        push(token.content, { type: 'code' });
        break;
      case 'strong_open':
        stack.push({ type: 'bold' });
        break;
      case 'em_open':
        stack.push({ type: 'italic' });
        break;
      case 's_open':
        stack.push({ type: 'strikethrough' });
        break;
      case 'link_open': {
        const url = linkUrl(String(token.attrGet('href') ?? ''));
        const bare = token.markup === 'linkify' || token.markup === 'autolink';
        stack.push(url ? { type: 'link', url, bare } : null);
        break;
      }
      case 'image': {
        const url = linkUrl(String(token.attrGet('src') ?? ''));
        push(token.content, url ? { type: 'link', url } : undefined);
        break;
      }
      case 'strong_close':
      case 'em_close':
      case 's_close':
      case 'link_close':
        stack.pop();
        break;
      default:
        push(token.content);
    }
  }
  return runs;
}

/** The visible text of an inline token (table cells: their marks are not kept). */
const inlineText = (token: Token) =>
  inlineRuns(token.children ?? [])
    .map((run) => run.text)
    .join('');

interface ListState {
  ordered: boolean;
  next: number;
}

/** Parses `markdown` into blocks, in reading order. */
export function parseBlocks(markdown: string): Block[] {
  const tokens = markdownParser().parse(markdown, {});
  const blocks: Block[] = [];
  const lists: ListState[] = [];
  let quote = 0;
  let heading: number | undefined;
  // The bullet or number waiting for the first block of a list item; indent for later ones.
  let itemPrefix: string | undefined;
  let tightNext = false;
  let table: { align: TableAlign[]; rows: string[][] } | undefined;

  const gap = (tight: boolean): Gap => {
    const value: Gap = tight && tightNext ? '\n' : '\n\n';
    tightNext = lists.length > 0;
    return value;
  };
  const indent = () => '   '.repeat(Math.max(lists.length - 1, 0));
  const prefixRun = (): Run[] => {
    const prefix = itemPrefix ?? (lists.length > 0 ? indent() + '   ' : '');
    itemPrefix = undefined;
    return prefix === '' ? [] : [{ text: prefix, marks: [] }];
  };

  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index];
    switch (token.type) {
      case 'blockquote_open':
        quote++;
        break;
      case 'blockquote_close':
        quote--;
        break;
      case 'bullet_list_open':
      case 'ordered_list_open':
        if (lists.length === 0) tightNext = false;
        lists.push({
          ordered: token.type === 'ordered_list_open',
          next: Number(token.attrGet('start') ?? 1),
        });
        break;
      case 'bullet_list_close':
      case 'ordered_list_close':
        lists.pop();
        if (lists.length === 0) tightNext = false;
        break;
      case 'list_item_open': {
        const list = lists[lists.length - 1];
        itemPrefix = indent() + (list.ordered ? `${list.next++}. ` : '• ');
        break;
      }
      case 'heading_open':
        heading = Number(token.tag.slice(1));
        break;
      case 'heading_close':
        heading = undefined;
        break;
      case 'inline':
        if (table) {
          table.rows[table.rows.length - 1].push(inlineText(token));
          break;
        }
        blocks.push({
          kind: 'text',
          runs: [...prefixRun(), ...inlineRuns(token.children ?? [])],
          quote: quote > 0,
          heading,
          gap: gap(tokens[index - 1]?.type === 'paragraph_open' && tokens[index - 1].hidden),
        });
        break;
      case 'fence':
      case 'code_block': {
        const prefix = prefixRun();
        if (prefix.length > 0) {
          blocks.push({ kind: 'text', runs: prefix, quote: quote > 0, gap: gap(true) });
        }
        blocks.push({
          kind: 'code',
          code: token.content.replace(/\n$/, ''),
          language: token.type === 'fence' ? languageOf(token.info) : '',
          quote: quote > 0,
          gap: gap(false),
        });
        break;
      }
      case 'table_open':
        table = { align: [], rows: [] };
        break;
      case 'tr_open':
        table?.rows.push([]);
        break;
      case 'th_open': {
        const style = String(token.attrGet('style') ?? '');
        table?.align.push((/text-align:(\w+)/.exec(style)?.[1] as TableAlign) ?? 'left');
        break;
      }
      case 'table_close':
        blocks.push({
          kind: 'code',
          code: layoutTable(table!.rows, table!.align),
          language: '',
          quote: quote > 0,
          gap: gap(false),
        });
        table = undefined;
        break;
      case 'hr':
        blocks.push({
          kind: 'text',
          runs: [{ text: '———', marks: [] }],
          quote: quote > 0,
          gap: gap(false),
        });
        break;
    }
  }
  // An empty code block or paragraph shows nothing (and an empty Telegram entity is an error).
  return blocks.filter((block) =>
    block.kind === 'code' ? block.code.trim() !== '' : block.runs.length > 0,
  );
}
