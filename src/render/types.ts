/** The chat formats `renderMarkdown` writes. */
export type RenderFormat =
  | 'telegram'
  | 'telegram-html'
  | 'telegram-rich'
  | 'slack'
  | 'discord'
  | 'whatsapp'
  | 'googlechat'
  | 'plain';

/** One Telegram Bot API `MessageEntity`; offsets and lengths in UTF-16 code units. */
export interface TelegramEntity {
  type:
    | 'bold'
    | 'italic'
    | 'underline'
    | 'strikethrough'
    | 'code'
    | 'pre'
    | 'text_link'
    | 'blockquote'
    | 'spoiler';
  offset: number;
  length: number;
  /** For `pre`: the code block's language, when it has one. */
  language?: string;
  /** For `text_link`. */
  url?: string;
}

/** One message ready to send: its text, and the entities or parse mode that format it. */
export interface RenderedMessage {
  /** What the app gets: text (with entities), HTML, mrkdwn, or (`telegram-rich`) markdown. */
  text: string;
  /** The format it was rendered in: a transport sends it as is only in its own format. */
  format: RenderFormat;
  /**
   * Its visible text, formatting removed: what a plain-text fallback sends and what a length
   * is counted on (transports read it, never re-derive it from `text`).
   */
  plain: string;
  /** Telegram (`format: 'telegram'`): the entities to send beside `text`. */
  entities?: TelegramEntity[];
  /** Telegram HTML (`format: 'telegram-html'`): `'HTML'`. */
  parseMode?: 'HTML';
}
