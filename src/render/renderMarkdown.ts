import * as z from 'zod/mini';
import { LlmRxError } from '../errors';
import { parseOptions } from '../internal/options';
import { platformLimits } from '../platforms';
import { toWellFormed } from '../text/surrogates';
import type { FormatWriter } from './fragment';
import { layoutMessages, type LaidOutMessage } from './layoutMessages';
import { googleChatWriter, whatsappWriter } from './appMarkupWriters';
import { discordWriter, plainWriter, slackWriter } from './markupWriters';
import { parseBlocks } from './parseBlocks';
import { layoutRichMessages } from './richMarkdown';
import { telegramHtmlWriter, telegramWriter } from './telegramWriters';
import type { RenderFormat, RenderedMessage } from './types';

/** Options of {@link renderMarkdown}. */
export interface RenderMarkdownOptions {
  /**
   * The longest message, as the app counts it: Telegram the UTF-16 length of the visible
   * (entity-parsed) text, Slack and Discord the characters of the rendered text.
   * `telegram-rich` counts the markdown's own length (never less than the visible text).
   * @defaultValue from `platformLimits`: telegram 4096, telegram-html 4096, telegram-rich
   * 32,768, slack 4000, discord 2000, whatsapp 4096, googlechat 4096, plain none
   */
  maxLength?: number;
}

/** The formats, with their writer (none: markdown kept, see richMarkdown.ts) and default limit. */
const FORMATS: Record<RenderFormat, { writer?: FormatWriter; maxLength: number }> = {
  telegram: { writer: telegramWriter, maxLength: platformLimits.telegram.maxMessageChars },
  'telegram-html': {
    writer: telegramHtmlWriter,
    maxLength: platformLimits.telegram.maxMessageChars,
  },
  'telegram-rich': { maxLength: platformLimits['telegram-rich'].maxMessageChars },
  slack: { writer: slackWriter, maxLength: platformLimits.slack.maxMessageChars },
  discord: { writer: discordWriter, maxLength: platformLimits.discord.maxMessageChars },
  whatsapp: { writer: whatsappWriter, maxLength: platformLimits.whatsapp.maxMessageChars },
  googlechat: { writer: googleChatWriter, maxLength: platformLimits.googlechat.maxMessageChars },
  plain: { writer: plainWriter, maxLength: Infinity },
};

/** Every format `renderMarkdown` knows. */
export const renderFormats = Object.keys(FORMATS) as RenderFormat[];

/** The smallest `maxLength`: room for a fenced code line with its language and a quote. */
export const MIN_RENDER_LENGTH = 64;

const RenderMarkdownOptions = z.object({
  maxLength: z.optional(z.int().check(z.gte(MIN_RENDER_LENGTH))),
});

/**
 * Renders markdown for a chat app, as messages that each fit the app's limit.
 * Pure and synchronous; any string renders.
 *
 * - `telegram`: `text` + Bot API `entities` (no parse mode: nothing to escape or reject).
 * - `telegram-html`: Telegram HTML (`parseMode: 'HTML'`), escaped, tags balanced per message.
 * - `telegram-rich`: markdown as Telegram's Rich Messages read it (`sendRichMessage`): GFM
 *   tables, headings and lists kept as written; a table wider than 20 columns becomes a code
 *   block; at most 500 blocks and 32,768 characters a message.
 * - `slack`: mrkdwn (`*bold*`, `_italic_`, `~strike~`, `<url|text>`, fences), `&<>` escaped.
 * - `discord`: markdown as Discord renders it (headings keep `#`). `plain`: the visible text.
 * - `whatsapp`: `*bold*`, `_italic_`, `~strike~`, backticks; a link as its text and `(url)`.
 * - `googlechat`: Google Chat's markup (`MARKUP_SYNTAX_CHAT`), links as `<url|text>`.
 * - Tables become a monospace block, columns padded by display width (CJK, emoji: two columns).
 *   Headings become a bold line. Lists get `•` or their number.
 * - Links keep their URL as the model wrote it (parentheses, non-ASCII, query strings: nothing
 *   percent-encoded); only absolute http(s) URLs become links, others keep just their text.
 * - A longer text becomes several messages, split between blocks where it can; a block too long
 *   for one message is split at a line break or space (else hard, never inside a surrogate
 *   pair): its marks close and reopen, a code block closes and reopens with its language.
 *
 * @example
 * ```ts
 * for (const { text, entities } of renderMarkdown('**Hi** `x`', 'telegram'))
 *   await bot.sendMessage(chatId, text, { entities });
 * // [{ text: 'Hi x', entities: [{ type: 'bold', offset: 0, length: 2 }, { type: 'code', offset: 3, length: 1 }] }]
 * ```
 * @param markdown - The markdown (a block from `channel()`, or a whole answer).
 * @param format - `'telegram' | 'telegram-html' | 'telegram-rich' | 'slack' | 'discord' |
 *   'whatsapp' | 'googlechat' | 'plain'`.
 * @param options - {@link RenderMarkdownOptions}
 * @returns The messages, in order; none for text with nothing visible.
 * @throws LlmRxError `invalid-options` for an unknown format or a bad `maxLength`.
 */
export function renderMarkdown(
  markdown: string,
  format: RenderFormat,
  options?: RenderMarkdownOptions,
): RenderedMessage[] {
  return renderMessages(markdown, format, options).map((message) => message.rendered);
}

/**
 * {@link renderMarkdown}, with each message's visible text beside it (for `toMessageEdits`,
 * whose edits carry the text as well as the rendering). Same validation.
 */
export function renderMessages(
  markdown: string,
  format: RenderFormat,
  options?: RenderMarkdownOptions,
): LaidOutMessage[] {
  const settings = parseOptions('renderMarkdown', RenderMarkdownOptions, options);
  const chosen = Object.hasOwn(FORMATS, format) ? FORMATS[format] : undefined;
  if (!chosen) {
    throw new LlmRxError(
      'invalid-options',
      `renderMarkdown: unknown format ${JSON.stringify(format)}; use one of ${renderFormats.join(', ')}`,
    );
  }
  if (typeof markdown !== 'string') {
    throw new LlmRxError(
      'invalid-options',
      `renderMarkdown: markdown must be a string, got ${typeof markdown}`,
    );
  }
  const maxLength = settings.maxLength ?? chosen.maxLength;
  if (!chosen.writer) return layoutRichMessages(toWellFormed(markdown), maxLength);
  const blocks = parseBlocks(toWellFormed(markdown));
  return layoutMessages(blocks, chosen.writer, format, maxLength);
}
