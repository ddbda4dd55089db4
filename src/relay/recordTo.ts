import { Observable, type MonoTypeOperatorFunction, type Subscription } from 'rxjs';
import { LlmRxError } from '../errors';
import { failedEvent, isTerminal, type StreamEvent } from '../events';
import type { EventLog, EventLogWriter } from './eventLog';
import { failedFromError } from './failedFromError';

/** What a recorder appends when it is unsubscribed before the terminal. */
const ABORTED: StreamEvent = {
  type: 'incomplete',
  reason: 'aborted',
  message: 'The recorder was unsubscribed before the stream ended.',
};

/**
 * Records every event it passes on into `log` under `streamId` (seq = position 0, 1, 2, …),
 * so readers can replay and follow it with `followLog`; the terminal closes the log's stream.
 * What passes downstream is exactly what is appended, in the same order.
 *
 * ```
 * source:  -a-b-c|          c = completed
 * result:  -a-b-(c|)        log "s": a(0) b(1) c(2), closed
 * ```
 *
 * - The source is subscribed once the log granted the claim. An id the log still holds
 *   (open, or finished within its TTL) → one `failed` `stream-exists` and the source is never
 *   subscribed; a backend that cannot be reached → `failed` `log-unavailable`.
 * - Source completes without a terminal → `failed` `stream-closed` is appended and passed on;
 *   a source error → `failed` with its code. The log's stream always ends with a terminal.
 * - Unsubscribed before the terminal → appends `incomplete` `aborted`, so followers end too.
 * - The backend failing after the claim (`writer.failures`) → `failed` `log-unavailable`
 *   downstream, and the source is let go.
 * - Decouple the recording from any one client: subscribe it on its own, and answer every
 *   client, the first one included, with `followLog` (a client going away then stops nothing).
 *
 * @example
 * ```ts
 * streamEvents(await fetch(providerUrl, init)).pipe(recordTo(log, chatId)).subscribe();
 * return toSseResponse(followLog(log, chatId));
 * ```
 * @param log - where to record (`memoryEventLog()`, `redisEventLog(…)`)
 * @param streamId - the stream's id in the log, new for each response
 */
export function recordTo(log: EventLog, streamId: string): MonoTypeOperatorFunction<StreamEvent> {
  return (source) =>
    new Observable<StreamEvent>((subscriber) => {
      let writer: EventLogWriter | undefined;
      let sourceSubscription: Subscription | undefined;
      let failuresSubscription: Subscription | undefined;
      let ended = false;

      const pass = (event: StreamEvent) => {
        if (ended) return;
        writer?.append(event);
        if (!isTerminal(event)) return subscriber.next(event);
        finish(event);
      };
      // Ends the output with `last`; appending it is the caller's business.
      const finish = (last: StreamEvent) => {
        ended = true;
        sourceSubscription?.unsubscribe();
        failuresSubscription?.unsubscribe();
        writer?.release();
        subscriber.next(last);
        subscriber.complete();
      };
      const guard = (run: () => void) => {
        try {
          run();
        } catch (error) {
          if (!ended) finish(failedFromError(error));
        }
      };

      const claimSubscription = log.claim(streamId).subscribe({
        next(granted) {
          writer = granted;
          failuresSubscription = granted.failures.subscribe((error) =>
            finish(failedFromError(error)),
          );
          if (ended) return;
          sourceSubscription = source.subscribe({
            next: (event) => guard(() => pass(event)),
            error: (error) => guard(() => pass(failedFromError(error))),
            complete: () =>
              guard(() =>
                pass(
                  failedEvent(
                    'stream-closed',
                    'The recorded stream ended without a terminal event.',
                    true,
                  ),
                ),
              ),
          });
          // A source that ended synchronously inside subscribe() is let go now.
          if (ended) sourceSubscription.unsubscribe();
        },
        error: (error) =>
          finish(
            failedFromError(
              error instanceof Error
                ? error
                : new LlmRxError('log-unavailable', `Could not claim "${streamId}": ${error}`),
            ),
          ),
      });

      return () => {
        claimSubscription.unsubscribe();
        sourceSubscription?.unsubscribe();
        failuresSubscription?.unsubscribe();
        if (ended || !writer) return;
        ended = true;
        guard(() => writer?.append(ABORTED));
        writer.release();
      };
    });
}
