// What the fake Bot API checks in a request body, with Telegram's own error descriptions.
// Sources, for each rule:
// - entities, HTML: core.telegram.org/bots/api#formatting-options ("Bad Request: can't parse
//   entities: …" is what the Bot API answers for a bad entity or tag).
// - 4096: sendMessage / editMessageText / sendMessageDraft, "1-4096 characters after entities
//   parsing" → "Bad Request: message is too long".
// - rich messages: InputRichMessage ("exactly one of html, markdown or blocks"); the limits
//   Telegram's servers enforce and their descriptions, as bot authors recorded them against the
//   live API (Bot API 10.1/10.2): 32,768 characters inclusive → RICH_MESSAGE_TEXT_TOO_LONG, 500
//   blocks → RICH_MESSAGE_BLOCKS_TOO_MANY, 20 table columns → RICH_MESSAGE_TABLE_COLS_TOO_MANY,
//   16 nesting levels → RICH_MESSAGE_DEPTH_INVALID, empty markdown → RICH_MESSAGE_MARKDOWN_INVALID.

export const MAX_TEXT = 4096;
export const MAX_RICH_TEXT = 32768;

const ENTITY_TYPES = new Set([
  'bold',
  'italic',
  'underline',
  'strikethrough',
  'code',
  'pre',
  'text_link',
  'blockquote',
  'spoiler',
]);
const HTML_TAGS = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'a',
  'code',
  'pre',
  'blockquote',
  'tg-spoiler',
  'span',
]);

/** A text message's formatting problem (entities or HTML), or undefined. */
export function formattingProblem(body: any): string | undefined {
  const problem =
    body.parse_mode === 'HTML' ? htmlProblem(body.text) : entitiesProblem(body.text, body.entities);
  return problem && `Bad Request: can't parse entities: ${problem}`;
}

function entitiesProblem(text: string, entities: unknown): string | undefined {
  if (entities === undefined) return undefined;
  if (!Array.isArray(entities)) return 'entities must be an array';
  for (const [i, entity] of entities.entries()) {
    const { type, offset, length, url, language } = entity ?? {};
    if (!ENTITY_TYPES.has(type)) return `entity ${i} has an unsupported type`;
    if (!Number.isInteger(offset) || !Number.isInteger(length) || offset < 0 || length < 1) {
      return `entity ${i} has a bad offset or length`;
    }
    if (offset + length > text.length) return `entity ${i} ends after the end of the text`;
    if (type === 'text_link' && typeof url !== 'string') return `entity ${i} has no url`;
    if (language !== undefined && typeof language !== 'string') return `entity ${i} language`;
  }
  return undefined;
}

function htmlProblem(html: string): string | undefined {
  const open: string[] = [];
  const tokens = html.match(/<[^>]*>?|&[^;\s<&]*;?/g) ?? [];
  for (const token of tokens) {
    if (token.startsWith('&')) {
      if (!/^&(amp|lt|gt|quot|#\d+|#x[0-9a-f]+);$/i.test(token)) return `bad entity ${token}`;
      continue;
    }
    const tag = /^<(\/?)([a-z-]+)(\s[^>]*)?>$/i.exec(token);
    if (!tag || !HTML_TAGS.has(tag[2].toLowerCase())) return `unsupported tag ${token}`;
    const name = tag[2].toLowerCase();
    if (tag[1] === '') open.push(name);
    else if (open.pop() !== name) return `can't find end tag corresponding to start tag ${name}`;
  }
  return open.length > 0 ? `can't find end tag for ${open[open.length - 1]}` : undefined;
}

/** The length Telegram counts: the text after entity parsing (HTML tags removed). */
export function visibleLength(body: { text: string; parse_mode?: string }): number {
  if (body.parse_mode !== 'HTML') return body.text.length;
  return body.text.replace(/<[^>]*>/g, '').replace(/&[^;]+;/g, '_').length;
}

/** The markdown of a valid `rich_message`, or Telegram's description of what is wrong. */
export function readRichMessage(rich: unknown): { markdown: string } | { problem: string } {
  if (typeof rich !== 'object' || rich === null) {
    return { problem: 'Bad Request: field "rich_message" must be of type Object' };
  }
  const { markdown, html, blocks } = rich as Record<string, unknown>;
  const given = [markdown, html, blocks].filter((field) => field !== undefined).length;
  if (given !== 1 || (markdown !== undefined && typeof markdown !== 'string')) {
    return { problem: 'Bad Request: RICH_MESSAGE_MARKDOWN_INVALID' };
  }
  if (typeof markdown !== 'string') return { markdown: String(html ?? '') };
  if (markdown.trim() === '') return { problem: 'Bad Request: RICH_MESSAGE_MARKDOWN_INVALID' };
  if (markdown.length > MAX_RICH_TEXT)
    return { problem: 'Bad Request: RICH_MESSAGE_TEXT_TOO_LONG' };
  const lines = markdown.split('\n');
  const widest = Math.max(
    0,
    ...lines.filter((line) => /^\s*\|/.test(line)).map((line) => cellsOf(line)),
  );
  if (widest > 20) return { problem: 'Bad Request: RICH_MESSAGE_TABLE_COLS_TOO_MANY' };
  const deepest = Math.max(
    0,
    ...lines.map((line) => /^(\s*>)*/.exec(line)![0].split('>').length - 1),
  );
  if (deepest > 16) return { problem: 'Bad Request: RICH_MESSAGE_DEPTH_INVALID' };
  const blocks500 = markdown.split(/\n\s*\n/).filter((part) => part.trim() !== '').length;
  if (blocks500 > 500) return { problem: 'Bad Request: RICH_MESSAGE_BLOCKS_TOO_MANY' };
  return { markdown };
}

/** The cells of a GFM table line (`| a | b |` → 2). */
function cellsOf(line: string): number {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/).length;
}
