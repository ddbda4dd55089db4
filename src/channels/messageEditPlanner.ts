import { cutsSurrogatePair } from '../text/surrogates';
import { renderMessages } from '../render/renderMarkdown';
import type { RenderFormat, RenderedMessage } from '../render/types';
import type { BlockOrigin } from '../chunking/blockOrigin';
import type { TerminalEvent } from '../events';
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
}

/**
 * The last step of `toMessageEdits`: the answer ended, with `terminal` (the stream's terminal
 * event, as it came). `silent`: the reply was a silent token (`NO_REPLY`), nothing is shown.
 */
export interface MessageEnd {
  op: 'end';
  terminal: TerminalEvent;
  silent?: true;
}

/** What `toMessageEdits` emits and `deliver` takes: the edits of an answer, then its end. */
export type MessageStep = MessageEdit | MessageEnd;

/** Settings of {@link createMessageEditPlanner}. */
export interface MessageEditPlannerOptions {
  /** The platform's limit for one message (e.g. Telegram 4096). */
  maxMessageChars: number;
  /** Put between two blocks in one message when the model's text between them is not known. */
  separator: string;
  /** Render each message for a chat app; the limit then counts rendered length. */
  render?: RenderFormat;
}

/** The message being grown: the model's text so far (to join the next block to) and what it shows. */
interface OpenMessage {
  /** The model's text (with the first block's reopen line or table header), untrimmed. */
  model: string;
  /** The message's text as shown (trimmed, with the closer of a fence cut at its end). */
  text: string;
}

/**
 * The message once `blockText` joins it. A block that continues the same text part (its
 * `origin` says so) is joined as the model wrote it: the previous block's closer and this
 * block's reopen line go, the model's own text between them comes back. Any other block (a
 * new text part, a block made by hand) follows the shown text after `separator`.
 */
export function joinBlock(
  open: OpenMessage,
  blockText: string,
  origin: BlockOrigin | undefined,
  separator: string,
): OpenMessage {
  if (origin?.continues) {
    const model = open.model + origin.lead + origin.body;
    return { model, text: model.trimEnd() + origin.closer };
  }
  const before = open.text + separator;
  return { model: before + startMessage(blockText, origin).model, text: before + blockText };
}

/** A message that starts with the block: its text as the chunker made it. */
function startMessage(blockText: string, origin: BlockOrigin | undefined): OpenMessage {
  return { model: origin ? origin.prefix + origin.body : blockText, text: blockText };
}

/**
 * The pure core of `toMessageEdits` (no RxJS): state for one reply. `push(blockText, origin?)`
 * returns the sends and edits that show that block.
 *
 * - The block fits in the current message: one `edit`. Blocks of one text part are joined as
 *   the model wrote them (`origin`, recorded by bufferChunk): no separator, and a fence the
 *   chunker closed and reopened between them is whole again. Other blocks follow `separator`.
 * - It does not fit: a `send` of a new message holding the block (as the chunker cut it, so a
 *   fence cut by the message boundary is closed in one and reopened in the next).
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
}: MessageEditPlannerOptions): MessageEditPlanner {
  if (render) return createRenderedEditPlanner({ maxMessageChars, separator, render });
  let message = -1;
  let open: OpenMessage | undefined;

  const send = (pieceText: string): MessageEdit => {
    message++;
    open = { model: pieceText, text: pieceText };
    return { op: 'send', message, text: pieceText };
  };

  return {
    push(blockText: string, origin?: BlockOrigin): MessageEdit[] {
      if (blockText === '') return [];
      if (open) {
        const joined = joinBlock(open, blockText, origin, separator);
        const text = joined.text;
        if (text.length <= maxMessageChars) {
          open = joined;
          return [{ op: 'edit', message, text }];
        }
      }
      const pieces = splitToFit(blockText, maxMessageChars);
      const edits = pieces.map(send);
      if (pieces.length === 1) open = startMessage(blockText, origin);
      return edits;
    },
  };
}

/** What {@link createMessageEditPlanner} returns. */
export interface MessageEditPlanner {
  push(blockText: string, origin?: BlockOrigin): MessageEdit[];
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
}: MessageEditPlannerOptions & { render: RenderFormat }): MessageEditPlanner {
  let message = -1;
  // The markdown of the current message; undefined when it is a piece of a split block.
  let open: OpenMessage | undefined;
  const renderText = (markdown: string) =>
    renderMessages(markdown, render, { maxLength: maxMessageChars });

  return {
    push(blockText: string, origin?: BlockOrigin): MessageEdit[] {
      if (blockText === '') return [];
      if (open) {
        const joined = joinBlock(open, blockText, origin, separator);
        const text = joined.text;
        const messages = renderText(text);
        if (messages.length === 1) {
          open = joined;
          return [{ op: 'edit', message, text, rendered: messages[0].rendered }];
        }
      }
      const messages = renderText(blockText);
      if (messages.length === 0) return [];
      if (messages.length === 1) {
        open = startMessage(blockText, origin);
        return [
          { op: 'send', message: ++message, text: blockText, rendered: messages[0].rendered },
        ];
      }
      open = undefined;
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

/** True for a `send` or an `edit`, false for the `end` step: `steps.filter(isMessageEdit)`. */
export function isMessageEdit(step: MessageStep): step is MessageEdit {
  return step.op !== 'end';
}
