import { defer, Observable, type SchedulerLike, type Subscription } from 'rxjs';
import * as z from 'zod/mini';
import { LlmRxError } from '../errors';
import { type FailedEvent, type StreamEvent, type WarningEvent } from '../events';
import { isTerminal } from '../terminalEvents';
import { durationOption, parseOptions, schedulerOption } from '../internal/options';
import { ensureTerminal } from './ensureTerminal';

const RetryStreamOptions = z.object({
  maxAttempts: z._default(z.int().check(z.gte(1)), 3),
  backoffMs: z._default(
    z.union([durationOption, z.array(durationOption).check(z.minLength(1))]),
    500,
  ),
  maxRetryAfterMs: z._default(durationOption, 60_000),
  scheduler: schedulerOption,
});

/** Options of {@link retryStream}. */
export interface RetryStreamOptions {
  /** Attempts in all, the first one included; 1 never retries. @defaultValue 3 */
  maxAttempts?: number;
  /**
   * The wait before each retry: a number doubles from there (500 → 500, 1000, 2000 ms); a list
   * gives one delay per retry, its last entry repeating. No jitter: output stays deterministic.
   * @defaultValue 500
   */
  backoffMs?: number | number[];
  /**
   * The longest `failed.error.retryAfterMs` (a `Retry-After` header) worth waiting for; a
   * failure asking for a longer wait is not retried but passed on, so the app can tell the user.
   * @defaultValue 60000
   */
  maxRetryAfterMs?: number;
  /** Where the backoff timer runs. @defaultValue asyncScheduler */
  scheduler?: SchedulerLike;
}

// Events a user sees; once one went out, a retry would show it twice.
const VISIBLE_TYPES = new Set<StreamEvent['type']>([
  'text-start',
  'text-delta',
  'text-end',
  'reasoning-start',
  'reasoning-delta',
  'reasoning-end',
  'tool-input-start',
  'tool-input-delta',
  'tool-call',
  'tool-start',
  'tool-update',
  'tool-end',
  'block',
  'silent',
]);

/**
 * Runs `request()` again after a retryable `failed`, as long as nothing visible has gone out.
 *
 * ```
 * attempt 1:  -s-x|                  x = failed, retryable      (backoffMs: 5)
 * attempt 2:          -s-a-c|        requested 5 ms after x
 * result:     ---w-------A-c|        w = warning `retry`; A = s then a (s held until a);
 *                                    attempt 1's s is dropped
 * ```
 *
 * - Each attempt goes through `ensureTerminal()`: an attempt that errors or closes without a
 *   terminal ends in `failed` too: a silent close is `stream-closed` and an error that is not
 *   an LlmRxError (a rejected `fetch`) is `stream-error`, both retryable. The output never
 *   errors; it ends with exactly one terminal.
 * - Visible events are text, reasoning, tool, `block` and `silent` events. Until the first one,
 *   an attempt's other events (`response-start`, `usage`, `finish`, warnings) are held: they go
 *   out just before it, or before the terminal. A retried attempt's held events are dropped, so
 *   the output reads as one attempt, preceded by one `warning` `retry` per failed attempt.
 * - Retried: a `failed` with `retryable: true`, nothing visible sent, fewer than `maxAttempts`
 *   attempts made. The `retry` warning goes out at once (`detail`: attempt, maxAttempts,
 *   delayMs, the failed error); the next attempt starts after the backoff, or after the
 *   failure's `retryAfterMs` (the provider's `Retry-After`) when that is longer:
 *
 *   ```
 *   attempt 1:  -x|                        x = failed, retryable, retryAfterMs 30   (backoffMs: 5)
 *   attempt 2:    ------ 30 ms ------a-c|
 *   result:     -w-------------------a-c|
 *   ```
 *
 *   A `retryAfterMs` above `maxRetryAfterMs` is not waited for: that failure passes.
 * - Everything else passes: any terminal after visible output (text is never duplicated), a
 *   failure that is not retryable, the last attempt's failure.
 * - Unsubscribing stops the running attempt or cancels the backoff timer.
 *
 * @example
 * ```ts
 * retryStream(() => from(fetch(url, init)).pipe(switchMap((response) => streamEvents(response))), {
 *   maxAttempts: 3,
 * }).subscribe(render);
 * ```
 * @param request - returns a fresh `Observable<StreamEvent>` for each attempt (a new request)
 * @param options - {@link RetryStreamOptions}
 */
export function retryStream(
  request: () => Observable<StreamEvent>,
  options: RetryStreamOptions = {},
): Observable<StreamEvent> {
  const { maxAttempts, backoffMs, maxRetryAfterMs, scheduler } = parseOptions(
    'retryStream',
    RetryStreamOptions,
    options,
  );
  if (typeof request !== 'function') {
    throw new LlmRxError(
      'invalid-options',
      'retryStream: request must be a function returning an Observable<StreamEvent>.',
    );
  }
  const delayBeforeRetry = (retry: number): number =>
    typeof backoffMs === 'number'
      ? backoffMs * 2 ** (retry - 1)
      : backoffMs[Math.min(retry, backoffMs.length) - 1];

  return new Observable<StreamEvent>((subscriber) => {
    let attempt = 0;
    let visibleSent = false;
    let held: StreamEvent[] = [];
    let running: Subscription | undefined;
    let backoffTimer: Subscription | undefined;

    const release = () => {
      const events = held;
      held = [];
      for (const event of events) subscriber.next(event);
    };

    const onTerminal = (terminal: StreamEvent) => {
      const retryAfterMs = terminal.type === 'failed' ? (terminal.error.retryAfterMs ?? 0) : 0;
      if (
        terminal.type === 'failed' &&
        terminal.error.retryable &&
        !visibleSent &&
        attempt < maxAttempts &&
        retryAfterMs <= maxRetryAfterMs
      ) {
        held = [];
        const backoff = delayBeforeRetry(attempt);
        const delayMs = Math.max(backoff, retryAfterMs);
        subscriber.next(retryWarning(attempt, maxAttempts, delayMs, terminal, delayMs > backoff));
        backoffTimer = scheduler.schedule(runAttempt, delayMs);
        return;
      }
      release();
      subscriber.next(terminal);
      subscriber.complete();
    };

    const onEvent = (event: StreamEvent) => {
      if (visibleSent) return subscriber.next(event);
      if (!VISIBLE_TYPES.has(event.type)) return void held.push(event);
      visibleSent = true;
      release();
      subscriber.next(event);
    };

    function runAttempt() {
      attempt++;
      held = [];
      running = undefined;
      let ended = false;
      const subscription = defer(request)
        .pipe(ensureTerminal({ scheduler }))
        .subscribe({
          next(event) {
            if (ended) return;
            try {
              if (!isTerminal(event)) return onEvent(event);
              ended = true;
              running?.unsubscribe();
              onTerminal(event);
            } catch (error) {
              subscriber.error(error);
            }
          },
          // ensureTerminal never errors and always ends with a terminal; completion follows it.
          error: (error) => subscriber.error(error),
        });
      // The attempt may have ended while subscribing (a synchronous source).
      if (ended || subscriber.closed) subscription.unsubscribe();
      else running = subscription;
    }

    runAttempt();
    return () => {
      running?.unsubscribe();
      backoffTimer?.unsubscribe();
      held = [];
    };
  });
}

function retryWarning(
  attempt: number,
  maxAttempts: number,
  delayMs: number,
  failed: FailedEvent,
  providerAsked: boolean,
): WarningEvent {
  const why = providerAsked ? ', as the provider asked' : '';
  return {
    type: 'warning',
    code: 'retry',
    message: `Attempt ${attempt} of ${maxAttempts} failed before any output (${failed.error.code}); retrying in ${delayMs} ms${why}.`,
    detail: { attempt, maxAttempts, delayMs, error: failed.error },
  };
}
