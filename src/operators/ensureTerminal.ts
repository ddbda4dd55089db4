import type { MonoTypeOperatorFunction, SchedulerLike, Subscription } from 'rxjs';
import * as z from 'zod/mini';
import { abortError } from '../errors';
import type { FinishEvent, StreamEvent, TerminalEvent, UsageEvent } from '../events';
import {
  failedEvent,
  failedFromError,
  isTerminal as importedIsTerminal,
  terminalForFinish,
} from '../terminalEvents';
import { createOperator } from '../internal/createOperator';
import { durationOption, parseOptions, schedulerOption, signalOption } from '../internal/options';
import { stalledEvent } from '../internal/stalledEvent';

// A module-local copy of what runs for every event (see providers/openaiChat.ts); what runs once
// at the end of a stream is called as imported.
const isTerminal = importedIsTerminal;

const EnsureTerminalOptions = z.object({
  idleTimeoutMs: z.optional(durationOption),
  deadlineMs: z.optional(durationOption),
  signal: z.optional(signalOption),
  scheduler: schedulerOption,
});

/** Options of {@link ensureTerminal}. */
export interface EnsureTerminalOptions {
  /** Fail with `stalled` when no event arrives for this long. @defaultValue no idle limit */
  idleTimeoutMs?: number;
  /** Fail with `deadline` when the stream runs longer than this. @defaultValue no deadline */
  deadlineMs?: number;
  /**
   * Aborting it ends the stream with `incomplete`, reason `aborted` (whatever the reason);
   * `AbortSignal.timeout()` ends it with `failed` `deadline`, retryable.
   */
  signal?: AbortSignal;
  /** Where the timers run. @defaultValue asyncScheduler */
  scheduler?: SchedulerLike;
}

/**
 * Guarantees exactly one terminal (`completed` / `incomplete` / `failed`), always last.
 *
 * ```
 * source:   -a-f-|            -a-#              -a------        (idleTimeoutMs: 5)
 * result:   -a-f-(c|)         -a-(x|)           -a----(s|)
 *           c = completed     x = failed {code of the error}    s = failed stalled
 * ```
 *
 * - The source's own terminal passes, then the output completes and the source is released;
 *   anything after it (a second terminal included) is dropped.
 * - Source completes without one: the last `finish` decides (`stop`, `tool-calls`, `other` →
 *   `completed` with the last `usage`; `length`, `content-filter` → `incomplete`), and with no
 *   `finish` it is `failed` code `stream-closed`, retryable: a silent EOF is never success.
 * - Source errors: `failed` with the error's `code` (`stream-error` when it has none) and its
 *   `status`, `provider`, `retryAfterMs`; an error with code `aborted` is `incomplete`,
 *   reason `aborted`.
 * - `idleTimeoutMs` without an event (each event resets it, counted from subscription):
 *   `failed` `stalled`; past `deadlineMs` from subscription: `failed` `deadline`, retryable. Either
 *   unsubscribes the source.
 * - `signal` aborted: `incomplete` reason `aborted` (any reason), and the source is
 *   unsubscribed; `AbortSignal.timeout()`'s TimeoutError is `failed` `deadline`, retryable.
 *   A source error with code `deadline` (a fetch body cut by `AbortSignal.timeout()`) passes
 *   as `failed` `deadline` with its own `retryable`.
 * - Unsubscribing emits nothing and clears every timer and the abort listener.
 *
 * @example
 * ```ts
 * fromSse(response).pipe(decodeOpenAIChat(), ensureTerminal({ idleTimeoutMs: 30_000 }))
 * ```
 * @param options - {@link EnsureTerminalOptions}
 */
export function ensureTerminal(
  options: EnsureTerminalOptions = {},
): MonoTypeOperatorFunction<StreamEvent> {
  const { idleTimeoutMs, deadlineMs, signal, scheduler } = parseOptions(
    'ensureTerminal',
    EnsureTerminalOptions,
    options,
  );
  return createOperator<StreamEvent, StreamEvent>(({ subscriber, unsubscribeSource }) => {
    let lastFinish: FinishEvent | undefined;
    let lastUsage: UsageEvent | undefined;
    let eventCount = 0;
    let idleTimer: Subscription | undefined;
    let deadlineTimer: Subscription | undefined;

    const end = (terminal: TerminalEvent) => {
      if (subscriber.closed) return;
      clearTimers();
      unsubscribeSource();
      subscriber.next(terminal);
      subscriber.complete();
    };
    const clearTimers = () => {
      idleTimer?.unsubscribe();
      deadlineTimer?.unsubscribe();
      signal?.removeEventListener('abort', onAbort);
    };
    const fail = (error: unknown) => {
      const failed = failedFromError(error);
      end(
        failed.error.code === 'aborted'
          ? { type: 'incomplete', reason: 'aborted', message: 'The caller aborted the stream.' }
          : failed,
      );
    };
    // The signal's reason decides: AbortSignal.timeout() is a retryable `deadline`.
    const onAbort = () => fail(abortError(signal?.reason));
    // Only called when there is an idle limit: without one, an event costs no timer work.
    const armIdle = (idleTimeoutMs: number) => {
      idleTimer?.unsubscribe();
      idleTimer = scheduler.schedule(() => end(stalledEvent(idleTimeoutMs, '')), idleTimeoutMs);
    };
    if (signal?.aborted) {
      // Already aborted: end at once; createOperator then never subscribes to the source.
      onAbort();
    } else {
      signal?.addEventListener('abort', onAbort, { once: true });
      if (idleTimeoutMs !== undefined) armIdle(idleTimeoutMs);
      if (deadlineMs !== undefined) {
        deadlineTimer = scheduler.schedule(
          () =>
            end(
              failedEvent(
                'deadline',
                `The stream ran past its deadline of ${deadlineMs} ms.`,
                true, // one attempt timed out, as with AbortSignal.timeout(): retryStream may retry
              ),
            ),
          deadlineMs,
        );
      }
    }

    return {
      next(event) {
        if (isTerminal(event)) return end(event);
        eventCount++;
        if (event.type === 'finish') lastFinish = event;
        else if (event.type === 'usage') lastUsage = event;
        if (idleTimeoutMs !== undefined) armIdle(idleTimeoutMs);
        subscriber.next(event);
      },
      error: fail,
      complete() {
        if (lastFinish) return end(terminalForFinish(lastFinish, lastUsage));
        end(
          failedEvent(
            'stream-closed',
            `The stream ended before the provider sent a finish reason or a terminal event ` +
              `(${eventCount} events received).`,
            true,
          ),
        );
      },
      teardown: clearTimers,
    };
  });
}
