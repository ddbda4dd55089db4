import { Observable, type SchedulerLike, type Subscription } from 'rxjs';
import * as z from 'zod/mini';
import { type StreamEvent } from '../../events';
import { failedFromError, isTerminal } from '../../terminalEvents';
import { durationOption, parseOptions, schedulerOption } from '../../internal/options';
import { stalledEvent } from '../../internal/stalledEvent';
import type { EventLog } from './eventLog';

/** Options of {@link followLog}. */
export interface FollowLogOptions {
  /** Replay the events after this position (`Last-Event-ID`); -1 replays all. @defaultValue -1 */
  after?: number;
  /** End with `failed` `stalled` when the log gets no event for this long. @defaultValue none */
  idleTimeoutMs?: number;
  /** Where the idle timer runs. @defaultValue asyncScheduler */
  scheduler?: SchedulerLike;
}

const FollowLogOptions = z.object({
  after: z._default(z.int().check(z.gte(-1)), -1),
  idleTimeoutMs: z.optional(durationOption),
  scheduler: schedulerOption,
});

/**
 * A stream kept in an event log, as events: those after position `after` (replayed), then the
 * live ones as they are appended, ending with the terminal. Pair it with
 * `toSseStream(…, { startAt: after + 1 })` so the `id:` lines stay positions.
 *
 * ```
 * recorder:  -a 5ms b 5ms c|            (c = completed)
 * follow at 7:      (ab) 2ms (c|)       replayed a, b; then c live: nothing lost or twice
 * after: 0, at 9:     b 3ms (c|)
 * ```
 *
 * - Never errors: an unknown id → `failed` `unknown-stream`; a position at or past the
 *   terminal of a finished stream → `failed` `invalid-last-event-id` (status 400); a backend
 *   failure → one `failed` with its code (`log-unavailable`, `producer-lost`).
 * - A position ahead of an open stream waits for the events past it (another node, a replica
 *   or a fast client can be ahead of this reader); if the stream then finishes at or below
 *   it, `failed` `invalid-last-event-id` at its terminal.
 * - A position delivered twice by a backend is dropped, so the output has each seq once.
 * - `idleTimeoutMs` without an event (counted from subscription) → `failed` `stalled`.
 * - Unsubscribing releases the read and the idle timer.
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
  const { after, idleTimeoutMs, scheduler } = parseOptions('followLog', FollowLogOptions, options);
  return new Observable<StreamEvent>((subscriber) => {
    let expected = after + 1;
    let read: Subscription | undefined;
    const end = (last: StreamEvent) => {
      idleTimer?.unsubscribe();
      read?.unsubscribe();
      subscriber.next(last);
      subscriber.complete();
    };
    let idleTimer: Subscription | undefined;
    const armIdle = () => {
      if (idleTimeoutMs === undefined) return;
      idleTimer?.unsubscribe();
      idleTimer = scheduler.schedule(
        () => end(stalledEvent(idleTimeoutMs, ' from the event log')),
        idleTimeoutMs,
      );
    };
    armIdle();
    read = log.read(streamId, after).subscribe({
      next({ seq, event }) {
        if (subscriber.closed || seq < expected) return;
        expected = seq + 1;
        if (isTerminal(event)) return end(event);
        subscriber.next(event);
        armIdle();
      },
      error: (error) => end(failedFromError(error)),
      complete: () => {
        idleTimer?.unsubscribe();
        subscriber.complete();
      },
    });
    if (subscriber.closed) read.unsubscribe();
    return () => {
      idleTimer?.unsubscribe();
      read?.unsubscribe();
    };
  });
}
