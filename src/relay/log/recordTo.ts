import { Observable, type MonoTypeOperatorFunction, type Subscription } from 'rxjs';
import * as z from 'zod/mini';
import { LlmRxError } from '../../errors';
import { type StreamEvent } from '../../events';
import { failedEvent, failedFromError, isTerminal } from '../../terminalEvents';
import { parseOptions } from '../../internal/options';
import type { EventLog, EventLogWriter } from './eventLog';
import { stopMessage } from './stopSignals';

/** What a recorder appends when it is unsubscribed before the terminal. */
const ABORTED: StreamEvent = {
  type: 'incomplete',
  reason: 'aborted',
  message: 'The recorder was unsubscribed before the stream ended.',
};

/** Options of {@link recordTo}. */
export interface RecordToOptions {
  /**
   * The chat this response belongs to (the id `useChat` sends, the same for every turn): the
   * recorded stream becomes the chat's latest response, for `log.latest(chatId)`.
   * @defaultValue none (the stream belongs to no chat)
   */
  chatId?: string;
}

const RecordToOptions = z.strictObject({ chatId: z.optional(z.string().check(z.minLength(1))) });

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
 *   (open, or finished within its TTL) → one `failed` `stream-exists` passed to this
 *   operator's subscriber, and the source is never subscribed; a backend that cannot be
 *   reached → `failed` `log-unavailable`. Watch for them: a bare `subscribe()` loses them.
 * - With `chatId`, the claimed stream becomes that chat's latest response (`log.latest`).
 *   Record each response under an id of its own (a chat id names many responses).
 * - Source completes without a terminal → `failed` `stream-closed` is appended and passed on;
 *   a source error → `failed` with its code. The log's stream always ends with a terminal.
 * - Unsubscribed before the terminal → appends `incomplete` `aborted`, so followers end too.
 * - `log.stop(streamId)` (any node) → appends `incomplete` `aborted` (the stop's reason in its
 *   message) and lets go of the source, whose provider request then closes. Give the producer's
 *   `fetch` `log.stopSignal(streamId)` too, so a stop before the answer's headers aborts it.
 * - The backend failing after the claim (`writer.failures`) → `failed` `log-unavailable`
 *   downstream, and the source is let go.
 * - Decouple the recording from any one client: subscribe it on its own, and answer every
 *   client, the first one included, with `followLog` (a client going away then stops nothing).
 *
 * @example
 * ```ts
 * const responseId = crypto.randomUUID(); // one stream per response
 * streamEvents(await fetch(providerUrl, init))
 *   .pipe(recordTo(log, responseId, { chatId }))
 *   .subscribe((event) => event.type === 'failed' && console.error(event.error.message));
 * return toSseResponse(followLog(log, responseId));
 * ```
 * @param log - where to record (`memoryEventLog()`, `redisEventLog(…)`)
 * @param streamId - the stream's id in the log, new for each response
 * @param options - {@link RecordToOptions}
 */
export function recordTo(
  log: EventLog,
  streamId: string,
  options: RecordToOptions = {},
): MonoTypeOperatorFunction<StreamEvent> {
  const { chatId } = parseOptions('recordTo', RecordToOptions, options);
  const claimOptions = chatId === undefined ? undefined : { chatId };
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
        stopSignal.removeEventListener('abort', onStop);
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

      // A stop (log.stop, on any node) ends the recording here, whatever the source still sends.
      const stopSignal = log.stopSignal(streamId);
      const onStop = () => {
        if (!writer || ended) return;
        const reason: unknown = stopSignal.reason;
        const message =
          reason instanceof Error && reason.message !== ''
            ? reason.message
            : stopMessage(undefined);
        guard(() => pass({ type: 'incomplete', reason: 'aborted', message }));
      };
      stopSignal.addEventListener('abort', onStop);

      const claimSubscription = log.claim(streamId, claimOptions).subscribe({
        next(granted) {
          writer = granted;
          failuresSubscription = granted.failures.subscribe((error) =>
            finish(failedFromError(error)),
          );
          if (ended) return;
          if (stopSignal.aborted) return onStop(); // stopped before the claim was granted
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
        stopSignal.removeEventListener('abort', onStop);
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
