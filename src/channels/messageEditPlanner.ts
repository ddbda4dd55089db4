import { cutsSurrogatePair } from '../text/surrogates';
import { renderMessages } from '../render/renderMarkdown';
import type { RenderFormat, RenderedMessage } from '../render/types';
/** One step for a bot that edits messages in place: send a new message, or edit one already sent. */
export interface MessageEdit {
  /** `send` starts message `message`; `edit` replaces its text. */
  op: 'send' | 'edit';
  /** Which message: 0 for the first one sent, then 1, 2, … */
  message: number;
  /** The whole text of that message so far (never only the new part). */
  text: string;
  /** With `toMessageEdits({ render })`: that text rendered for the chat app. */
  rendered?: RenderedMessage;
  /**
   * With `channel(name, { progress: true })`: every tool of the answer so far and its status,
   * for the transport to show its own way beside `text` (a status line, task cards). Never
   * part of `text`, never persisted in the final message.
   */
  progress?: ToolStatus[];
}

/** A tool as a chat shows it: a `progress` event without its type. */
export interface ToolStatus {
  id: string;
  name: string;
  status: 'running' | 'done' | 'error';
  title?: string;
}

/** Settings of {@link createMessageEditPlanner}. */
export interface MessageEditPlannerOptions {
  /** The platform's limit for one message (e.g. Telegram 4096). */
  maxMessageChars: number;
  /** Put between two blocks in one message. */
  separator: string;
  /** Render each message for a chat app; the limit then counts rendered length. */
  render?: RenderFormat;
}

/**
 * The pure core of `toMessageEdits` (no RxJS): state for one reply. `push(blockText)` returns
 * the sends and edits that show that block.
 *
 * - The block fits after the current message's text (plus the separator): one `edit`.
 * - It does not fit: a `send` of a new message holding the block.
 * - The block alone is longer than `maxMessageChars`: it is split, at the last whitespace
 *   within the limit when there is one (the whitespace is dropped), else hard at the limit
 *   (never inside a surrogate pair); each piece is its own `send`.
 * - An empty block changes nothing.
 *
 * With `render`, see {@link createRenderedEditPlanner}.
 */
export function createMessageEditPlanner({
  maxMessageChars,
  separator,
  render,
}: MessageEditPlannerOptions): { push(blockText: string): MessageEdit[] } {
  if (render) return createRenderedEditPlanner({ maxMessageChars, separator, render });
  let message = -1;
  let text = '';

  const send = (pieceText: string): MessageEdit => {
    message++;
    text = pieceText;
    return { op: 'send', message, text };
  };

  return {
    push(blockText: string): MessageEdit[] {
      if (blockText === '') return [];
      if (message >= 0 && text.length + separator.length + blockText.length <= maxMessageChars) {
        text = text + separator + blockText;
        return [{ op: 'edit', message, text }];
      }
      return splitToFit(blockText, maxMessageChars).map(send);
    },
  };
}

/**
 * The planner with rendering: every edit carries `rendered` (the message's markdown, `text`,
 * rendered for `render`), and a block fits when the rendered message stays within
 * `maxMessageChars` as `renderMarkdown` counts it.
 *
 * - A block whose rendering alone needs several messages is sent as `renderMarkdown` splits
 *   it: one `send` per piece, whose `text` is that piece's visible text. The next block starts
 *   a new message (a piece is never edited).
 * - A block with nothing visible changes nothing.
 */
export function createRenderedEditPlanner({
  maxMessageChars,
  separator,
  render,
}: MessageEditPlannerOptions & { render: RenderFormat }) {
  let message = -1;
  // The markdown of the current message; undefined when it is a piece of a split block.
  let text: string | undefined;
  const renderText = (markdown: string) =>
    renderMessages(markdown, render, { maxLength: maxMessageChars });

  return {
    push(blockText: string): MessageEdit[] {
      if (blockText === '') return [];
      if (text !== undefined) {
        const joined = text + separator + blockText;
        const messages = renderText(joined);
        if (messages.length === 1) {
          text = joined;
          return [{ op: 'edit', message, text, rendered: messages[0].rendered }];
        }
      }
      const messages = renderText(blockText);
      if (messages.length === 0) return [];
      if (messages.length === 1) {
        text = blockText;
        return [{ op: 'send', message: ++message, text, rendered: messages[0].rendered }];
      }
      text = undefined;
      return messages.map(({ rendered, plain }) => ({
        op: 'send',
        message: ++message,
        text: plain,
        rendered,
      }));
    },
  };
}

/** `text` in pieces of at most `limit` characters, cut at whitespace where possible. */
export function splitToFit(text: string, limit: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > limit) {
    const cut = cutPosition(rest, limit);
    const piece = rest.slice(0, cut).trimEnd();
    rest = rest.slice(cut).trimStart();
    // A piece that was all whitespace (a long run of spaces) is not worth a message.
    if (piece !== '') pieces.push(piece);
  }
  if (rest !== '') pieces.push(rest);
  return pieces;
}

/** Where to cut `text` so the first part is at most `limit` characters and at least one. */
function cutPosition(text: string, limit: number): number {
  const window = text.slice(0, limit + 1);
  // A line break wins unless it would leave a short first piece; then any whitespace will do.
  const newline = window.lastIndexOf('\n');
  if (newline > limit / 2) return newline;
  const space = window.search(/\s\S*$/);
  if (space > 0) return space;
  // A hard cut keeps a surrogate pair whole, and the first piece at least one code unit long.
  return limit > 1 && cutsSurrogatePair(text, limit) ? limit - 1 : limit;
}
