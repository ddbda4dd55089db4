// What every rendered message must satisfy, format by format, and the visible text of rendered
// messages and of markdown (the oracle: markdown-it's own HTML, tags stripped), for the specs.

import MarkdownIt from 'markdown-it';
import { toWellFormed } from '../../src/text/surrogates';
import type { RenderFormat, RenderedMessage, TelegramEntity } from '../../src/render/types';

export const DEFAULT_LIMITS: Record<RenderFormat, number> = {
  telegram: 4096,
  'telegram-html': 4096,
  'telegram-rich': 32768,
  slack: 4000,
  discord: 2000,
  whatsapp: 4096,
  googlechat: 4096,
  plain: Infinity,
};

const decodeHtml = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

/** Telegram HTML without its tags: the text Telegram shows. */
export const htmlVisible = (html: string) => decodeHtml(html.replace(/<[^>]*>/g, ''));

const oracle = new MarkdownIt({ linkify: true });
oracle.linkify.set({ fuzzyLink: false, fuzzyEmail: false });

/**
 * The text a reader of `markdown` sees, from markdown-it's own HTML (not from the renderer):
 * tags dropped, entities decoded, list items given `• ` or their number, images their alt
 * text, a rule `———`.
 */
export function markdownVisible(markdown: string): string {
  const html = oracle.render(toWellFormed(markdown));
  const lists: Array<{ next: number | undefined }> = [];
  const text = html.replace(/<(\/?)(ol|ul|li|img|hr)\b([^>]*)>/g, (_, close, tag, attrs) => {
    if (tag === 'ol' || tag === 'ul') {
      if (close) lists.pop();
      else
        lists.push({
          next: tag === 'ol' ? Number(/start="(\d+)"/.exec(attrs)?.[1] ?? 1) : undefined,
        });
      return '';
    }
    if (tag === 'li') {
      if (close) return '';
      const list = lists[lists.length - 1];
      return list.next === undefined ? '• ' : `${list.next++}. `;
    }
    if (tag === 'img') return /alt="([^"]*)"/.exec(attrs)?.[1] ?? '';
    return '———';
  });
  return decodeHtml(text.replace(/<[^>]*>/g, ''));
}

/** The visible text of rendered messages, markers removed as far as each format allows. */
export function renderedVisible(messages: RenderedMessage[], format: RenderFormat): string {
  return messages
    .map(({ text, plain }) => {
      switch (format) {
        case 'telegram-rich':
          return plain;
        case 'telegram-html':
          return htmlVisible(text);
        case 'slack':
          // Source `<`, `>`, `&` are escaped: every literal `>` is markup (quote, link end).
          return decodeHtml(text.replace(/<https?:\/\/[^|>]*\|/g, '').replace(/>/g, ''));
        case 'discord':
          return text.replace(/\]\(<https?:\/\/[^>]*>\)/g, '').replace(/^```[\w#+.-]*$/gm, '');
        default:
          return text;
      }
    })
    .join('\n');
}

/**
 * What "visible text conserved" compares: no whitespace (splits, padding), no table rules and
 * separators, and — for Slack and Discord, whose markers are characters of the text — none of
 * the characters a marker or escape is made of (on both sides alike).
 */
export function comparable(text: string, format: RenderFormat): string {
  const stripped = text.replace(/[\s|\u200b-]/g, '');
  return format === 'slack' || format === 'discord'
    ? stripped.replace(/[*_~`\\[\]#>ˋ]/g, '')
    : stripped;
}

/** The length the format's limit counts. */
export function renderedLength(message: RenderedMessage, format: RenderFormat): number {
  return format === 'telegram-html' ? htmlVisible(message.text).length : message.text.length;
}

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** Problems with a string's UTF-16 (a lone surrogate), or an empty list. */
export function surrogateProblems(text: string): string[] {
  return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text)
    ? ['lone surrogate in text']
    : [];
}

/** Problems with Telegram entities: range, surrogate cuts, nesting, what may contain what. */
export function entityProblems(text: string, entities: TelegramEntity[]): string[] {
  const problems: string[] = [];
  const cutsPair = (at: number) =>
    at > 0 && at < text.length && isHigh(text.charCodeAt(at - 1)) && isLow(text.charCodeAt(at));
  for (const entity of entities) {
    const end = entity.offset + entity.length;
    if (entity.offset < 0 || entity.length <= 0 || end > text.length)
      problems.push(`out of range: ${JSON.stringify(entity)}`);
    if (cutsPair(entity.offset) || cutsPair(end))
      problems.push(`cuts a surrogate pair: ${JSON.stringify(entity)}`);
    if (entity.type === 'text_link' && !/^https?:\/\//.test(entity.url ?? ''))
      problems.push(`text_link without http(s) url: ${JSON.stringify(entity)}`);
  }
  entities.forEach((outer, outerIndex) => {
    entities.forEach((inner, innerIndex) => {
      // Of two entities over the same range, the one listed first is the outer one.
      const sameRange = outer.offset === inner.offset && outer.length === inner.length;
      if (outer === inner || (sameRange && outerIndex > innerIndex)) return;
      const outerEnd = outer.offset + outer.length;
      const innerEnd = inner.offset + inner.length;
      const disjoint = innerEnd <= outer.offset || inner.offset >= outerEnd;
      const inside = inner.offset >= outer.offset && innerEnd <= outerEnd;
      if (!disjoint && !inside && !(outer.offset >= inner.offset && outerEnd <= innerEnd))
        problems.push(`overlap: ${JSON.stringify(outer)} ${JSON.stringify(inner)}`);
      if (inside && !disjoint && (outer.type === 'code' || outer.type === 'pre'))
        problems.push(`${outer.type} contains ${inner.type}`);
      if (inside && !disjoint && outer.type === 'blockquote' && inner.type === 'blockquote')
        problems.push('nested blockquote');
    });
  });
  return problems;
}

const HTML_TAGS = new Set(['b', 'i', 's', 'u', 'code', 'pre', 'a', 'blockquote', 'tg-spoiler']);

/** Problems with Telegram HTML: unknown tags, unbalanced tags, a raw `<`, `>` or `&`. */
export function htmlProblems(html: string): string[] {
  const problems: string[] = [];
  const stack: string[] = [];
  const token = /<(\/?)([a-z-]+)((?: [a-z]+="[^"<>]*")?)>|&(?:amp|lt|gt|quot);|[<>&]/g;
  for (const match of html.matchAll(token)) {
    const [whole, close, tag] = match;
    if (whole.length === 1) {
      problems.push(`raw ${whole} at ${match.index}`);
    } else if (tag) {
      if (!HTML_TAGS.has(tag)) problems.push(`unknown tag ${whole}`);
      else if (!close) stack.push(tag);
      else if (stack.pop() !== tag) problems.push(`unbalanced ${whole} at ${match.index}`);
    }
  }
  if (stack.length > 0) problems.push(`unclosed: ${stack.join(', ')}`);
  return problems;
}

/** One code block as a message shows it: its language and code. */
export interface ShownCode {
  language: string;
  code: string;
}

/** The code blocks of one message, read back from the format; `null` if a fence is unbalanced. */
export function shownCodeBlocks(
  message: RenderedMessage,
  format: RenderFormat,
): ShownCode[] | null {
  if (format === 'telegram') {
    return (message.entities ?? [])
      .filter((entity) => entity.type === 'pre')
      .map((entity) => ({
        language: entity.language ?? '',
        code: message.text.slice(entity.offset, entity.offset + entity.length),
      }));
  }
  if (format === 'telegram-html') {
    const blocks = [
      ...message.text.matchAll(
        /<pre>(?:<code class="language-([^"]+)">)?([\s\S]*?)(?:<\/code>)?<\/pre>/g,
      ),
    ];
    return blocks.map(([, language, code]) => ({
      language: language ?? '',
      code: decodeHtml(code),
    }));
  }
  if (format === 'slack' || format === 'discord') {
    const lines = message.text.split('\n').map((line) => line.replace(/^> /, ''));
    const blocks: ShownCode[] = [];
    let open: ShownCode | undefined;
    for (const line of lines) {
      const fence = /^```([\w#+.-]*)$/.exec(line);
      if (open && line === '```') {
        blocks.push(open);
        open = undefined;
      } else if (!open && fence) {
        open = { language: fence[1], code: '' };
      } else if (open) {
        open.code += (open.code === '' ? '' : '\n') + line;
      } else if (line.includes('```')) {
        return null;
      }
    }
    return open ? null : blocks;
  }
  return [];
}

const fenceParser = new MarkdownIt();

/** The fenced code blocks of `markdown` that have a language, in order. */
function sourceFences(markdown: string): ShownCode[] {
  return fenceParser
    .parse(toWellFormed(markdown), {})
    .filter((token) => token.type === 'fence')
    .map((token) => ({ language: token.info.trim().split(/\s+/)[0], code: token.content }))
    .filter((fence) => /^[\w#+.-]{1,32}$/.test(fence.language) && fence.code.trim() !== '');
}

const bare = (text: string) => text.replace(/[\s\u200b]/g, '');

/**
 * Every property of the issue for one rendering, as a list of problems (empty when all hold):
 * within the limit; Telegram entities valid; HTML balanced and escaped; no lone surrogate;
 * visible text conserved; every part of a split code block a whole block with its language.
 */
export function renderingProblems(
  markdown: string,
  format: RenderFormat,
  messages: RenderedMessage[],
  maxLength = DEFAULT_LIMITS[format],
): string[] {
  const problems: string[] = [];
  messages.forEach((message, index) => {
    const at = (problem: string) => `message ${index}: ${problem}`;
    const length = renderedLength(message, format);
    if (length > maxLength) problems.push(at(`length ${length} > ${maxLength}`));
    if (message.text.trim() === '') problems.push(at('empty message'));
    problems.push(...surrogateProblems(message.text).map(at));
    if (format === 'telegram')
      problems.push(...entityProblems(message.text, message.entities ?? []).map(at));
    if (format === 'telegram-html') {
      if (message.parseMode !== 'HTML') problems.push(at('parseMode is not HTML'));
      problems.push(...htmlProblems(message.text).map(at));
    }
  });
  const shown = comparable(renderedVisible(messages, format), format);
  const expected = comparable(markdownVisible(markdown), format);
  if (shown !== expected) {
    let first = 0;
    while (shown[first] === expected[first]) first++;
    problems.push(
      `visible text differs at ${first}: shown ${JSON.stringify(shown.slice(first, first + 40))}, expected ${JSON.stringify(expected.slice(first, first + 40))}`,
    );
  }
  const shownBlocks = messages.map((message) => shownCodeBlocks(message, format));
  if (shownBlocks.some((blocks) => blocks === null))
    problems.push('a message has an unbalanced fence');
  else if (format !== 'slack' && format !== 'plain') {
    const parts = shownBlocks.flat().filter((block) => block!.language !== '') as ShownCode[];
    for (const fence of sourceFences(markdown)) {
      let joined = '';
      while (joined.length < bare(fence.code).length && parts.length > 0) {
        const part = parts.shift()!;
        if (part.language !== fence.language)
          problems.push(`code part in ${part.language}, block in ${fence.language}`);
        joined += bare(part.code);
      }
      if (joined !== bare(fence.code))
        problems.push(
          `code block ${JSON.stringify(fence.code.slice(0, 30))} shown as ${JSON.stringify(joined.slice(0, 30))}`,
        );
    }
    if (parts.length > 0) problems.push(`${parts.length} code parts with a language left over`);
  }
  return problems;
}
