import { from, type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';
import * as z from 'zod/mini';
import type { MessageEdit } from '../channels/messageEditPlanner';
import { LlmRxError } from '../errors';
import { createOperator } from '../internal/createOperator';
import { durationOption, parseOptions, schedulerOption } from '../internal/options';
import {
  decideAfterFailure,
  deliveredReport,
  describeFailure,
  failedReport,
  isPromiseLike,
  kindOf,
  retryingReport,
} from './callOutcome';
import { createDeliveryQueue, type QueuedCall } from './deliveryQueue';
import type { DeliveryReport, DeliveryTransport, DeliveryWarning } from './types';

/** Options of {@link deliver}. */
export interface DeliverOptions {
  /** Least time between the starts of two calls. @defaultValue `transport.minIntervalMs`, else 0 */
  minIntervalMs?: number;
  /** Calls per text before giving up on failures that are not `retryAfterMs`. @defaultValue 5 */
  maxAttempts?: number;
  /** Wait after the first failure, doubling after each next one. @defaultValue 500 */
  backoffMs?: number;
  /** Where the interval, backoff and retry-after timers run. @defaultValue asyncScheduler */
  scheduler?: SchedulerLike;
}

const DeliverOptions = z.object({
  minIntervalMs: z.optional(durationOption),
  maxAttempts: z._default(z.int().check(z.minimum(1)), 5),
  backoffMs: z._default(durationOption, 500),
  scheduler: schedulerOption,
});

/**
 * Sends a bot's message edits through a chat transport, one call at a time, at the platform's
 * pace, without losing the final text of any message.
 *
 * ```
 * source:  -abc|                a = send "A", b = edit "AB", c = edit "ABC"  (minIntervalMs 5)
 * calls:   -a----c              one call in flight, starts ≥ 5 ms apart; b waited and lost to c
 * result:  --sx---(e|)          s = sent "A", x = superseded "AB", e = edited "ABC"
 *                               (marbles/deliver/pending-edits-collapse-to-newest.marble)
 * ```
 *
 * - Never two calls in flight; an edit only after its message's send resolved; call starts at
 *   least `minIntervalMs` apart. Lower message numbers go first.
 * - While waiting, texts of one message collapse to the newest (`superseded` reports the
 *   others); a text older than one already sent is never sent. The final text of every message
 *   goes out, also after the source completed. The first text of a message is sent, later ones
 *   edit it, whatever their `op`.
 * - A failure with `retryAfterMs` pauses every call that long, then the same message is tried
 *   again with its newest text. `notModified` on an edit counts as delivered.
 * - Other failures back off `backoffMs`, doubling, up to `maxAttempts` calls; a `permanent` one
 *   at once. Then one `delivery-failed` report, and the next message goes on (later texts of
 *   a message whose send failed are dropped).
 * - Lifecycle, for a transport with `finish`: each sent message gets exactly one `finish` call
 *   with its newest text, after its last edit settled and before the next message's send,
 *   once it closed (a higher message arrived, or the source completed or errored). A text still
 *   waiting then goes out as the finish itself, not as an edit first. A finish is paced and
 *   retried like any call, carries the newest text on a retry, and is never superseded; a
 *   finish given up on is one `delivery-failed` (op `finish`). A message whose send failed for
 *   good is never finished. A text arriving after its message finished (toMessageEdits never
 *   does this) edits the finished message, with the ref the finish resolved to; there is no
 *   second finish. `edit` and `finish` resolving to a ref replace the message's ref.
 *
 *   ```
 *   source:  -a-b-c|        a = send 0 "A", b = edit 0 "AB", c = send 1 "C"
 *   calls:   -a-b-xcy       x = finish 0 "AB" (c closed message 0), y = finish 1 "C" (completion)
 *   result:  --s-e-ft(g|)   f, g = finished (marbles/deliver/finish-once-per-message.marble)
 *   ```
 * - A transport that throws, or returns something that is not a Promise, is a
 *   `delivery-failed` report for that call, never an unhandled rejection.
 * - Completes when the source completed and the last call settled; a source error is passed
 *   on only then. Unsubscribing makes no further call and aborts `call.signal`.
 *
 * @example
 * ```ts
 * streamEvents(response)
 *   .pipe(
 *     channel('telegram'),
 *     toMessageEdits({ maxMessageChars: 4096, render: 'telegram' }),
 *     deliver(telegramTransport({ token, chatId, format: 'telegram' })),
 *   )
 *   .subscribe((report) => report.type === 'delivery-failed' && console.warn(report));
 * ```
 * @param transport - {@link DeliveryTransport}: `send`, `edit` and optionally `finish`, each
 *   returning a Promise
 * @param options - {@link DeliverOptions}
 */
export function deliver<Ref>(
  transport: DeliveryTransport<Ref>,
  options: DeliverOptions = {},
): OperatorFunction<MessageEdit, DeliveryReport> {
  if (
    typeof transport !== 'object' ||
    transport === null ||
    typeof transport.send !== 'function' ||
    typeof transport.edit !== 'function' ||
    (transport.finish !== undefined && typeof transport.finish !== 'function')
  ) {
    throw new LlmRxError(
      'invalid-options',
      'deliver: transport must be an object with send(edit) and edit(ref, edit) methods (and optionally finish(ref, edit)), such as telegramTransport({ … }).',
    );
  }
  const settings = parseOptions('deliver', DeliverOptions, options);
  const { scheduler } = settings;
  const minIntervalMs = settings.minIntervalMs ?? transport.minIntervalMs ?? 0;

  return createOperator<MessageEdit, DeliveryReport>(({ subscriber }) => {
    const queue = createDeliveryQueue({ finishes: transport.finish !== undefined });
    let busy = false;
    let inFlight: Subscription | undefined;
    let abortCall: AbortController | undefined;
    let waitTimer: Subscription | undefined;
    let lastStartAt = -Infinity;
    let pausedUntil = -Infinity;
    let sourceEnded = false;
    let sourceError: { error: unknown } | undefined;

    const pump = (): void => {
      if (busy || waitTimer || subscriber.closed) return;
      if (!queue.hasWork()) {
        if (!sourceEnded) return;
        if (sourceError) subscriber.error(sourceError.error);
        else subscriber.complete();
        return;
      }
      const startAt = Math.max(pausedUntil, lastStartAt + minIntervalMs);
      const now = scheduler.now();
      if (now < startAt) {
        waitTimer = scheduler.schedule(() => {
          waitTimer = undefined;
          pump();
        }, startAt - now);
        return;
      }
      start(queue.next()!);
    };

    const start = (call: QueuedCall): void => {
      busy = true;
      lastStartAt = scheduler.now();
      const controller = (abortCall = new AbortController());
      const warnings: DeliveryWarning[] = [];
      const context = {
        attempt: call.attempt,
        signal: controller.signal,
        warn: (code: DeliveryWarning['code'], message: string) => warnings.push({ code, message }),
      };
      let result: unknown;
      try {
        if (call.op === 'send') result = transport.send(call.edit, context);
        else if (call.op === 'edit') result = transport.edit(call.ref as Ref, call.edit, context);
        else result = transport.finish!(call.ref as Ref, call.edit, context);
      } catch (thrown) {
        return settle(() =>
          fail(
            call,
            `transport.${call.op} threw instead of returning a Promise (${describeFailure(thrown)})`,
          ),
        );
      }
      if (!isPromiseLike(result)) {
        return settle(() =>
          fail(call, `transport.${call.op} returned ${kindOf(result)}, not a Promise`),
        );
      }
      let settled = false;
      const subscription = from(result).subscribe({
        next: (value) => {
          settled = true;
          settle(() => succeed(call, value, warnings));
        },
        error: (thrown) => {
          settled = true;
          settle(() => onFailure(call, thrown, warnings));
        },
      });
      if (!settled && busy) inFlight = subscription;
    };

    // Reports the outcome, frees the single call slot, then starts what comes next.
    const settle = (report: () => void): void => {
      busy = false;
      inFlight = undefined;
      abortCall = undefined;
      report();
      pump();
    };

    const onFailure = (call: QueuedCall, thrown: unknown, warnings: DeliveryWarning[]) => {
      const decision = decideAfterFailure(thrown, call, queue.failuresOf(call), settings);
      if (decision.kind === 'not-modified') return succeed(call, undefined, warnings, true);
      if (decision.kind === 'give-up') return fail(call, describeFailure(thrown), decision.status);
      pausedUntil = scheduler.now() + decision.delayMs;
      const superseded = queue.retry(call, decision.counted);
      subscriber.next(retryingReport(call, decision, thrown));
      if (superseded) supersede(superseded);
    };

    const succeed = (
      call: QueuedCall,
      ref: unknown,
      warnings: DeliveryWarning[],
      notModified = false,
    ) => {
      queue.delivered(call, ref);
      subscriber.next(deliveredReport(call, warnings, notModified));
    };

    const fail = (call: QueuedCall, why: string, status?: number) => {
      queue.giveUp(call);
      subscriber.next(failedReport(call, why, status));
    };

    const supersede = (edit: MessageEdit) =>
      subscriber.next({ type: 'superseded', message: edit.message, text: edit.text });

    return {
      next(edit) {
        const replaced = queue.push(edit);
        if (replaced) supersede(replaced);
        pump();
      },
      complete() {
        sourceEnded = true;
        queue.closeAll();
        pump();
      },
      error(error) {
        sourceEnded = true;
        sourceError = { error };
        queue.closeAll();
        pump();
      },
      teardown() {
        waitTimer?.unsubscribe();
        inFlight?.unsubscribe();
        abortCall?.abort();
        waitTimer = inFlight = abortCall = undefined;
      },
    };
  });
}
