// `telegram-rich`: markdown as Telegram's Rich Messages read it (sendRichMessage with
// `rich_message.markdown`). Rich Messages render GFM themselves — headings, lists, tables,
// quotes, code — so the markdown goes out as written, cut into messages between top-level
// blocks. Only what Telegram would reject is changed: a table wider than 20 columns becomes a
// monospace code block, and a message holds at most 500 blocks.

import { blockText } from './blocks';
import { layoutMessages, type LaidOutMessage } from './layoutMessages';
import { layoutTable, type TableAlign } from './layoutTable';
import { plainWriter } from './markupWriters';
import { markdownParser, parseBlocks } from './parseBlocks';

type Token = ReturnType<ReturnType<typeof markdownParser>['parse']>[number];

/** Rich Messages refuse more columns with 400 RICH_MESSAGE_TABLE_COLS_TOO_MANY. */
export const RICH_MAX_TABLE_COLUMNS = 20;
/** Rich Messages refuse more blocks (nested items count) with RICH_MESSAGE_BLOCKS_TOO_MANY. */
export const RICH_MAX_BLOCKS = 500;

/** Block tokens that Telegram counts as a block of its own (table cells are not counted). */
const COUNTED = new Set([
  'paragraph_open',
  'heading_open',
  'list_item_open',
  'blockquote_open',
  'table_open',
  'tr_open',
  'fence',
  'code_block',
  'hr',
  'html_block',
]);

/** One top-level markdown block: its source and how many blocks Telegram counts in it. */
interface SourceBlock {
  markdown: string;
  blocks: number;
  kind: 'fence' | 'table' | 'other';
}

/**
 * The markdown as rich messages of at most `limit` characters each, and at most
 * {@link RICH_MAX_BLOCKS} blocks. The length counted is the markdown's own (UTF-16 units),
 * never less than the visible text Telegram counts, so a message within it is within 32,768.
 * A block too long for one message is split: a code fence at line breaks (closed and reopened
 * with its info string), a table between rows (the header repeated), other text at line
 * breaks, else whitespace, else hard (never inside a surrogate pair).
 */
export function layoutRichMessages(markdown: string, limit: number): LaidOutMessage[] {
  const messages: string[] = [];
  let current = '';
  let counted = 0;
  const flush = () => {
    if (current.trim() !== '') messages.push(current);
    current = '';
    counted = 0;
  };
  for (const block of sourceBlocks(markdown)) {
    const joined = current === '' ? block.markdown : `${current}\n\n${block.markdown}`;
    if (joined.length <= limit && counted + block.blocks <= RICH_MAX_BLOCKS) {
      current = joined;
      counted += block.blocks;
      continue;
    }
    flush();
    const pieces = block.markdown.length <= limit ? [block.markdown] : splitBlock(block, limit);
    for (const piece of pieces.slice(0, -1)) messages.push(piece);
    current = pieces[pieces.length - 1] ?? '';
    counted = block.blocks;
  }
  flush();
  return messages.map((text) => {
    const plain = plainText(text);
    return { rendered: { text, format: 'telegram-rich', plain }, plain };
  });
}

/** What `format: 'plain'` shows of a rich message: its fallback text. */
function plainText(markdown: string): string {
  return layoutMessages(parseBlocks(markdown), plainWriter, 'plain', Infinity)
    .map((message) => message.plain)
    .join('\n\n');
}

/** The top-level blocks of `markdown`, each as its own source lines. */
function sourceBlocks(markdown: string): SourceBlock[] {
  const tokens = markdownParser().parse(markdown, {});
  const lines = markdown.split('\n');
  const blocks: SourceBlock[] = [];
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index];
    if (token.level !== 0 || token.nesting < 0 || !token.map) continue;
    const end = token.nesting === 1 ? closingIndex(tokens, index) : index;
    const inner = tokens.slice(index, end + 1);
    const source = lines.slice(token.map[0], token.map[1]).join('\n').replace(/\s+$/, '');
    if (source.trim() === '') continue;
    if (token.type === 'table_open' && tableColumns(inner) > RICH_MAX_TABLE_COLUMNS) {
      blocks.push({ markdown: tableAsCode(inner), blocks: 1, kind: 'fence' });
    } else {
      blocks.push({
        markdown: source,
        blocks: inner.filter((t) => COUNTED.has(t.type)).length,
        kind: token.type === 'fence' ? 'fence' : token.type === 'table_open' ? 'table' : 'other',
      });
    }
    index = end;
  }
  return blocks;
}

/** The index of the token closing the one opened at `open`. */
function closingIndex(tokens: Token[], open: number): number {
  let depth = 0;
  for (let index = open; index < tokens.length; index++) {
    depth += tokens[index].nesting;
    if (depth === 0) return index;
  }
  return tokens.length - 1;
}

function tableColumns(tokens: Token[]): number {
  let widest = 0;
  let cells = 0;
  for (const token of tokens) {
    if (token.type === 'tr_open') cells = 0;
    if (token.type === 'th_open' || token.type === 'td_open') widest = Math.max(widest, ++cells);
  }
  return widest;
}

/** A table Telegram would refuse, as a monospace code block of the same cells. */
function tableAsCode(tokens: Token[]): string {
  const rows: string[][] = [];
  const align: TableAlign[] = [];
  let header = true;
  for (const token of tokens) {
    if (token.type === 'tr_open') rows.push([]);
    if (token.type === 'thead_close') header = false;
    if (token.type === 'th_open' && header) {
      const style = String(token.attrGet('style') ?? '');
      align.push((/text-align:(\w+)/.exec(style)?.[1] as TableAlign) ?? 'left');
    }
    if (token.type === 'inline' && rows.length > 0) rows[rows.length - 1].push(inlineText(token));
  }
  return '```\n' + layoutTable(rows, align).replace(/```/g, '``\u200b`') + '\n```';
}

const inlineText = (token: Token) =>
  parseBlocks(token.content)
    .map((block) => blockText(block))
    .join(' ');

/** A block longer than `limit`, in pieces that each fit. */
function splitBlock(block: SourceBlock, limit: number): string[] {
  const lines = block.markdown.split('\n');
  if (block.kind === 'fence' && lines.length > 2) {
    const open = lines[0];
    const close = /^\s*(`{3,}|~{3,})/.exec(open)?.[1] ?? '```';
    const body = lines.slice(1, lines[lines.length - 1].trim().startsWith(close) ? -1 : undefined);
    const room = limit - open.length - close.length - 2;
    return packLines(body, room).map((piece) => `${open}\n${piece}\n${close}`);
  }
  if (block.kind === 'table' && lines.length > 2) {
    const head = `${lines[0]}\n${lines[1]}`;
    return packLines(lines.slice(2), limit - head.length - 1).map((rows) => `${head}\n${rows}`);
  }
  return packLines(lines, limit);
}

/** `lines` joined by line breaks into pieces of at most `room`; a longer line is cut. */
function packLines(lines: string[], room: number): string[] {
  const width = Math.max(room, 1);
  const pieces: string[] = [];
  let current: string | undefined;
  for (const line of lines.flatMap((line) => cutLine(line, width))) {
    if (current !== undefined && current.length + 1 + line.length <= width) {
      current += '\n' + line;
      continue;
    }
    if (current !== undefined) pieces.push(current);
    current = line;
  }
  if (current !== undefined) pieces.push(current);
  return pieces;
}

/** One line in pieces of at most `width`: at the last whitespace, else hard. */
function cutLine(line: string, width: number): string[] {
  const pieces: string[] = [];
  let rest = line;
  while (rest.length > width) {
    let cut = rest.slice(0, width + 1).search(/\s\S*$/);
    if (cut <= width / 2) cut = width;
    const code = rest.charCodeAt(cut - 1);
    if (code >= 0xd800 && code <= 0xdbff) cut--;
    pieces.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  pieces.push(rest);
  return pieces;
}
