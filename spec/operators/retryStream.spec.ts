import fc from 'fast-check';
import {
  concat,
  defer,
  filter,
  NEVER,
  Observable,
  of,
  queueScheduler,
  take,
  VirtualTimeScheduler,
} from 'rxjs';
import type { StreamEvent } from '../../src/events';
import { retryStream } from '../../src/operators/retryStream';
import { collect } from '../helpers/bytes';

// Timing lives in marbles/retry-stream/. Here: construction errors, laziness, and a property
// over random attempt sequences (backoff 0 on the queueScheduler, so everything runs at once).

const failed = (retryable: boolean): StreamEvent => ({
  type: 'failed',
  error: { code: retryable ? 'stream-closed' : 'http-error', message: 'x', retryable },
});
const completed: StreamEvent = { type: 'completed', finishReason: 'stop' };

describe('retryStream: construction', () => {
  it.each([
    { maxAttempts: 0 },
    { maxAttempts: 1.5 },
    { backoffMs: -1 },
    { backoffMs: [] },
    { maxRetryAfterMs: -1 },
  ])('rejects %j with invalid-options', (options) => {
    expect(() => retryStream(() => of(completed), options)).toThrow(
      expect.objectContaining({ code: 'invalid-options' }),
    );
  });

  it('rejects a request that is not a function', () => {
    expect(() => retryStream(undefined as unknown as () => Observable<StreamEvent>)).toThrow(
      expect.objectContaining({ code: 'invalid-options' }),
    );
  });

  it('names itself and the offending field or argument in the message', () => {
    expect(() => retryStream(() => of(completed), { maxAttempts: 0 })).toThrow(
      'retryStream: invalid options\n✖ Too small: expected number to be >=1\n  → at maxAttempts',
    );
    expect(() => retryStream(42 as unknown as () => Observable<StreamEvent>)).toThrow(
      'retryStream: request must be a function returning an Observable<StreamEvent>.',
    );
  });

  it('calls request only on subscribe, once per attempt', async () => {
    let calls = 0;
    const stream = retryStream(() => defer(() => of(++calls < 3 ? failed(true) : completed)), {
      backoffMs: 0,
      scheduler: queueScheduler,
    });
    expect(calls).toBe(0);
    const events = await collect(stream);
    expect(calls).toBe(3);
    expect(events.map((event) => event.type)).toEqual(['warning', 'warning', 'completed']);
  });

  it('a request that throws ends in failed (stream-error, retryable) and is retried', async () => {
    let calls = 0;
    const events = await collect(
      retryStream(
        () => {
          if (calls++ === 0) throw new TypeError('fetch failed');
          return of(completed);
        },
        { backoffMs: 0, scheduler: queueScheduler },
      ),
    );
    expect(events).toEqual([
      {
        type: 'warning',
        code: 'retry',
        message: 'Attempt 1 of 3 failed before any output (stream-error); retrying in 0 ms.',
        detail: {
          attempt: 1,
          maxAttempts: 3,
          delayMs: 0,
          error: { code: 'stream-error', message: 'fetch failed', retryable: true },
        },
      },
      completed,
    ]);
  });
});

// One attempt: events before its terminal, each either visible text or a non-visible usage.
const attemptArbitrary = fc.record({
  events: fc.array(
    fc.oneof(
      fc
        .string({ maxLength: 3 })
        .map((delta): StreamEvent => ({ type: 'text-delta', id: 't', delta })),
      fc.nat(9).map((n): StreamEvent => ({ type: 'usage', outputTokens: n })),
    ),
    { maxLength: 4 },
  ),
  terminal: fc.constantFrom(failed(true), failed(false), completed),
});
type Attempt = { events: StreamEvent[]; terminal: StreamEvent };

/** What retryStream must output for these attempts: the model of its contract. */
function expectedOutput(attempts: Attempt[], maxAttempts: number): StreamEvent[] {
  const out: StreamEvent[] = [];
  for (let i = 0; ; i++) {
    const { events, terminal } = attempts[i];
    const visible = events.some((event) => event.type === 'text-delta');
    const retry =
      !visible &&
      terminal.type === 'failed' &&
      terminal.error.retryable &&
      i + 1 < maxAttempts &&
      i + 1 < attempts.length;
    if (!retry) return [...out, ...events, terminal];
    out.push(expect.objectContaining({ type: 'warning', code: 'retry' }));
  }
}

describe('retryStream: property', () => {
  it('outputs one attempt whole, after one retry warning per dropped attempt; text never twice', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(attemptArbitrary, { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 1, max: 5 }),
        async (attempts, maxAttempts) => {
          // Past the generated attempts, request() returns a success.
          const all = [...attempts, { events: [], terminal: completed }];
          let calls = 0;
          const events = await collect(
            retryStream(
              () => {
                const { events: attemptEvents, terminal } = all[calls++];
                return of(...attemptEvents, terminal);
              },
              { maxAttempts, backoffMs: 0, scheduler: queueScheduler },
            ),
          );
          expect(events).toEqual(expectedOutput(all, maxAttempts));
        },
      ),
      { seed: 1017, numRuns: 300 },
    );
  });
});

// One event of every type a user sees: after it, a retry would show it twice.
const visibleEvents: StreamEvent[] = [
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'Hi' },
  { type: 'text-end', id: 't' },
  { type: 'reasoning-start', id: 'r', index: 0 },
  { type: 'reasoning-delta', id: 'r', index: 0, delta: 'hm', kind: 'text' },
  { type: 'reasoning-end', id: 'r', index: 0 },
  { type: 'tool-input-start', id: 'call_1', name: 'search', index: 0 },
  { type: 'tool-input-delta', id: 'call_1', delta: '{"q":' },
  { type: 'tool-call', id: 'call_1', name: 'search', input: { q: 'x' }, inputText: '{"q":"x"}' },
  { type: 'tool-start', id: 'call_1', name: 'search' },
  { type: 'tool-update', id: 'call_1', output: 'half' },
  { type: 'tool-end', id: 'call_1', result: 'done' },
  { type: 'block', text: 'Hi', seq: 0, reason: 'flush' },
  { type: 'silent', token: 'NO_REPLY' },
];

describe('retryStream: visible events', () => {
  const start: StreamEvent = { type: 'response-start', provider: 'openai-chat' };

  it.each(visibleEvents.map((event) => [event.type, event] as const))(
    'a %s is visible: it releases what was held, and a later retryable failure passes',
    (_type, event) => {
      let calls = 0;
      const out: StreamEvent[] = [];
      retryStream(
        () => {
          calls++;
          return of(start, event, failed(true));
        },
        { backoffMs: 0, scheduler: queueScheduler },
      ).subscribe((value) => out.push(value));
      expect(out).toEqual([start, event, failed(true)]);
      expect(calls).toBe(1);
    },
  );
});

describe('retryStream: teardown', () => {
  const delta: StreamEvent = { type: 'text-delta', id: 't', delta: 'Hi' };

  it('unsubscribing while a retried attempt is still subscribing releases that attempt', () => {
    const scheduler = new VirtualTimeScheduler();
    let calls = 0;
    let released = 0;
    const retried = new Observable<StreamEvent>((subscriber) => {
      subscriber.next(delta);
      return () => released++;
    });
    const out: StreamEvent[] = [];
    retryStream(() => (++calls === 1 ? of(failed(true)) : retried), { backoffMs: 10, scheduler })
      .pipe(
        filter((event) => event.type !== 'warning'),
        take(1),
      )
      .subscribe((event) => out.push(event));
    scheduler.flush();
    expect(calls).toBe(2);
    expect(out).toEqual([delta]);
    expect(released).toBe(1);
  });

  it('unsubscribing during the backoff after an attempt that failed at once cancels the retry', () => {
    const scheduler = new VirtualTimeScheduler();
    let calls = 0;
    const out: StreamEvent[] = [];
    const subscription = retryStream(
      () => {
        calls++;
        return calls === 1 ? of(failed(true)) : concat(of(delta), NEVER);
      },
      { backoffMs: 10, scheduler },
    ).subscribe((event) => out.push(event));
    expect(out.map((event) => event.type)).toEqual(['warning']);
    expect(() => subscription.unsubscribe()).not.toThrow();
    scheduler.flush();
    expect(calls).toBe(1);
    expect(out.map((event) => event.type)).toEqual(['warning']);
  });
});
