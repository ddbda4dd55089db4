import type { OperatorFunction } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { ensureTerminal } from '../../src/operators/ensureTerminal';

/** Builds the operator a `.marble` file names, from its `args` and the test scheduler. */
export type MarbleOperatorFactory = (
  args: Record<string, any>,
  scheduler: TestScheduler,
) => OperatorFunction<any, any>;

/**
 * The registry `.marble` files name their `operator:` from. Plain operators take their args as
 * their options object plus `scheduler`; entries that need more (a signal, a handler) build it
 * from args here.
 */
export const marbleOperators: Record<string, MarbleOperatorFactory> = {
  // args.abortAtMs: abort the signal at that frame.
  ensureTerminal: ({ abortAtMs, ...options }, scheduler) => {
    if (abortAtMs === undefined) return ensureTerminal({ ...options, scheduler });
    const controller = new AbortController();
    scheduler.schedule(() => controller.abort(), abortAtMs);
    return ensureTerminal({ ...options, signal: controller.signal, scheduler });
  },
};
