import { concat, NEVER, Observable, Subject, type Subscription } from 'rxjs';
import fc from 'fast-check';
import type { StreamEvent } from '../../src/events';
import type { EventLog } from '../../src/relay/log/eventLog';
import { followLog } from '../../src/relay/log/followLog';
import { recordTo } from '../../src/relay/log/recordTo';
import { collect } from '../helpers/bytes';

/** Polls `probe` (bounded: 100 tries, a tick apart) until it resolves to `value`. */
async function eventuallyEqual<T>(probe: () => Promise<T>, value: T): Promise<void> {
  for (let i = 0; i < 100 && (await probe()) !== value; i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  expect(await probe()).toBe(value);
}

const delta = (i: number): StreamEvent => ({ type: 'text-delta', id: 't', delta: `d${i} ` });
const done: StreamEvent = { type: 'completed', finishReason: 'stop' };

/**
 * Records `source` into `log` under `id`; `started` resolves once recordTo subscribed the source
 * (after the claim, which a remote backend answers later), `passed` with what it passed on.
 */
function record(log: EventLog, id: string, source: Observable<StreamEvent>) {
  let markStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const watched = new Observable<StreamEvent>((subscriber) => {
    const inner = source.subscribe(subscriber);
    markStarted();
    return inner;
  });
  const passed: StreamEvent[] = [];
  let subscription: Subscription | undefined;
  const ended = new Promise<StreamEvent[]>((resolve) => {
    subscription = watched.pipe(recordTo(log, id)).subscribe({
      next: (event) => passed.push(event),
      complete: () => resolve(passed),
    });
  });
  return { started, passed: ended, stop: () => subscription?.unsubscribe() };
}

/**
 * The semantics every EventLog backend shares, checked through recordTo and
 * followLog. `makeLog` gives the log under test; ids are fresh per test.
 */
export function eventLogContract(makeLog: () => EventLog, idPrefix: string): void {
  let n = 0;
  const freshId = () => `${idPrefix}-${++n}`;

  it('replays a recorded stream whole, after a position, and after its end', async () => {
    const log = makeLog();
    const id = freshId();
    const events = [delta(0), delta(1), done];
    expect(await record(log, id, concat(events)).passed).toEqual(events);
    expect(await collect(followLog(log, id))).toEqual(events);
    expect(await collect(followLog(log, id, { after: 1 }))).toEqual([done]);
  });

  it('hands over from replay to live with nothing lost or twice, wherever followers join', async () => {
    const log = makeLog();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.tuple(fc.nat(8), fc.integer({ min: -1, max: 8 })), { maxLength: 3 }),
        async (count, joins) => {
          const id = freshId();
          const events = [...Array.from({ length: count }, (_, i) => delta(i)), done];
          const source = new Subject<StreamEvent>();
          const recording = record(log, id, source);
          await recording.started;
          const follows: Promise<StreamEvent[]>[] = [];
          const expected: StreamEvent[][] = [];
          for (let i = 0; i < events.length; i++) {
            for (const [at, after] of joins) {
              if (at !== i) continue;
              const from = Math.min(after, i - 1);
              follows.push(collect(followLog(log, id, { after: from })));
              expected.push(events.slice(from + 1));
            }
            source.next(events[i]);
            if (i % 3 === 1) await new Promise((resolve) => setImmediate(resolve));
          }
          expect(await recording.passed).toEqual(events);
          expect(await Promise.all(follows)).toEqual(expected);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('a second recorder of an open or finished id: failed stream-exists, its source untouched', async () => {
    const log = makeLog();
    const id = freshId();
    const first = record(log, id, concat([delta(0)], NEVER));
    await first.started;
    let touched = false;
    const second = new Observable<StreamEvent>(() => {
      touched = true;
    });
    const [failed] = await collect(second.pipe(recordTo(log, id)));
    expect([failed.type, failed.type === 'failed' && failed.error.code, touched]).toEqual([
      'failed',
      'stream-exists',
      false,
    ]);
    first.stop();
    await collect(followLog(log, id)); // the stream finished (incomplete aborted)
    const [again] = await collect(second.pipe(recordTo(log, id)));
    expect(again.type === 'failed' && again.error.code).toBe('stream-exists');
  });

  it('unknown ids, and positions at or past the terminal of a finished stream: one failed', async () => {
    const log = makeLog();
    const [unknown] = await collect(followLog(log, freshId(), { startTimeoutMs: 0 }));
    expect(unknown.type === 'failed' && unknown.error.code).toBe('stream-not-found');
    const id = freshId();
    await record(log, id, concat([delta(0), delta(1), done])).passed;
    for (const after of [2, 3, 9]) {
      expect(await collect(followLog(log, id, { after }))).toEqual([
        {
          type: 'failed',
          error: {
            code: 'invalid-last-event-id',
            message: `Cannot resume stream "${id}" after position ${after}: it is at or past the end of the stream (its terminal is position 2).`,
            status: 400,
            retryable: false,
          },
        },
      ]);
    }
  });

  it('a follower of an id not recorded yet waits for it (startTimeoutMs), then follows it whole', async () => {
    const log = makeLog();
    const id = freshId();
    const followed = collect(followLog(log, id, { startTimeoutMs: 5000 }));
    await new Promise((resolve) => setTimeout(resolve, 120)); // a few polls find nothing
    const events = [delta(0), delta(1), done];
    await record(log, id, concat(events)).passed;
    expect(await followed).toEqual(events);
    const [missing] = await collect(followLog(log, freshId(), { startTimeoutMs: 150 }));
    expect(missing).toMatchObject({ type: 'failed', error: { code: 'stream-not-found' } });
  });

  it('a follower ahead of an open stream waits for the events past its position', async () => {
    const log = makeLog();
    const id = freshId();
    const source = new Subject<StreamEvent>();
    const recording = record(log, id, source);
    await recording.started;
    source.next(delta(0));
    const ahead = collect(followLog(log, id, { after: 2 })); // 0 stored; 1 and 2 not yet
    for (let i = 1; i < 5; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      source.next(delta(i));
    }
    source.next(done);
    await recording.passed;
    expect(await ahead).toEqual([delta(3), delta(4), done]);
  });

  it('a follower waiting ahead of a stream that then finishes below it: invalid-last-event-id', async () => {
    const log = makeLog();
    const id = freshId();
    const source = new Subject<StreamEvent>();
    const recording = record(log, id, source);
    await recording.started;
    source.next(delta(0));
    const waitingAtEnd = collect(followLog(log, id, { after: 2 }));
    const waitingPast = collect(followLog(log, id, { after: 7 }));
    await new Promise((resolve) => setImmediate(resolve));
    source.next(delta(1));
    source.next(done); // the terminal is position 2
    await recording.passed;
    const invalid = (after: number) => ({
      type: 'failed',
      error: {
        code: 'invalid-last-event-id',
        message: `Cannot resume stream "${id}" after position ${after}: it is at or past the end of the stream (its terminal is position 2).`,
        status: 400,
        retryable: false,
      },
    });
    expect(await Promise.all([waitingAtEnd, waitingPast])).toEqual([[invalid(2)], [invalid(7)]]);
  });

  it('chats: latest(chatId) names the newest response while it is readable; status says where each stands', async () => {
    const log = makeLog();
    const chatId = freshId();
    const [first, second] = [freshId(), freshId()];
    expect(await log.latest(chatId)).toBeUndefined();
    expect(await log.status(first)).toBe('unknown');
    await record(log, first, concat([delta(0), done])).passed; // a stream of no chat
    expect([await log.status(first), await log.latest(chatId)]).toEqual(['finished', undefined]);
    const answers = [
      [delta(0), done],
      [delta(1), done],
    ];
    const source = new Subject<StreamEvent>();
    const passed = collect(source.pipe(recordTo(log, second, { chatId })));
    await eventuallyEqual(() => log.status(second), 'open');
    expect(await log.latest(chatId)).toBe(second);
    answers[0].forEach((event) => source.next(event));
    expect(await passed).toEqual(answers[0]);
    expect(await log.status(second)).toBe('finished');
    expect(await log.latest(chatId)).toBe(second); // finished, still readable
    const third = freshId();
    expect(await collect(concat(answers[1]).pipe(recordTo(log, third, { chatId })))).toEqual(
      answers[1],
    );
    expect([await log.latest(chatId), await log.status(third)]).toEqual([third, 'finished']);
    expect(await collect(followLog(log, third))).toEqual(answers[1]);
  });

  it('recording under an open id: failed stream-exists reaches the recorder, the chat keeps its response', async () => {
    const log = makeLog();
    const chatId = freshId();
    const id = freshId();
    const source = new Subject<StreamEvent>();
    const passed = collect(source.pipe(recordTo(log, id, { chatId })));
    await eventuallyEqual(() => log.status(id), 'open');
    const [failed] = await collect(concat([delta(9), done]).pipe(recordTo(log, id, { chatId })));
    expect(failed.type === 'failed' && [failed.error.code, failed.error.retryable]).toEqual([
      'stream-exists',
      false,
    ]);
    source.next(delta(0));
    source.next(done);
    expect(await passed).toEqual([delta(0), done]);
    expect([await log.latest(chatId), await collect(followLog(log, id))]).toEqual([
      id,
      [delta(0), done],
    ]);
  });

  it('a recorder unsubscribed early appends incomplete aborted, and its followers end with it', async () => {
    const log = makeLog();
    const id = freshId();
    const recording = record(log, id, concat([delta(0)], NEVER));
    await recording.started;
    const following = collect(followLog(log, id));
    recording.stop();
    const aborted = {
      type: 'incomplete',
      reason: 'aborted',
      message: 'The recorder was unsubscribed before the stream ended.',
    };
    expect(await following).toEqual([delta(0), aborted]);
    expect(await collect(followLog(log, id))).toEqual([delta(0), aborted]);
  });
}
