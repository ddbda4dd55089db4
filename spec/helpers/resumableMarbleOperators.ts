import type { Observable } from 'rxjs';
import { resumeWire, type WireEvent } from '../../src/relay/sse/resumeWire';
import type { MarbleOperatorFactory } from './marbleOperators';

/**
 * Marble entries for the resumable reader (resumableEvents' timed core, `resumeWire`).
 *
 * resumableEvents: the source is the first connection's events (`{"id": n, "event": …}`, or
 * `"id": null` for an event the client made); `args.attempts` are the cold marbles of the
 * connections after it, `args.attemptSubs` their expected subscription logs, and
 * `args.lastEventIds` the position each connection must be asked to resume after (`null`: none).
 * `args.abortAtMs` aborts the signal at that frame; `maxAttempts` and `backoffMs` are options.
 */
export const resumableMarbleOperators: Record<string, MarbleOperatorFactory> = {
  resumableEvents: (
    { attempts = [], attemptSubs = [], lastEventIds, abortAtMs, maxAttempts = 5, backoffMs = 500 },
    scheduler,
    helpers,
  ) => {
    const later = (attempts as string[]).map((marbles) => helpers.cold(marbles));
    (attemptSubs as Array<string | string[]>).forEach((subs, i) =>
      helpers.expectSubscriptions(later[i], subs),
    );
    const controller = new AbortController();
    if (abortAtMs !== undefined) scheduler.schedule(() => controller.abort(), abortAtMs);
    return (source: Observable<WireEvent>) => {
      let calls = 0;
      return resumeWire(
        (lastEventId) => {
          const call = calls++;
          const expected = (lastEventIds as Array<number | null> | undefined)?.[call];
          if (lastEventIds && (expected ?? undefined) !== lastEventId) {
            throw new Error(
              `connection ${call + 1} asked after ${lastEventId}, expected ${expected ?? 'none'}`,
            );
          }
          const next = call === 0 ? source : later[call - 1];
          if (!next) throw new Error(`connection ${call + 1} is not in args.attempts`);
          return next;
        },
        { maxAttempts, backoffMs, signal: controller.signal, scheduler },
      );
    };
  },
};
