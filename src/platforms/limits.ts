// The shape of one chat app's message limits. Pure data, no imports.

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
