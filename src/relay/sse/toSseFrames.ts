import type { OperatorFunction, SchedulerLike, Subscription } from 'rxjs';
import * as z from 'zod/mini';
import { type StreamEvent } from '../../events';
import { failedFromError, isTerminal } from '../../terminalEvents';
import { createOperator } from '../../internal/createOperator';
import { durationOption, parseOptions, schedulerOption } from '../../internal/options';

/** Options of {@link toSseFrames} and `toSseStream`. */
export interface SseFramesOptions {
  /** Send a `: ping` comment after this long without an event; 0 sends none. @defaultValue 15000 */
  heartbeatMs?: number;
  /** The position (`id:`) of the first event: `after + 1` when resuming. @defaultValue 0 */
  startAt?: number;
  /**
   * The reconnection delay the stream opens with (`retry: <ms>`), for a standard `EventSource`;
   * `false` sends none. @defaultValue 1000
   */
  retryMs?: number | false;
  /** Where the heartbeat timer runs. @defaultValue asyncScheduler */
  scheduler?: SchedulerLike;
}

export const SseFramesOptions = z.object({
  heartbeatMs: z._default(durationOption, 15_000),
  startAt: z._default(z.int().check(z.nonnegative()), 0),
  retryMs: z._default(z.union([z.int().check(z.nonnegative()), z.literal(false)]), 1000),
  scheduler: schedulerOption,
});

/** The field a stream opens with: an `EventSource` waits this long before it reconnects. */
export function sseRetryField(retryMs: number): string {
  return `retry: ${retryMs}\n\n`;
}

/** The SSE comment sent as a heartbeat: proxies see bytes, clients ignore it. */
export const SSE_PING = ': ping\n\n';

/** One event as llm-rx's SSE wire carries it: its position, then its JSON on one data line. */
export function sseFrame(position: number, event: StreamEvent): string {
  // JSON.stringify escapes every line break, so the payload is always one `data:` line.
  return `id: ${position}\ndata: ${JSON.stringify(event)}\n\n`;
}

/**
 * Events as the text of llm-rx's own SSE wire: a `retry: <retryMs>` field first, then one
 * message per event, `id:` its position, and a `: ping` comment after `heartbeatMs` without an
 * event (counted from subscription, reset by each event). The text `toSseStream` encodes.
 *
 * ```
 * source:  -a 10ms b-(c|)                 (heartbeatMs: 5)
 * result:  rx 4ms p 4ms p y-(z|)          r = "retry: 1000\n\n", x/y/z = "id: 0|1|2\ndata: {…}\n\n",
 *                                         p = ": ping\n\n"
 * ```
 *
 * - The `retry:` field (sent at subscription) tells a standard `EventSource` to reconnect after
 *   `retryMs`, not its own default (about 3 s); readers of llm-rx's wire ignore it.
 * - Completes after the terminal and lets go of the source.
 * - A source error goes out as one `failed` event (the error's code), then completion.
 * - A source that completes without a terminal just completes; the reader's `streamEvents`
 *   then ends it (`stream-closed`).
 * - Unsubscribing cancels the heartbeat.
 *
 * @example
 * ```ts
 * events$.pipe(toSseFrames({ heartbeatMs: 10_000 })).subscribe((text) => res.write(text));
 * ```
 * @param options - {@link SseFramesOptions}
 */
export function toSseFrames(options: SseFramesOptions = {}): OperatorFunction<StreamEvent, string> {
  return sseFrames(parseOptions('toSseFrames', SseFramesOptions, options));
}

/** {@link toSseFrames} on options already checked (by the entry point the caller called). */
export function sseFrames({
  heartbeatMs,
  startAt,
  retryMs,
  scheduler,
}: z.output<typeof SseFramesOptions>): OperatorFunction<StreamEvent, string> {
  return createOperator<StreamEvent, string>(({ subscriber, unsubscribeSource }) => {
    let position = startAt;
    let heartbeat: Subscription | undefined;
    const ping = () => {
      subscriber.next(SSE_PING);
      heartbeat = scheduler.schedule(ping, heartbeatMs);
    };
    const armHeartbeat = () => {
      if (heartbeatMs === 0) return;
      heartbeat?.unsubscribe();
      heartbeat = scheduler.schedule(ping, heartbeatMs);
    };
    const end = (last: StreamEvent) => {
      heartbeat?.unsubscribe();
      unsubscribeSource();
      subscriber.next(sseFrame(position++, last));
      subscriber.complete();
    };
    if (retryMs !== false) subscriber.next(sseRetryField(retryMs));
    armHeartbeat();
    return {
      next(event) {
        if (isTerminal(event)) return end(event);
        subscriber.next(sseFrame(position++, event));
        armHeartbeat();
      },
      error: (error) => end(failedFromError(error)),
      teardown: () => heartbeat?.unsubscribe(),
    };
  });
}
