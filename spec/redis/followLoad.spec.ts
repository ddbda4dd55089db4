import { Observable, Subject } from 'rxjs';
import type { StreamEvent } from '../../src/events';
import { redisEventLog } from '../../src/redis';
import type { EventLog } from '../../src/relay/log/eventLog';
import { followLog } from '../../src/relay/log/followLog';
import { recordTo } from '../../src/relay/log/recordTo';
import { connectClient, describeRedis, type TestClient } from '../helpers/redisServer';
import { textEvents } from './logHelpers';

const STREAMS = 50;
const EVENTS = 200; // deltas per stream, then `completed`
const LATE_AT = 100; // the late follower joins once this many deltas went out
const REPETITIONS = 5;

/** How one follower ended: the events it got, in order. */
function follow(log: EventLog, id: string, after = -1): Promise<StreamEvent[]> {
  const seen: StreamEvent[] = [];
  return new Promise((resolve) =>
    // A follower that hangs ends `stalled` (a bad follower), so the test never waits unbounded.
    followLog(log, id, { after, idleTimeoutMs: 10_000 }).subscribe({
      next: (event) => seen.push(event),
      complete: () => resolve(seen),
    }),
  );
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

// Two nodes: one records every stream, the other follows them all through its one connection,
// while followers keep joining mid-stream (a read with a higher start is in flight then).
describeRedis('redisEventLog under load: followers joining mid-stream', (server) => {
  let writerClient: TestClient;
  let readerClient: TestClient;
  beforeAll(async () => {
    writerClient = await connectClient(server());
    readerClient = await connectClient(server());
  });
  afterAll(() => {
    writerClient.destroy();
    readerClient.destroy();
  });

  it(`${STREAMS} streams × (1 early + 1 late follower), ${REPETITIONS} times: every follower gets every event once`, async () => {
    const events = textEvents(EVENTS);
    let bad = 0;
    const problems: string[] = [];
    for (let round = 0; round < REPETITIONS; round++) {
      // maxLen far above what a stream holds: a follower told "trimmed" is a wrong answer.
      const options = { keyPrefix: `load${round}:`, heartbeatMs: 2000, maxLen: 10 * EVENTS };
      const writerLog = redisEventLog({ client: writerClient, ...options });
      const readerLog = redisEventLog({ client: readerClient, ...options });
      const ids = Array.from({ length: STREAMS }, (_, i) => `s${i}`);
      const sources = ids.map(() => new Subject<StreamEvent>());
      const started: Promise<void>[] = [];
      const recorded = ids.map((id, i) => {
        // recordTo subscribes its source once the claim is granted: only then may events flow.
        let markStarted: () => void = () => undefined;
        started.push(new Promise((resolve) => (markStarted = resolve)));
        const source = new Observable<StreamEvent>((subscriber) => {
          const inner = sources[i].subscribe(subscriber);
          markStarted();
          return inner;
        });
        return new Promise<void>((resolve) =>
          source.pipe(recordTo(writerLog, id)).subscribe({ complete: () => resolve() }),
        );
      });
      await Promise.all(started);
      const followers: Promise<StreamEvent[]>[] = ids.map((id) => follow(readerLog, id));
      const expected: StreamEvent[][] = ids.map(() => events);
      for (let seq = 0; seq < events.length; seq++) {
        if (seq === LATE_AT) {
          for (const id of ids) {
            followers.push(follow(readerLog, id)); // from the start: replay, then live
            expected.push(events);
          }
        }
        sources.forEach((source) => source.next(events[seq]));
        if (seq % 5 === 4) await tick();
      }
      await Promise.all(recorded);
      const results = await Promise.all(followers);
      results.forEach((result, i) => {
        if (JSON.stringify(result) === JSON.stringify(expected[i])) return;
        bad++;
        const last = result[result.length - 1];
        if (problems.length < 3) {
          problems.push(
            `round ${round} follower ${i}: ${result.length} events, last ${JSON.stringify(last)}`,
          );
        }
      });
      await Promise.all([writerLog.close(), readerLog.close()]);
    }
    expect({ bad, problems }).toEqual({ bad: 0, problems: [] });
  }, 180_000); // about 3 s alone; the shared machine and --detectOpenHandles make it slower
});
