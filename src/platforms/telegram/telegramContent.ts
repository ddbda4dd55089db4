// What telegramTransport sends for one message edit: the pieces (one per platform message) at a
// formatting level, each within Telegram's limit. Levels fall back one way: rich → entities →
// plain, for messages Telegram refused.

import type { MessageEdit } from '../../channels/messageEditPlanner';
import { telegramLimits, telegramRichLimits } from './limits';
import { renderMarkdown } from '../../render/renderMarkdown';
import type { RenderedMessage } from '../../render/types';

/** The formats telegramTransport sends. */
export type TelegramFormat = 'telegram' | 'telegram-html' | 'telegram-rich';

/** How formatted a message is sent: its own format, a fallback, or plain text. */
export type ContentLevel = 'rich' | 'formatted' | 'plain';

/** One platform message's content, as the Bot API fields that carry it. */
export type Piece =
  | { rich: { markdown: string } }
  | { text: string; entities?: RenderedMessage['entities']; parse_mode?: 'HTML' };

/** The first level of a format. */
export const firstLevel = (format: TelegramFormat): ContentLevel =>
  format === 'telegram-rich' ? 'rich' : 'formatted';

/** The level after a rejection at `level`, or undefined when plain text was refused too. */
export function lowerLevel(level: ContentLevel): ContentLevel | undefined {
  return level === 'rich' ? 'formatted' : level === 'formatted' ? 'plain' : undefined;
}

/** The limit of one message at `level`. */
export const levelLimit = (level: ContentLevel): number =>
  level === 'rich' ? telegramRichLimits.maxMessageChars : telegramLimits.maxMessageChars;

/**
 * The edit rendered in `format`: `edit.rendered` when it is in that format and fits, else
 * `renderMarkdown(edit.text, format)` (the edit's text is the markdown it was rendered from, so
 * an edit rendered for another format, or not at all, is rendered here: raw markdown never
 * reaches Telegram).
 */
export function renderedIn(edit: MessageEdit, format: TelegramFormat): RenderedMessage[] {
  const limit = levelLimit(firstLevel(format));
  const given = edit.rendered;
  if (given && given.format === format && renderedLength(given) <= limit) return [given];
  return renderMarkdown(edit.text, format, { maxLength: limit });
}

/** The pieces of `edit` at `level` (at least one: an edit with nothing visible shows its text). */
export function piecesOf(edit: MessageEdit, format: TelegramFormat, level: ContentLevel): Piece[] {
  if (level === 'rich') {
    return renderedIn(edit, format).map((message) => ({ rich: { markdown: message.text } }));
  }
  if (level === 'formatted') {
    const own = format === 'telegram-rich' ? 'telegram' : format;
    const rendered = renderedIn(edit, own);
    if (rendered.length > 0) return rendered.map(formattedPiece);
  }
  const visible = renderedIn(edit, format)
    .map((message) => message.plain)
    .join('\n\n');
  const text = visible.trim() === '' ? edit.text : visible;
  return splitPlain(text, telegramLimits.maxMessageChars).map((part) => ({ text: part }));
}

function formattedPiece(message: RenderedMessage): Piece {
  if (message.parseMode === 'HTML') return { text: message.text, parse_mode: 'HTML' };
  return message.entities && message.entities.length > 0
    ? { text: message.text, entities: message.entities }
    : { text: message.text };
}

/** The length Telegram counts of a rendered message (HTML: its visible text). */
const renderedLength = (message: RenderedMessage): number =>
  message.format === 'telegram-html' ? message.plain.length : message.text.length;

/** Whether Telegram has formatting to refuse in `piece` (plain text has none). */
export const isFormatted = (piece: Piece): boolean =>
  'rich' in piece || piece.parse_mode !== undefined || (piece.entities?.length ?? 0) > 0;

/**
 * `text` in parts of at most `limit` UTF-16 units: at the last line break in the second half,
 * else the last whitespace there, else hard (never between the halves of a surrogate pair).
 */
export function splitPlain(text: string, limit: number): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > limit) {
    const window = rest.slice(0, limit + 1);
    let cut = window.lastIndexOf('\n');
    if (cut <= limit / 2) cut = window.search(/\s\S*$/);
    if (cut <= limit / 2) cut = limit;
    const code = rest.charCodeAt(cut - 1);
    if (code >= 0xd800 && code <= 0xdbff) cut--;
    parts.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest !== '' || parts.length === 0) parts.push(rest);
  return parts;
}
