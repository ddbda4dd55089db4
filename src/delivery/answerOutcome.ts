// What an answer's end means for the chat: its outcome, the one-line notice a person reads
// when it did not complete, and the `answer` report. Pure: deliver applies it.

import type { MessageEdit } from '../channels/messageEditPlanner';
import type { TerminalEvent } from '../events';
import { renderMessages } from '../render/renderMarkdown';
import type { AnswerOutcome, AnswerReport } from './types';

/** What `deliver`'s `notice` option takes: the notice's markdown for an end, or undefined for none. */
export type NoticeText = (terminal: TerminalEvent, outcome: AnswerOutcome) => string | undefined;

/**
 * The outcome of an answer that ended with `terminal`: `silent` for a silent reply, `stopped`
 * for an `aborted` end when the stop came from the user (`stoppedByUser`: the transport's
 * `stopSignal` was aborted), else the terminal's own type.
 */
export function outcomeOf(
  terminal: TerminalEvent,
  silent: boolean,
  stoppedByUser: boolean,
): AnswerOutcome {
  if (terminal.type === 'completed') return silent ? 'silent' : 'completed';
  if (terminal.type === 'incomplete' && terminal.reason === 'aborted' && stoppedByUser) {
    return 'stopped';
  }
  return terminal.type;
}

/**
 * The default notice: short, English, and never a provider's body. An HTTP answer that was no
 * stream is named by its status, a cut stream says so, a length limit says where it cut, a stop
 * says "Stopped", any other failure names its code.
 */
export const defaultNotice: NoticeText = (terminal, outcome) => {
  if (outcome === 'completed' || outcome === 'silent') return undefined;
  if (outcome === 'stopped') return '⏹ Stopped.';
  if (terminal.type === 'incomplete') {
    if (terminal.reason === 'length') return '… (cut at the length limit)';
    if (terminal.reason === 'content-filter')
      return "⚠️ The provider's content filter stopped the answer.";
    if (terminal.reason === 'aborted') return '⚠️ The answer was cut off.';
    return `⚠️ The answer is incomplete (${codeText(terminal.reason)}).`;
  }
  if (terminal.type !== 'failed') return undefined;
  const { code, status } = terminal.error;
  if (code === 'http-error' || (code === 'unexpected-body' && status !== undefined)) {
    return status === undefined || status < 300
      ? '⚠️ The model did not answer (its reply was not a stream).'
      : `⚠️ The model did not answer (HTTP ${status}).`;
  }
  if (code === 'unexpected-body')
    return '⚠️ The model did not answer (its reply was not a stream).';
  if (code === 'stream-closed' || code === 'stream-error' || code === 'producer-lost') {
    return '⚠️ The answer was cut off.';
  }
  if (code === 'stalled' || code === 'deadline') return '⚠️ The model stopped answering in time.';
  return `⚠️ The answer failed (${codeText(code)}).`;
};

/** A code as a notice shows it: word characters and dashes, at most 40 (never a payload). */
function codeText(code: string): string {
  const kept = code
    .replace(/[^\w.-]+/g, ' ')
    .trim()
    .slice(0, 40);
  return (kept === '' ? 'error' : kept).replace(/_/g, '\\_');
}

/**
 * The edit that shows `notice` after `last` (the newest text of the answer's last message): an
 * edit of that message with the notice on a line of its own (the notice alone when that
 * message has no text: only a status line showed) when it still fits `maxMessageChars` (rendered again in its format when it was rendered), else a new message.
 */
export function noticeEdit(
  last: MessageEdit | undefined,
  notice: string,
  maxMessageChars: number | undefined,
): MessageEdit {
  if (!last) return { op: 'send', message: 0, text: notice };
  // A message with no text (only a tool status line) showed no text: the notice is its text.
  const text = last.text.trim() === '' ? notice : `${last.text}\n\n${notice}`;
  const format = last.rendered?.format;
  if (format) {
    const messages = renderMessages(
      text,
      format,
      maxMessageChars ? { maxLength: maxMessageChars } : {},
    );
    if (messages.length === 1)
      return { op: 'edit', message: last.message, text, rendered: messages[0].rendered };
  } else if (maxMessageChars === undefined || text.length <= maxMessageChars) {
    return { op: 'edit', message: last.message, text };
  }
  return { op: 'send', message: last.message + 1, text: notice };
}

/** The `answer` report. */
export function answerReport(
  terminal: TerminalEvent,
  outcome: AnswerOutcome,
  messages: number,
  delivered: boolean,
): AnswerReport {
  const report: AnswerReport = { type: 'answer', outcome, messages, delivered };
  if (terminal.type === 'incomplete') report.reason = terminal.reason;
  if (terminal.type === 'failed') {
    const { code, message, status } = terminal.error;
    report.reason = code;
    report.error = status === undefined ? { code, message } : { code, message, status };
  }
  return report;
}

/**
 * One answer's bookkeeping inside `deliver`: the newest text of its last message, the messages
 * the chat shows, failures, and its end. `end` returns the notice's edit (or undefined);
 * `report` returns the `answer` report once, after the end.
 */
export function createAnswer(
  transport: { stopSignal?: AbortSignal; maxMessageChars?: number },
  notice: false | NoticeText,
) {
  let ended: { terminal: TerminalEvent; silent: boolean } | undefined;
  let reported = false;
  let last: MessageEdit | undefined;
  const shown = new Set<number>();
  let failures = 0;
  const outcome = (terminal: TerminalEvent, silent: boolean) =>
    outcomeOf(terminal, silent, transport.stopSignal?.aborted === true);

  return {
    /** A permanent failure: no further call for this answer. */
    halted: false,
    get ended(): boolean {
      return ended !== undefined;
    },
    /** A text of the answer joined the queue. */
    seen(edit: MessageEdit): void {
      if (!last || edit.message >= last.message) last = edit;
    },
    /** The chat shows `message` (its send went through, or the ledger knew it). */
    shows(message: number): void {
      shown.add(message);
    },
    failed(permanent: boolean): void {
      failures++;
      if (permanent) this.halted = true;
    },
    /** The answer ended: the edit of its notice, if it gets one (never after a halt). */
    end(terminal: TerminalEvent, silent: boolean): MessageEdit | undefined {
      ended = { terminal, silent };
      const text = notice === false ? undefined : notice(terminal, outcome(terminal, silent));
      if (text === undefined || text === '' || this.halted) return undefined;
      return noticeEdit(last, text, transport.maxMessageChars);
    },
    /** The `answer` report, the first time it is asked for after the end. */
    report(): AnswerReport | undefined {
      if (!ended || reported) return undefined;
      reported = true;
      const { terminal, silent } = ended;
      return answerReport(terminal, outcome(terminal, silent), shown.size, failures === 0);
    },
  };
}
