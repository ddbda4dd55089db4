import { concat, NEVER, Observable, Subject, type Subscription } from 'rxjs';
import fc from 'fast-check';
import type { StreamEvent } from '../../src/events';
import type { EventLog } from '../../src/relay/eventLog';
import { followLog } from '../../src/relay/followLog';
import { recordTo } from '../../src/relay/recordTo';
import { collect } from '../helpers/bytes';

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
 * The semantics every EventLog backend shares (DESIGN §11), checked through recordTo and
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
    expect(await collect(followLog(log, id, { after: 2 }))).toEqual([]);
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

  it('unknown ids and positions past the end end in one failed with the right code', async () => {
    const log = makeLog();
    const [unknown] = await collect(followLog(log, freshId()));
    expect(unknown.type === 'failed' && unknown.error.code).toBe('unknown-stream');
    const id = freshId();
    const recording = record(log, id, concat([delta(0)], NEVER));
    await recording.started;
    const past = await collect(followLog(log, id, { after: 1 }));
    expect(past.map((e) => e.type === 'failed' && [e.error.code, e.error.status])).toEqual([
      ['invalid-last-event-id', 400],
    ]);
    recording.stop();
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
