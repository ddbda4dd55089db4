// What deliver reports for each call's outcome, and how it reads a failure and a transport's
// result: the reports and decisions a user sees in deliver's output.
import type { MessageEdit } from '../../src/channels/messageEditPlanner';
import {
  attempt,
  callTransport,
  decideAfterFailure,
  deliveredReport,
  describeFailure,
  failedReport,
  isAmbiguous,
  isPromiseLike,
  kindOf,
  ledgerUnreadable,
  ledgerWriteFailedReport,
  possibleDuplicateReport,
  resumedReport,
  retryingReport,
} from '../../src/delivery/callOutcome';
import type { QueuedCall } from '../../src/delivery/deliveryQueue';
import { DeliveryError } from '../../src/delivery/errors';
import type { DeliveryTransport, TransportCall } from '../../src/delivery/types';
import { LlmRxError } from '../../src/errors';

const edit = (text: string): MessageEdit => ({ op: 'edit', message: 2, text });
const call = (op: QueuedCall['op'], attemptNumber = 1): QueuedCall => ({
  message: 2,
  op,
  edit: edit('Hello'),
  ref: 'ref-2',
  attempt: attemptNumber,
});
const policy = { maxAttempts: 3, backoffMs: 100 };

describe('decideAfterFailure', () => {
  it('notModified counts as delivered for an edit and a finish', () => {
    expect(decideAfterFailure({ notModified: true }, call('edit'), 0, policy)).toEqual({
      kind: 'not-modified',
    });
    expect(decideAfterFailure({ notModified: true }, call('finish'), 0, policy)).toEqual({
      kind: 'not-modified',
    });
    // Only `true` is read as notModified.
    expect(decideAfterFailure({ notModified: 'yes' }, call('edit'), 0, policy).kind).toBe('retry');
  });

  it('a retryAfterMs of 0 waits 0 without counting; at the last attempt it still waits', () => {
    expect(decideAfterFailure({ retryAfterMs: 0 }, call('edit'), 2, policy)).toEqual({
      kind: 'retry',
      delayMs: 0,
      reason: 'retry-after',
      counted: false,
    });
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, '3000'])(
    'a retryAfterMs of %p backs off instead',
    (retryAfterMs) => {
      expect(decideAfterFailure({ retryAfterMs }, call('edit'), 1, policy)).toEqual({
        kind: 'retry',
        delayMs: 200,
        reason: 'backoff',
        counted: true,
      });
    },
  );

  it('backs off doubling, and gives up at the maxAttempts-th counted failure with its status', () => {
    expect(
      decideAfterFailure({ status: 500 }, call('send'), 0, { maxAttempts: 4, backoffMs: 50 }),
    ).toEqual({
      kind: 'retry',
      delayMs: 50,
      reason: 'backoff',
      counted: true,
    });
    expect(
      decideAfterFailure({ status: 500 }, call('send'), 2, { maxAttempts: 4, backoffMs: 50 }),
    ).toEqual({
      kind: 'retry',
      delayMs: 200,
      reason: 'backoff',
      counted: true,
    });
    expect(
      decideAfterFailure({ status: 500 }, call('send'), 3, { maxAttempts: 4, backoffMs: 50 }),
    ).toEqual({
      kind: 'give-up',
      status: 500,
      permanent: false,
    });
    expect(
      decideAfterFailure({ status: '500' }, call('send'), 3, { maxAttempts: 4, backoffMs: 50 }),
    ).toEqual({
      kind: 'give-up',
      status: undefined,
      permanent: false,
    });
  });

  it('gives up at once on a permanent failure, even one with a retryAfterMs; only `true` is permanent', () => {
    expect(
      decideAfterFailure({ permanent: true, retryAfterMs: 10 }, call('edit'), 0, policy),
    ).toEqual({
      kind: 'give-up',
      status: undefined,
      permanent: true,
    });
    expect(decideAfterFailure({ permanent: 1 }, call('edit'), 0, policy).kind).toBe('retry');
  });

  it('reads null and undefined as a plain failure', () => {
    for (const thrown of [null, undefined]) {
      expect(decideAfterFailure(thrown, call('edit'), 0, policy)).toEqual({
        kind: 'retry',
        delayMs: 100,
        reason: 'backoff',
        counted: true,
      });
    }
  });
});

describe('isAmbiguous', () => {
  it.each([
    [{ ambiguous: true }, true],
    [{ ambiguous: false, status: 503 }, false],
    [{ status: 500 }, true],
    [{ status: 499 }, false],
    [{ status: '503' }, false],
    [new DeliveryError('x', { status: 502 }), true],
    [new DeliveryError('x', { status: 502, ambiguous: false }), false],
    [new Error('x'), false],
    [null, false],
    [undefined, false],
  ])('%p → %p', (thrown, ambiguous) => {
    expect(isAmbiguous(thrown)).toBe(ambiguous);
  });
});

describe('the reports', () => {
  it('possible-duplicate names the call and the failure', () => {
    expect(possibleDuplicateReport(call('edit', 2), new Error('socket hang up'))).toStrictEqual({
      type: 'warning',
      code: 'possible-duplicate',
      message: 2,
      op: 'edit',
      attempt: 2,
      detail:
        'deliver: the edit of message 2 may have gone through before it failed (socket hang up); it is tried again, and the chat may show it twice.',
    });
  });

  it('ledger-write-failed names the call and the failure', () => {
    expect(ledgerWriteFailedReport(call('send'), new Error('READONLY'))).toStrictEqual({
      type: 'warning',
      code: 'ledger-write-failed',
      message: 2,
      op: 'send',
      attempt: 1,
      detail:
        'deliver: the send of message 2 went through, but the ledger did not record it (READONLY); a restart may repeat it.',
    });
  });

  it('sent, edited and finished: the text and attempts, notModified and warnings only when there are some', () => {
    expect(deliveredReport(call('send', 3), [])).toStrictEqual({
      type: 'sent',
      message: 2,
      text: 'Hello',
      attempts: 3,
    });
    expect(deliveredReport(call('edit'), [], true)).toStrictEqual({
      type: 'edited',
      message: 2,
      text: 'Hello',
      attempts: 1,
      notModified: true,
    });
    const warnings = [{ code: 'plain-text-fallback' as const, message: 'sent as plain text' }];
    expect(deliveredReport(call('finish'), warnings)).toStrictEqual({
      type: 'finished',
      message: 2,
      text: 'Hello',
      attempts: 1,
      warnings,
    });
  });

  it('retrying: the delay, its reason and the failure', () => {
    expect(
      retryingReport(call('edit', 2), { delayMs: 3000, reason: 'retry-after' }, new Error('429')),
    ).toStrictEqual({
      type: 'retrying',
      message: 2,
      op: 'edit',
      attempt: 2,
      delayMs: 3000,
      reason: 'retry-after',
      error: { message: '429' },
    });
  });

  it('delivery-failed: attempts in words, permanent and status only when known', () => {
    expect(failedReport(call('send'), 'Forbidden')).toStrictEqual({
      type: 'delivery-failed',
      message: 2,
      op: 'send',
      text: 'Hello',
      attempts: 1,
      error: {
        code: 'delivery-failed',
        message: 'deliver: the send of message 2 failed after 1 attempt: Forbidden',
      },
    });
    expect(failedReport(call('edit', 5), 'Bad Gateway', 502, true)).toStrictEqual({
      type: 'delivery-failed',
      message: 2,
      op: 'edit',
      text: 'Hello',
      attempts: 5,
      permanent: true,
      error: {
        code: 'delivery-failed',
        message: 'deliver: the edit of message 2 failed after 5 attempts: Bad Gateway',
        status: 502,
      },
    });
  });

  it('resumed: what the ledger held', () => {
    expect(resumedReport({ message: 1, ref: 9, text: 'Earlier', finished: true })).toStrictEqual({
      type: 'resumed',
      message: 1,
      text: 'Earlier',
      finished: true,
    });
  });

  it('a ledger that could not be read: delivery-failed, nothing sent', () => {
    const error = ledgerUnreadable('reply-7', new Error('ECONNREFUSED'));
    expect(error).toBeInstanceOf(LlmRxError);
    expect(error.code).toBe('delivery-failed');
    expect(error.message).toBe(
      'deliver: the ledger could not be read for key "reply-7" (ECONNREFUSED); nothing was sent, so that nothing is sent twice.',
    );
  });
});

describe('describeFailure', () => {
  it('keeps 300 characters of a longer message, then …', () => {
    expect(describeFailure(new Error('x'.repeat(300)))).toBe('x'.repeat(300));
    expect(describeFailure(new Error('x'.repeat(301)))).toBe(`${'x'.repeat(300)}…`);
  });
});

describe('isPromiseLike and kindOf', () => {
  it.each([
    [Promise.resolve(1), true],
    [{ then: () => undefined }, true],
    [Object.assign(() => undefined, { then: () => undefined }), true],
    [{ then: 1 }, false],
    [null, false],
    [undefined, false],
    ['then', false],
    [() => undefined, false],
  ])('%p is promise-like: %p', (value, promiseLike) => {
    expect(isPromiseLike(value)).toBe(promiseLike);
  });

  it.each([
    [null, 'null'],
    [undefined, 'undefined'],
    [{}, 'an object'],
    [[], 'an object'],
    ['x', 'a string'],
    [1, 'a number'],
    [() => 1, 'a function'],
  ])('%p is %p', (value, kind) => {
    expect(kindOf(value)).toBe(kind);
  });
});

describe('attempt', () => {
  it('returns the value, or what was thrown', () => {
    expect(attempt(() => 5)).toEqual({ value: 5 });
    const thrown = new Error('sync');
    expect(
      attempt(() => {
        throw thrown;
      }),
    ).toEqual({ thrown });
  });
});

describe('callTransport', () => {
  const context = { attempt: 1, signal: new AbortController().signal } as unknown as TransportCall;
  const seen: unknown[] = [];
  const transport: DeliveryTransport<string> = {
    send: (e) => (seen.push(['send', e.text]), Promise.resolve('sent')),
    edit: (ref, e) => (seen.push(['edit', ref, e.text]), Promise.resolve('edited')),
    finish: (ref, e) => (seen.push(['finish', ref, e.text]), Promise.resolve('finished')),
  };
  beforeEach(() => (seen.length = 0));

  it.each([
    ['send', [['send', 'Hello']]],
    ['edit', [['edit', 'ref-2', 'Hello']]],
    ['finish', [['finish', 'ref-2', 'Hello']]],
  ] as const)('makes a %s with the ref and the edit', async (op, calls) => {
    const made = callTransport(transport, call(op), context);
    expect(seen).toEqual(calls);
    expect(await (made as { promise: Promise<unknown> }).promise).toBe(
      `${op === 'send' ? 'sent' : op === 'edit' ? 'edited' : 'finished'}`,
    );
  });

  it('names a synchronous throw and a result that is no Promise', () => {
    const throwing: DeliveryTransport<string> = {
      send: () => {
        throw new Error('bad chat id');
      },
      edit: () => 5 as unknown as Promise<void>,
    };
    expect(callTransport(throwing, call('send'), context)).toEqual({
      wrong: 'transport.send threw instead of returning a Promise (bad chat id)',
    });
    expect(callTransport(throwing, call('edit'), context)).toEqual({
      wrong: 'transport.edit returned a number, not a Promise',
    });
  });
});
