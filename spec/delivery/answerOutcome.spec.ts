// How an answer's end reads in the chat: its outcome, the default notice a person reads, where
// that notice goes, and the `answer` report deliver gives once.
import type { MessageEdit } from '../../src/channels/messageEditPlanner';
import {
  answerReport,
  createAnswer,
  defaultNotice,
  noticeEdit,
  outcomeOf,
} from '../../src/delivery/answerOutcome';
import type { TerminalEvent } from '../../src/events';
import { renderMessages } from '../../src/render/renderMarkdown';

const completed: TerminalEvent = { type: 'completed' };
const incomplete = (reason: string): TerminalEvent => ({
  type: 'incomplete',
  reason,
  message: `cut: ${reason}`,
});
const failed = (code: string, status?: number): TerminalEvent => ({
  type: 'failed',
  error: {
    code,
    message: `failed: ${code}`,
    retryable: false,
    ...(status === undefined ? {} : { status }),
  },
});

describe('outcomeOf', () => {
  it('completed, or silent for a silent reply', () => {
    expect(outcomeOf(completed, false, false)).toBe('completed');
    expect(outcomeOf(completed, true, false)).toBe('silent');
    expect(outcomeOf(completed, false, true)).toBe('completed');
  });

  it('stopped only for an aborted end the user asked for', () => {
    expect(outcomeOf(incomplete('aborted'), false, true)).toBe('stopped');
    expect(outcomeOf(incomplete('aborted'), false, false)).toBe('incomplete');
    expect(outcomeOf(incomplete('length'), false, true)).toBe('incomplete');
    expect(outcomeOf(failed('stalled'), false, true)).toBe('failed');
    expect(outcomeOf(failed('stalled'), true, false)).toBe('failed');
  });
});

describe('defaultNotice', () => {
  it('none for a completed or silent answer', () => {
    expect(defaultNotice(completed, 'completed')).toBeUndefined();
    expect(defaultNotice(completed, 'silent')).toBeUndefined();
  });

  it('a stop, whatever ended the stream', () => {
    expect(defaultNotice(incomplete('aborted'), 'stopped')).toBe('⏹ Stopped.');
  });

  it.each([
    ['length', '… (cut at the length limit)'],
    ['content-filter', "⚠️ The provider's content filter stopped the answer."],
    ['aborted', '⚠️ The answer was cut off.'],
    ['tool_calls', '⚠️ The answer is incomplete (tool\\_calls).'],
    ['<b>weird</b> & "odd"', '⚠️ The answer is incomplete (b weird b odd).'],
    ['!!!', '⚠️ The answer is incomplete (error).'],
    ['x'.repeat(60), `⚠️ The answer is incomplete (${'x'.repeat(40)}).`],
    ['  a.b-c  ', '⚠️ The answer is incomplete (a.b-c).'],
  ])('an incomplete %j: %j', (reason, notice) => {
    expect(defaultNotice(incomplete(reason), 'incomplete')).toBe(notice);
  });

  it.each([
    ['http-error', undefined, '⚠️ The model did not answer (its reply was not a stream).'],
    ['http-error', 200, '⚠️ The model did not answer (its reply was not a stream).'],
    ['http-error', 299, '⚠️ The model did not answer (its reply was not a stream).'],
    ['http-error', 300, '⚠️ The model did not answer (HTTP 300).'],
    ['http-error', 503, '⚠️ The model did not answer (HTTP 503).'],
    ['unexpected-body', 429, '⚠️ The model did not answer (HTTP 429).'],
    ['unexpected-body', 200, '⚠️ The model did not answer (its reply was not a stream).'],
    ['unexpected-body', undefined, '⚠️ The model did not answer (its reply was not a stream).'],
    ['stream-closed', undefined, '⚠️ The answer was cut off.'],
    ['stream-error', 500, '⚠️ The answer was cut off.'],
    ['producer-lost', undefined, '⚠️ The answer was cut off.'],
    ['stalled', undefined, '⚠️ The model stopped answering in time.'],
    ['deadline', undefined, '⚠️ The model stopped answering in time.'],
    ['rate_limit_exceeded', 429, '⚠️ The answer failed (rate\\_limit\\_exceeded).'],
    ['', undefined, '⚠️ The answer failed (error).'],
  ])('a failure %j (status %s): %j', (code, status, notice) => {
    expect(defaultNotice(failed(code, status), 'failed')).toBe(notice);
  });

  it('none for a completed terminal with an outcome it does not know', () => {
    expect(defaultNotice(completed, 'failed')).toBeUndefined();
  });
});

describe('noticeEdit', () => {
  const last = (text: string, message = 2): MessageEdit => ({ op: 'edit', message, text });

  it('a new first message when the answer showed nothing', () => {
    expect(noticeEdit(undefined, '⏹ Stopped.', 100)).toEqual({
      op: 'send',
      message: 0,
      text: '⏹ Stopped.',
    });
  });

  it('an edit of the last message, the notice on a line of its own, when it fits (or no limit)', () => {
    expect(noticeEdit(last('Hello'), '⏹ Stopped.', 17)).toEqual({
      op: 'edit',
      message: 2,
      text: 'Hello\n\n⏹ Stopped.',
    });
    expect(noticeEdit(last('Hello'), '⏹ Stopped.', undefined)).toEqual({
      op: 'edit',
      message: 2,
      text: 'Hello\n\n⏹ Stopped.',
    });
  });

  it('the notice alone in a message that showed no text', () => {
    expect(noticeEdit(last('  \n'), '⏹ Stopped.', 10)).toEqual({
      op: 'edit',
      message: 2,
      text: '⏹ Stopped.',
    });
  });

  it('a new message after the last when the notice does not fit', () => {
    expect(noticeEdit(last('Hello'), '⏹ Stopped.', 16)).toEqual({
      op: 'send',
      message: 3,
      text: '⏹ Stopped.',
    });
  });

  it('a rendered last message: rendered again with the notice when one message holds both', () => {
    const rendered = renderMessages('**Hello**', 'telegram-html')[0].rendered;
    const text = '**Hello**\n\n⏹ Stopped.';
    const again = renderMessages(text, 'telegram-html', { maxLength: 100 });
    expect(again).toHaveLength(1);
    expect(noticeEdit({ ...last('**Hello**'), rendered }, '⏹ Stopped.', 100)).toEqual({
      op: 'edit',
      message: 2,
      text,
      rendered: again[0].rendered,
    });
    // No limit: rendered as one message whatever its length.
    expect(noticeEdit({ ...last('**Hello**'), rendered }, '⏹ Stopped.', undefined)).toEqual({
      op: 'edit',
      message: 2,
      text,
      rendered: renderMessages(text, 'telegram-html')[0].rendered,
    });
  });

  it('a rendered last message: a new message when the rendering with the notice takes two', () => {
    const body = 'word '.repeat(30).trim();
    const rendered = renderMessages(body, 'telegram-html')[0].rendered;
    expect(noticeEdit({ ...last(body), rendered }, '⏹ Stopped.', 155)).toEqual({
      op: 'send',
      message: 3,
      text: '⏹ Stopped.',
    });
  });
});

describe('answerReport', () => {
  it('a completed answer: outcome, messages and delivered only', () => {
    expect(answerReport(completed, 'completed', 2, true)).toStrictEqual({
      type: 'answer',
      outcome: 'completed',
      messages: 2,
      delivered: true,
    });
  });

  it('an incomplete answer adds its reason', () => {
    expect(answerReport(incomplete('length'), 'incomplete', 1, false)).toStrictEqual({
      type: 'answer',
      outcome: 'incomplete',
      messages: 1,
      delivered: false,
      reason: 'length',
    });
  });

  it('a failed answer adds its code as the reason and its error, with the status when known', () => {
    expect(answerReport(failed('stalled'), 'failed', 0, true)).toStrictEqual({
      type: 'answer',
      outcome: 'failed',
      messages: 0,
      delivered: true,
      reason: 'stalled',
      error: { code: 'stalled', message: 'failed: stalled' },
    });
    expect(answerReport(failed('http-error', 502), 'failed', 1, true)).toStrictEqual({
      type: 'answer',
      outcome: 'failed',
      messages: 1,
      delivered: true,
      reason: 'http-error',
      error: { code: 'http-error', message: 'failed: http-error', status: 502 },
    });
  });
});

describe('createAnswer', () => {
  const edit = (message: number, text: string): MessageEdit => ({ op: 'edit', message, text });

  it('puts the notice after the newest text of the highest message seen', () => {
    const answer = createAnswer({ maxMessageChars: 100 }, defaultNotice);
    answer.seen(edit(0, 'first'));
    answer.seen(edit(1, 'second'));
    answer.seen(edit(0, 'first, later'));
    answer.seen(edit(1, 'second, newer'));
    expect(answer.ended).toBe(false);
    expect(answer.end(incomplete('length'), false)).toEqual({
      op: 'edit',
      message: 1,
      text: 'second, newer\n\n… (cut at the length limit)',
    });
    expect(answer.ended).toBe(true);
  });

  it('keeps the higher message when a lower one changes after it', () => {
    const answer = createAnswer({}, defaultNotice);
    answer.seen(edit(0, 'first'));
    answer.seen(edit(1, 'second'));
    answer.seen(edit(0, 'first, later'));
    expect(answer.end(incomplete('length'), false)).toEqual({
      op: 'edit',
      message: 1,
      text: 'second\n\n… (cut at the length limit)',
    });
  });

  it('an aborted end the user did not ask for (no stop signal, or one not aborted) is incomplete, not stopped', () => {
    for (const transport of [{}, { stopSignal: new AbortController().signal }]) {
      const answer = createAnswer(transport, defaultNotice);
      answer.seen(edit(0, 'x'));
      expect(answer.end(incomplete('aborted'), false)).toEqual({
        op: 'edit',
        message: 0,
        text: 'x\n\n⚠️ The answer was cut off.',
      });
      expect(answer.report()).toStrictEqual({
        type: 'answer',
        outcome: 'incomplete',
        messages: 0,
        delivered: true,
        reason: 'aborted',
      });
    }
  });

  it('no notice for a completed answer, nor with notice false, nor an empty one', () => {
    const quiet = createAnswer({}, defaultNotice);
    quiet.seen(edit(0, 'x'));
    expect(quiet.end(completed, false)).toBeUndefined();
    const off = createAnswer({}, false);
    off.seen(edit(0, 'x'));
    expect(off.end(failed('stalled'), false)).toBeUndefined();
    const empty = createAnswer({}, () => '');
    empty.seen(edit(0, 'x'));
    expect(empty.end(failed('stalled'), false)).toBeUndefined();
  });

  it('a custom notice gets the terminal and the outcome; stopped when the stop signal aborted', () => {
    const controller = new AbortController();
    const calls: unknown[] = [];
    const answer = createAnswer({ stopSignal: controller.signal }, (terminal, outcome) => {
      calls.push([terminal.type, outcome]);
      return `ended ${outcome}`;
    });
    controller.abort();
    expect(answer.end(incomplete('aborted'), false)).toEqual({
      op: 'send',
      message: 0,
      text: 'ended stopped',
    });
    expect(calls).toEqual([['incomplete', 'stopped']]);
    expect(answer.report()).toStrictEqual({
      type: 'answer',
      outcome: 'stopped',
      messages: 0,
      delivered: true,
      reason: 'aborted',
    });
  });

  it('no notice after a permanent failure; a failure that is not permanent still gets one', () => {
    const halted = createAnswer({}, defaultNotice);
    halted.seen(edit(0, 'x'));
    halted.failed(true);
    expect(halted.halted).toBe(true);
    expect(halted.end(failed('stalled'), false)).toBeUndefined();

    const retried = createAnswer({}, defaultNotice);
    retried.seen(edit(0, 'x'));
    retried.failed(false);
    expect(retried.halted).toBe(false);
    expect(retried.end(failed('stalled'), false)).toEqual({
      op: 'edit',
      message: 0,
      text: 'x\n\n⚠️ The model stopped answering in time.',
    });
    expect(retried.report()).toStrictEqual({
      type: 'answer',
      outcome: 'failed',
      messages: 0,
      delivered: false,
      reason: 'stalled',
      error: { code: 'stalled', message: 'failed: stalled' },
    });
  });

  it('reports once, only after the end, counting each message shown once', () => {
    const answer = createAnswer({}, defaultNotice);
    answer.shows(0);
    answer.shows(1);
    answer.shows(1);
    expect(answer.report()).toBeUndefined();
    answer.end(completed, true);
    expect(answer.report()).toStrictEqual({
      type: 'answer',
      outcome: 'silent',
      messages: 2,
      delivered: true,
    });
    expect(answer.report()).toBeUndefined();
  });
});
