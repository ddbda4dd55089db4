import { Subscription, type MonoTypeOperatorFunction, type SchedulerLike } from 'rxjs';
import * as z from 'zod/mini';
import { errorMessage, LlmRxError } from '../errors';
import { StreamEvent, type StreamEventType, type WarningEvent } from '../events';
import { isTerminal } from '../terminalEvents';
import { createOperator } from '../internal/createOperator';
import { durationOption, parseOptions, schedulerOption } from '../internal/options';
import { runHandler, type EventHandler } from '../internal/runHandler';

export type { EventHandler, EventHandlerResult } from '../internal/runHandler';

const eventTypes = StreamEvent.def.options.map((option) => option.shape.type.def.values[0]) as [
  StreamEventType,
  ...StreamEventType[],
];

const HandleEventsOptions = z.object({
  detach: z._default(
    z.union([
      z.array(z.enum(eventTypes)),
      z.custom<(event: StreamEvent) => boolean>((value) => typeof value === 'function', {
        message: 'expected a list of event types or a predicate',
      }),
    ]),
    ['tool-end'],
  ),
  settleTimeoutMs: z._default(durationOption, 30_000),
  scheduler: schedulerOption,
});

/** Options of {@link handleEvents}. */
export interface HandleEventsOptions {
  /**
   * Events whose handler runs beside the chain: a list of event types, or a predicate.
   * @defaultValue `['tool-end']`
   */
  detach?: readonly StreamEventType[] | ((event: StreamEvent) => boolean);
  /**
   * How long the end of the stream waits for detached handlers before it warns
   * (`detached-timeout`), cancels them and ends anyway. Counted from when the end is reached.
   * @defaultValue 30000
   */
  settleTimeoutMs?: number;
  /** Where the settle timer runs. @defaultValue asyncScheduler */
  scheduler?: SchedulerLike;
}

// What waits in the chain: an event, or how the source ended.
type QueueItem =
  { kind: 'event'; event: StreamEvent } | { kind: 'complete' } | { kind: 'error'; error: unknown };

/**
 * Runs a side effect per event, one at a time in order, and re-emits each event once its
 * handler settled; detached events (default `tool-end`) run beside the chain, and the end of the
 * stream waits for them.
 *
 * ```
 * handler: text-delta → timer(2), tool-end → timer(10), detach: tool-end
 * source:   -t-a-c|
 * result:   -t---a-----(c|)      t at once; a after its 2 ms; c once t's handler settled at 11
 * ```
 *
 * - Serial: the handler of an event starts when the previous event's handler settled (a
 *   Promise resolves or rejects, an Observable completes or errors, anything else at once);
 *   the event is re-emitted then. An Observable is subscribed directly, so under TestScheduler
 *   the timing is exact.
 * - Detached: when a detached event's turn comes its handler starts, the event is re-emitted at
 *   once and the chain moves on.
 * - The end (terminal, source completion, source error) waits until every detached handler
 *   settled, or `settleTimeoutMs`: then a `warning` `detached-timeout`, the pending ones are
 *   cancelled. Only then does the terminal's own handler run, then the terminal, then completion.
 *   A source error likewise lets queued and detached handlers finish before it passes on.
 * - A handler that throws, rejects or errors: a `warning` `handler-error` just before its event
 *   (a detached one: when it fails), and the stream goes on. Warnings made here do not go
 *   through the handler.
 * - A terminal is never detached, and it unsubscribes the source: nothing may follow it.
 *   `settleTimeoutMs` bounds detached work only; a serial handler (the terminal's included)
 *   is waited for as long as it runs.
 * - Unsubscribing cancels the running handlers (Observables unsubscribed, Promise results
 *   ignored — a later rejection is caught, never unhandled) and the settle timer.
 *
 * @example
 * ```ts
 * events$.pipe(
 *   handleEvents(async (event) => {
 *     if (event.type === 'block') await bot.send(chatId, event.text);
 *     if (event.type === 'tool-end') await audit.save(event); // detached: does not block text
 *   }),
 * )
 * ```
 * @param handler - called with each event; see {@link EventHandlerResult}
 * @param options - {@link HandleEventsOptions}
 */
export function handleEvents(
  handler: EventHandler,
  options: HandleEventsOptions = {},
): MonoTypeOperatorFunction<StreamEvent> {
  if (typeof handler !== 'function') {
    throw new LlmRxError('invalid-options', 'handleEvents: the handler must be a function');
  }
  const { detach, settleTimeoutMs, scheduler } = parseOptions(
    'handleEvents',
    HandleEventsOptions,
    options,
  );
  const isDetached =
    typeof detach === 'function'
      ? detach
      : (event: StreamEvent) => (detach as readonly string[]).includes(event.type);

  return createOperator<StreamEvent, StreamEvent>(({ subscriber, unsubscribeSource }) => {
    const queue: QueueItem[] = [];
    const detached = new Set<Subscription>();
    let running: Subscription | undefined; // the serial handler in progress
    let settleTimer: Subscription | undefined;
    let draining = false;
    let ended = false; // a terminal, completion or error is queued: take nothing more

    // Handlers settle outside the source's notifications (a Promise, a timer): a throw there
    // must still reach the subscriber, not a rejected promise or the unhandled-error hook.
    const guarded =
      <Args extends unknown[]>(run: (...args: Args) => void) =>
      (...args: Args) => {
        try {
          run(...args);
        } catch (error) {
          subscriber.error(error);
        }
      };

    const warnHandlerError = (event: StreamEvent, error: unknown, wasDetached: boolean) => {
      const reason = errorMessage(error);
      const warning: WarningEvent = {
        type: 'warning',
        code: 'handler-error',
        message: `The handler for a "${event.type}" event failed: ${reason}`,
        detail: { eventType: event.type, detached: wasDetached },
      };
      subscriber.next(warning);
    };

    const startDetached = (event: StreamEvent) => {
      const entry = new Subscription();
      detached.add(entry);
      entry.add(
        runHandler(
          handler,
          event,
          guarded((failure) => {
            if (!detached.delete(entry)) return;
            if (failure) warnHandlerError(event, failure.error, true);
            if (detached.size === 0) drain();
          }),
        ),
      );
    };

    const onSettleTimeout = () => {
      settleTimer = undefined;
      const pending = detached.size;
      detached.forEach((entry) => entry.unsubscribe());
      detached.clear();
      subscriber.next({
        type: 'warning',
        code: 'detached-timeout',
        message: `${pending} detached handler(s) did not settle within ${settleTimeoutMs} ms of the end of the stream and were cancelled.`,
        detail: { pending },
      });
      drain();
    };

    // Moves the chain forward as far as it can; re-entrant calls (a handler that settles
    // synchronously) return at once and the outer loop carries on, so the stack stays flat.
    const drain = () => {
      if (draining) return;
      draining = true;
      try {
        while (!running && queue.length > 0 && !subscriber.closed) {
          const item = queue[0];
          const isEnd = item.kind !== 'event' || isTerminal(item.event);
          if (isEnd && detached.size > 0) {
            settleTimer ??= scheduler.schedule(guarded(onSettleTimeout), settleTimeoutMs);
            return;
          }
          if (isEnd) {
            settleTimer?.unsubscribe();
            settleTimer = undefined;
          }
          queue.shift();
          if (item.kind === 'complete') return subscriber.complete();
          if (item.kind === 'error') return subscriber.error(item.error);
          const event = item.event;
          if (!isTerminal(event) && isDetached(event)) {
            startDetached(event);
            subscriber.next(event);
            continue;
          }
          const handle = new Subscription();
          running = handle;
          handle.add(
            runHandler(
              handler,
              event,
              guarded((failure) => {
                if (running !== handle) return;
                running = undefined;
                if (failure) warnHandlerError(event, failure.error, false);
                subscriber.next(event);
                if (isTerminal(event)) subscriber.complete();
                else drain();
              }),
            ),
          );
        }
      } finally {
        draining = false;
      }
    };

    const enqueue = (item: QueueItem) => {
      queue.push(item);
      drain();
    };

    return {
      next(event) {
        if (ended) return;
        if (isTerminal(event)) {
          ended = true;
          unsubscribeSource();
        }
        enqueue({ kind: 'event', event });
      },
      complete() {
        ended = true;
        enqueue({ kind: 'complete' });
      },
      error(error) {
        ended = true;
        enqueue({ kind: 'error', error });
      },
      teardown() {
        queue.length = 0;
        running?.unsubscribe();
        running = undefined;
        detached.forEach((entry) => entry.unsubscribe());
        detached.clear();
        settleTimer?.unsubscribe();
        settleTimer = undefined;
      },
    };
  });
}
