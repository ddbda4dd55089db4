import { firstValueFrom, from, throwError, timeout, type SchedulerLike } from 'rxjs';
import { logUnavailable } from './errors';

// How long the Redis integration waits for an answer, and what it does when none comes.

/**
 * `promise`, or a `log-unavailable` rejection when it has not settled after `ms` on `scheduler`:
 * a client that queues commands while it reconnects (or a connect stuck mid-handshake) would
 * otherwise leave a read or a claim waiting forever.
 */
export function withDeadline<T>(
  promise: Promise<T>,
  ms: number,
  scheduler: SchedulerLike,
  what: string,
): Promise<T> {
  return firstValueFrom(
    from(promise).pipe(
      timeout({
        first: ms,
        scheduler,
        with: () => throwError(() => logUnavailable(what, `no answer from Redis within ${ms}ms`)),
      }),
    ),
  );
}

/** How long the log waits for an answer Redis owes it (beyond a block timeout). */
export const answerDeadlineMs = (heartbeatMs: number) => Math.max(5000, heartbeatMs * 3);
