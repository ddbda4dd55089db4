// The size limits of the chat platforms, in one place: channel presets, renderMarkdown's default
// maxLength and the transports all read them from here. Pure data, no imports.

/** What one platform allows in one message, and where that number comes from. */
export interface PlatformLimit {
  /**
   * The longest message, as the platform counts it (Telegram: UTF-16 code units of the text
   * after entity parsing; the others: characters of the text sent).
   */
  readonly maxMessageChars: number;
  /** A native stream's limit, when it differs (Slack `chat.appendStream`). */
  readonly maxStreamChars?: number;
  /** Where the limit comes from, in one line. */
  readonly source: string;
}

/** The platforms llm-rx knows a limit for. */
export type PlatformName =
  'telegram' | 'telegram-rich' | 'slack' | 'discord' | 'signal' | 'msteams' | 'sms';

/**
 * One message's size limit per chat platform, read by `channelPresets`, `renderMarkdown`
 * (its default `maxLength`) and the transports (their `maxMessageChars`).
 *
 * | platform | one message at most | native stream |
 * |---|---|---|
 * | telegram | 4096 | (drafts: 4096) |
 * | telegram-rich | 32,768 | (rich drafts: 32,768) |
 * | slack | 4000 | 12,000 |
 * | discord | 2000 | — |
 * | signal | 2000 | — |
 * | msteams | 28,000 | — |
 * | sms | 160 | — |
 *
 * @example
 * ```ts
 * toMessageEdits({ maxMessageChars: platformLimits.telegram.maxMessageChars, render: 'telegram' });
 * ```
 */
export const platformLimits: Readonly<Record<PlatformName, PlatformLimit>> = Object.freeze({
  telegram: {
    maxMessageChars: 4096,
    source:
      'Bot API sendMessage, editMessageText, sendMessageDraft: 1-4096 characters after entities.',
  },
  'telegram-rich': {
    maxMessageChars: 32768,
    source: 'Bot API sendRichMessage: 32,768 characters.',
  },
  slack: {
    maxMessageChars: 4000,
    maxStreamChars: 12000,
    source: 'chat.postMessage: under 4,000 characters; a stream: 12,000.',
  },
  discord: {
    maxMessageChars: 2000,
    source: 'Create Message: 2000 characters.',
  },
  signal: {
    maxMessageChars: 2000,
    source: 'Over 2,000 characters becomes a long-text attachment.',
  },
  msteams: {
    maxMessageChars: 28000,
    source: 'Teams: about 28 KB per message.',
  },
  sms: {
    maxMessageChars: 160,
    source: 'One GSM-7 segment: 160 characters.',
  },
} satisfies Record<PlatformName, PlatformLimit>);
