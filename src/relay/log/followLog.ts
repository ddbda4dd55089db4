import { Observable, type SchedulerLike, type Subscription } from 'rxjs';
import * as z from 'zod/mini';
import { isLlmRxError } from '../../errors';
import { type StreamEvent } from '../../events';
import { failedEvent, failedFromError, isTerminal } from '../../terminalEvents';
import { durationOption, parseOptions, schedulerOption } from '../../internal/options';
import { stalledEvent } from '../../internal/stalledEvent';
import type { EventLog } from './eventLog';

/** Options of {@link followLog}. */
export interface FollowLogOptions {
  /** Replay the events after this position (`Last-Event-ID`); -1 replays all. @defaultValue -1 */
  after?: number;
  /**
   * How long an id the log does not hold yet is waited for (its recorder may still be claiming
   * it, on this node or another) before the stream ends `failed` `stream-not-found`.
   * @defaultValue 10000
   */
  startTimeoutMs?: number;
  /** End with `failed` `stalled` when the log gets no event for this long. @defaultValue none */
  idleTimeoutMs?: number;
  /** Where the start wait and the idle timer run. @defaultValue asyncScheduler */
  scheduler?: SchedulerLike;
}

const FollowLogOptions = z.object({
  after: z._default(z.int().check(z.gte(-1)), -1),
  startTimeoutMs: z._default(durationOption, 10_000),
  idleTimeoutMs: z.optional(durationOption),
  scheduler: schedulerOption,
});

/** How often an id the log does not hold yet is asked for again, while `startTimeoutMs` lasts. */
export const START_POLL_MS = 50;

/**
 * A stream kept in an event log, as events: those after position `after` (replayed), then the
 * live ones as they are appended, ending with the terminal. Pair it with
 * `toSseStream(…, { startAt: after + 1 })` so the `id:` lines stay positions.
 *
 * ```
 * recorder:  -a 5ms b 5ms c|            (c = completed)
 * follow at 7:      (ab) 2ms (c|)       replayed a, b; then c live: nothing lost or twice
 * after: 0, at 9:     b 3ms (c|)
 * not recorded yet:  50ms (ab) …        asked again every 50 ms until startTimeoutMs
 * never recorded:    10000ms (x|)       x = failed stream-not-found
 * ```
 *
 * - Never errors, never completes without a terminal. An id the log does not hold is asked for
 *   again every 50 ms (`START_POLL_MS`) for `startTimeoutMs`, then → `failed`
 *   `stream-not-found`; a position at or past the terminal of a finished stream → `failed`
 *   `invalid-last-event-id` (status 400); a backend failure → one `failed` with its code
 *   (`log-unavailable`, `producer-lost`).
 * - A position ahead of an open stream waits for the events past it (another node, a replica
 *   or a fast client can be ahead of this reader); if the stream then finishes at or below
 *   it, `failed` `invalid-last-event-id` at its terminal.
 * - A position delivered twice by a backend is dropped, so the output has each seq once.
 * - `idleTimeoutMs` without an event (counted from subscription) → `failed` `stalled`.
 * - Unsubscribing releases the read, the start wait and the idle timer.
 *
 * @example
 * ```ts
 * const after = parseLastEventId(request.headers.get('last-event-id'));
 * return toSseResponse(followLog(log, responseId, { after }), { startAt: after + 1 });
 * ```
 * @param log - the event log the stream was recorded to
 * @param streamId - the stream's id in the log
 * @param options - {@link FollowLogOptions}
 */
export function followLog(
  log: EventLog,
  streamId: string,
  options: FollowLogOptions = {},
): Observable<StreamEvent> {
  const { after, startTimeoutMs, idleTimeoutMs, scheduler } = parseOptions(
    'followLog',
    FollowLogOptions,
    options,
  );
  return new Observable<StreamEvent>((subscriber) => {
    const startedAt = scheduler.now();
    let expected = after + 1;
    let read: Subscription | undefined;
    let askAgain: Subscription | undefined;
    let idleTimer: Subscription | undefined;
    const release = () => {
      idleTimer?.unsubscribe();
      askAgain?.unsubscribe();
      read?.unsubscribe();
    };
    const end = (last: StreamEvent) => {
      release();
      subscriber.next(last);
      subscriber.complete();
    };
    const armIdle = () => {
      if (idleTimeoutMs === undefined) return;
      idleTimer?.unsubscribe();
      idleTimer = scheduler.schedule(
        () => end(stalledEvent(idleTimeoutMs, ' from the event log')),
        idleTimeoutMs,
      );
    };
    // The log does not hold the id (yet): ask again, or give up once startTimeoutMs has passed.
    const waitForStart = () => {
      const waited = scheduler.now() - startedAt;
      if (waited >= startTimeoutMs) return end(notFound(streamId, startTimeoutMs));
      askAgain = scheduler.schedule(open, Math.min(START_POLL_MS, startTimeoutMs - waited));
    };
    const open = () => {
      read = log.read(streamId, after).subscribe({
        next({ seq, event }) {
          if (subscriber.closed || seq < expected) return;
          expected = seq + 1;
          if (isTerminal(event)) return end(event);
          subscriber.next(event);
          armIdle();
        },
        error: (error) =>
          isLlmRxError(error) && error.code === 'unknown-stream'
            ? waitForStart()
            : end(failedFromError(error)),
        // A backend that ended the read without its terminal: the stream still ends with one.
        complete: () =>
          end(
            failedEvent(
              'stream-closed',
              `The event log ended "${streamId}" without a terminal.`,
              true,
            ),
          ),
      });
      if (subscriber.closed) read.unsubscribe();
    };
    armIdle();
    open();
    return release;
  });
}

function notFound(streamId: string, startTimeoutMs: number): StreamEvent {
  return failedEvent(
    'stream-not-found',
    `No stream "${streamId}" appeared in the event log within ${startTimeoutMs} ms: it was never ` +
      `recorded, its recorder did not start, or it finished and its TTL passed.`,
    false,
  );
}
