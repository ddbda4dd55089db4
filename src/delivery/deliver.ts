import { from, type OperatorFunction, type Subscription } from 'rxjs';
import type { MessageEdit } from '../channels/messageEditPlanner';
import { createOperator } from '../internal/createOperator';
import {
  decideAfterFailure,
  deliveredReport,
  describeFailure,
  failedReport,
  attempt,
  isAmbiguous,
  isPromiseLike,
  kindOf,
  ledgerUnreadable,
  ledgerWriteFailedReport,
  possibleDuplicateReport,
  resumedReport,
  retryingReport,
} from './callOutcome';
import { parseDeliverOptions, type DeliverOptions } from './deliverOptions';
import { createDeliveryQueue, type QueuedCall } from './deliveryQueue';
import type { DeliveryReport, DeliveryTransport, DeliveryWarning, LedgerEntry } from './types';

export type { DeliverOptions } from './deliverOptions';

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
 *   least `minIntervalMs` apart, and a send or edit waits until `transport.budget` (a chat's
 *   flood budget) can take it. Lower message numbers go first.
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
 * - With `ledger` and `key`: the ledger is read before the first call (texts arriving meanwhile
 *   wait); each call that went through is written to it (ref, text, finished) before its
 *   report, in the same call slot. A message the ledger holds is known: texts it already holds
 *   make no call, a newer one edits it with the stored ref, a finished one is not finished
 *   again; one `resumed` report per such message. An unreadable ledger fails the output
 *   (`delivery-failed`) before any call; a failed write is a `warning` `ledger-write-failed`.
 *   (marbles/deliver/ledger-*.marble)
 * - A failure that may have reached the platform (`ambiguous`, or a 5xx `status`) is retried
 *   like any other, after a `warning` report `possible-duplicate`.
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
  const settings = parseDeliverOptions(transport, options);
  const { scheduler, minIntervalMs, ledger, key } = settings;

  return createOperator<MessageEdit, DeliveryReport>(({ subscriber }) => {
    const queue = createDeliveryQueue({ finishes: transport.finish !== undefined });
    // The one slot: a transport call, then its ledger write, or the ledger read at the start.
    let busy = false;
    let inFlight: Subscription | undefined;
    let abortCall: AbortController | undefined;
    let waitTimer: Subscription | undefined;
    let lastStartAt = -Infinity;
    let pausedUntil = -Infinity;
    let sourceEnded = false;
    let sourceError: { error: unknown } | undefined;
    // Texts that arrive while the ledger is read wait here: the ledger decides what they are.
    let early: MessageEdit[] | undefined = ledger ? [] : undefined;

    const pump = (): void => {
      if (busy || waitTimer || subscriber.closed) return;
      if (!queue.hasWork()) {
        if (!sourceEnded) return;
        if (sourceError) subscriber.error(sourceError.error);
        else subscriber.complete();
        return;
      }
      const now = scheduler.now();
      // A transport with a budget says when its chat can take a call: the text is taken then.
      const budgetWait = queue.nextOp() === 'finish' ? 0 : (transport.budget?.readyIn() ?? 0);
      const startAt = Math.max(pausedUntil, lastStartAt + minIntervalMs, now + budgetWait);
      if (now < startAt && startAt !== Infinity) {
        waitTimer = scheduler.schedule(() => {
          waitTimer = undefined;
          pump();
        }, startAt - now);
        return;
      }
      start(queue.next()!);
    };

    // Holds the slot until `result` settles; the callbacks run in the slot.
    const occupy = (
      result: PromiseLike<unknown>,
      onValue: (value: unknown) => void,
      onError: (thrown: unknown) => void,
    ) => {
      busy = true;
      let settled = false;
      const subscription = from(result).subscribe({
        next: (value) => {
          settled = true;
          onValue(value);
        },
        error: (thrown) => {
          settled = true;
          onError(thrown);
        },
      });
      if (!settled) inFlight = subscription;
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
      occupy(
        result,
        (value) => succeed(call, value, warnings),
        (thrown) => onFailure(call, thrown, warnings),
      );
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
      if (decision.kind === 'give-up') {
        return settle(() => fail(call, describeFailure(thrown), decision.status));
      }
      pausedUntil = scheduler.now() + decision.delayMs;
      const superseded = queue.retry(call, decision.counted);
      settle(() => {
        if (isAmbiguous(thrown)) subscriber.next(possibleDuplicateReport(call, thrown));
        subscriber.next(retryingReport(call, decision, thrown));
        if (superseded) supersede(superseded);
      });
    };

    // The call went through: record it in the ledger (still in the slot), then report it.
    const succeed = (
      call: QueuedCall,
      ref: unknown,
      warnings: DeliveryWarning[],
      notModified = false,
    ) => {
      queue.delivered(call, ref);
      const report = () => subscriber.next(deliveredReport(call, warnings, notModified));
      if (!ledger) return settle(report);
      abortCall = undefined;
      const writeFailed = (thrown: unknown) =>
        settle(() => {
          report();
          subscriber.next(ledgerWriteFailedReport(call, thrown));
        });
      const written = attempt(() => ledger.write(key!, queue.entryOf(call)));
      if ('thrown' in written) return writeFailed(written.thrown);
      if (!isPromiseLike(written.value)) return settle(report);
      occupy(written.value, () => settle(report), writeFailed);
    };

    const fail = (call: QueuedCall, why: string, status?: number) => {
      queue.giveUp(call);
      subscriber.next(failedReport(call, why, status));
    };

    const supersede = (edit: MessageEdit) =>
      subscriber.next({ type: 'superseded', message: edit.message, text: edit.text });

    const take = (edit: MessageEdit) => {
      const resumed = queue.takeResumed(edit.message);
      if (resumed) subscriber.next(resumedReport(resumed));
      const replaced = queue.push(edit);
      if (replaced) supersede(replaced);
    };

    if (ledger) {
      const restore = (entries: unknown) => {
        busy = false;
        inFlight = undefined;
        queue.restore(entries as LedgerEntry[]);
        const waiting = early!;
        early = undefined;
        waiting.forEach(take);
        pump();
      };
      const unreadable = (thrown: unknown) => subscriber.error(ledgerUnreadable(key!, thrown));
      const read = attempt(() => ledger.read(key!));
      if ('thrown' in read) unreadable(read.thrown);
      else if (!isPromiseLike(read.value)) restore(read.value);
      else occupy(read.value, restore, unreadable);
    }

    return {
      next(edit) {
        if (early) early.push(edit);
        else take(edit);
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
        early = undefined;
      },
    };
  });
}
