// The steps toMessageEdits emits and deliver takes, and the planner's shape: types only, shared
// by the plain and the rendered planner.
import type { BlockOrigin } from '../chunking/blockOrigin';
import type { TerminalEvent } from '../events';
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

/** Settings of `createMessageEditPlanner`. */
export interface MessageEditPlannerOptions {
  /** The platform's limit for one message (e.g. Telegram 4096). */
  maxMessageChars: number;
  /** Put between two blocks in one message when the model's text between them is not known. */
  separator: string;
  /** Render each message for a chat app; the limit then counts rendered length. */
  render?: RenderFormat;
}

/** What `createMessageEditPlanner` returns. */
export interface MessageEditPlanner {
  /** The sends and edits that show the block. */
  push(blockText: string, origin?: BlockOrigin): MessageEdit[];
  /** The answer ended: the edit that closes a fence cut at the last message's end, if any. */
  close(): MessageEdit[];
}
