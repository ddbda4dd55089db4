import fc from 'fast-check';
import { Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { LlmRxError } from '../../src/errors';
import type { StreamEvent } from '../../src/events';
import { sortByIndex } from '../../src/operators/sortByIndex';

/** Runs `events` at their frames through sortByIndex under a TestScheduler; returns the output. */
function runAt(timed: Array<{ frame: number; event: StreamEvent }>, windowMs: number) {
  const scheduler = new TestScheduler(() => undefined);
  const output: Array<{ frame: number; event: StreamEvent }> = [];
  let completedAt = -1;
  scheduler.run(() => {
    const last = Math.max(0, ...timed.map((t) => t.frame));
    // Each event at its frame; events of one frame in array order, as a cold marble would.
    const source = new Observable<StreamEvent>((subscriber) => {
      const actions = timed.map(({ frame, event }) =>
        scheduler.schedule(() => subscriber.next(event), frame),
      );
      actions.push(scheduler.schedule(() => subscriber.complete(), last));
      return () => actions.forEach((action) => action.unsubscribe());
    });
    source.pipe(sortByIndex({ windowMs, scheduler })).subscribe({
      next: (event) => output.push({ frame: scheduler.now(), event }),
      complete: () => (completedAt = scheduler.now()),
    });
  });
  expect(scheduler.actions.filter((action) => !action.closed)).toEqual([]);
  return { output, completedAt };
}

const entry = (index: number, n: number): StreamEvent => ({
  type: 'reasoning-delta',
  id: `r:reasoning:${index}`,
  index,
  delta: `${index}.${n}`,
  kind: 'text',
});

describe('sortByIndex', () => {
  it('rejects bad options at construction with invalid-options', () => {
    for (const options of [{ windowMs: -1 }, { windowMs: Number.NaN }, { scheduler: {} }]) {
      expect(() => sortByIndex(options as never)).toThrow(LlmRxError);
      expect(() => sortByIndex(options as never)).toThrow(/^sortByIndex: invalid options/);
    }
  });

  it('releases everything once, keeps each index and the other events in order', () => {
    // Events: reasoning deltas of indices 0..3 and text deltas, at random frames.
    const timedEvents = fc
      .array(fc.record({ index: fc.integer({ min: -1, max: 3 }), frame: fc.nat({ max: 40 }) }), {
        maxLength: 30,
      })
      .map((items) => {
        const counts = new Map<number, number>();
        return items
          .map(({ index, frame }) => {
            const n = (counts.get(index) ?? 0) + 1;
            counts.set(index, n);
            const event: StreamEvent =
              index < 0 ? { type: 'text-delta', id: 't', delta: `t.${n}` } : entry(index, n);
            return { frame, event };
          })
          .sort((a, b) => a.frame - b.frame);
      });
    fc.assert(
      fc.property(timedEvents, fc.integer({ min: 0, max: 20 }), (timed, windowMs) => {
        const { output, completedAt } = runAt(timed, windowMs);
        const deltas = (list: Array<{ event: StreamEvent }>) =>
          list.map(({ event }) => ('delta' in event ? event.delta : ''));
        // Nothing dropped or duplicated.
        expect([...deltas(output)].sort()).toEqual([...deltas(timed)].sort());
        // Each index in arrival order; text in arrival order.
        for (const prefix of ['t.', '0.', '1.', '2.', '3.']) {
          const ofKind = (list: string[]) => list.filter((d) => d.startsWith(prefix));
          expect(ofKind(deltas(output))).toEqual(ofKind(deltas(timed)));
        }
        // Nothing leaves before it arrived, nor later than windowMs after it (no event needed).
        const arrival = new Map(timed.map(({ frame, event }) => [deltas([{ event }])[0], frame]));
        for (const { frame, event } of output) {
          const arrived = arrival.get(deltas([{ event }])[0])!;
          expect(frame).toBeGreaterThanOrEqual(arrived);
          expect(frame).toBeLessThanOrEqual(arrived + windowMs);
        }
        expect(completedAt).toBe(timed.length ? timed[timed.length - 1].frame : 0);
      }),
      { numRuns: 500, seed: 515 },
    );
  });

  it('sorts any burst of one frame by index when a non-reasoning event follows', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 12 }), (indices) => {
        const counts = new Map<number, number>();
        const burst = indices.map((index) => {
          const n = (counts.get(index) ?? 0) + 1;
          counts.set(index, n);
          return { frame: 1, event: entry(index, n) };
        });
        const finish: StreamEvent = { type: 'finish', reason: 'stop' };
        const { output } = runAt([...burst, { frame: 1, event: finish }], 50);
        const released = output.map(({ event }) => event);
        expect(released[released.length - 1]).toEqual(finish);
        const order = released.slice(0, -1).map((event) => ('index' in event ? event.index : -1));
        // Index 0, if present, goes first and at once; everything after it leaves sorted.
        expect(order).toEqual([...order].sort((a, b) => a - b));
        expect(output.every(({ frame }) => frame === 1)).toBe(true);
      }),
      { numRuns: 500, seed: 2001 },
    );
  });
});
