import fc from 'fast-check';
import { Subject, type Subscription } from 'rxjs';
import type { StreamEvent } from '../../src/events';
import { followLog } from '../../src/relay/log/followLog';
import { memoryEventLog } from '../../src/relay/log/memoryEventLog';
import { recordTo } from '../../src/relay/log/recordTo';

// Whatever the interleaving of appends, follows (from any valid position) and unsubscribes,
// every follower sees the positions after its `after`, each once, in order, up to where it left
// or to the terminal.

type Step = { op: 'append' } | { op: 'follow'; back: number } | { op: 'leave'; which: number };
const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.constant<Step>({ op: 'append' }), weight: 4 },
  { arbitrary: fc.nat(6).map<Step>((back) => ({ op: 'follow', back })), weight: 2 },
  { arbitrary: fc.nat(8).map<Step>((which) => ({ op: 'leave', which })), weight: 1 },
);

const deltaAt = (n: number): StreamEvent => ({ type: 'text-delta', id: 't', delta: String(n) });

describe('memoryEventLog hand-over, any interleaving (500 runs)', () => {
  it('each follower gets every position after its own, once, in order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 40 }), async (steps) => {
        const log = memoryEventLog();
        const source = new Subject<StreamEvent>();
        source.pipe(recordTo(log, 's')).subscribe();
        let appended = 0;
        const followers: Array<{
          after: number;
          seen: number[];
          sub: Subscription;
          left: boolean;
        }> = [];
        for (const s of steps) {
          if (s.op === 'append') source.next(deltaAt(appended++));
          else if (s.op === 'follow') {
            const after = Math.max(-1, appended - 1 - s.back);
            const seen: number[] = [];
            const sub = followLog(log, 's', { after }).subscribe((event) =>
              seen.push(event.type === 'text-delta' ? Number(event.delta) : -1),
            );
            followers.push({ after, seen, sub, left: false });
          } else if (followers.length > 0) {
            const follower = followers[s.which % followers.length];
            follower.sub.unsubscribe();
            follower.left = true;
          }
        }
        source.next({ type: 'completed' });
        for (const follower of followers) {
          const expected = Array.from(
            { length: appended - follower.after - 1 },
            (_, i) => follower.after + 1 + i,
          );
          if (follower.left) {
            expect(follower.seen).toEqual(expected.slice(0, follower.seen.length));
          } else {
            expect(follower.seen).toEqual([...expected, -1]);
            expect(follower.sub.closed).toBe(true);
          }
        }
        await log.close();
      }),
      { numRuns: 500, seed: 17 },
    );
  });
});
