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
      'Telegram Bot API sendMessage / editMessageText / sendMessageDraft: text is 1-4096 characters after entity parsing.',
  },
  'telegram-rich': {
    maxMessageChars: 32768,
    source:
      'Telegram Bot API sendRichMessage (Bot API 10.1): at most 32,768 characters of text, else 400 RICH_MESSAGE_TEXT_TOO_LONG.',
  },
  slack: {
    maxMessageChars: 4000,
    maxStreamChars: 12000,
    source:
      'Slack chat.postMessage: keep `text` under 4,000 characters (longer is truncated at 40,000); a chat.startStream message holds 12,000.',
  },
  discord: {
    maxMessageChars: 2000,
    source: 'Discord API Create Message: content is at most 2000 characters.',
  },
  signal: {
    maxMessageChars: 2000,
    source:
      'Signal clients send a body over 2,000 characters as a long-text attachment, not inline.',
  },
  msteams: {
    maxMessageChars: 28000,
    source: 'Microsoft Teams caps a message at about 28 KB of text and HTML.',
  },
  sms: {
    maxMessageChars: 160,
    source:
      'GSM 03.38: one SMS segment holds 160 GSM-7 characters (153 when concatenated, 70 in UCS-2).',
  },
} satisfies Record<PlatformName, PlatformLimit>);
