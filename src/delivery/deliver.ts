import { from, type OperatorFunction, type Subscription } from 'rxjs';
import type { MessageEdit, MessageEnd, MessageStep } from '../channels/messageEditPlanner';
import type { TerminalEvent } from '../events';
import { failedFromError } from '../terminalEvents';
import { createAnswer } from './answerOutcome';
import { createOperator } from '../internal/createOperator';
import {
  attempt,
  callTransport,
  decideAfterFailure,
  deliveredReport,
  describeFailure,
  failedReport,
  isAmbiguous,
  isPromiseLike,
  ledgerUnreadable,
  ledgerWriteFailedReport,
  possibleDuplicateReport,
  resumedReport,
  retryingReport,
} from './callOutcome';
import { parseDeliverOptions, type DeliverOptions } from './deliverOptions';
import { budgetWaitMs } from './callBudget';
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
 * - Never two calls in flight; an edit only after its send resolved; starts ≥ `minIntervalMs`
 *   apart, an edit once `transport.budget` can take it, a send at once (it waits in the budget).
 * - Waiting texts of a message collapse to the newest (the others `superseded`), never older
 *   than one sent; every final text goes out, also after the source completed. A message's
 *   first text is sent, later ones edit it, whatever their `op`. Lower numbers go first.
 * - A failure with `retryAfterMs` pauses every call that long, then the same message is tried
 *   again with its newest text. `notModified` on an edit counts as delivered.
 * - Other failures back off `backoffMs`, doubling, up to `maxAttempts` calls, then one
 *   `delivery-failed` and the next message goes on (a message whose send failed is dropped).
 * - Lifecycle, for a transport with `finish`: each sent message gets exactly one `finish` call
 *   with its newest text, after its last edit settled and before the next message's send,
 *   once it closed (a higher message arrived, the answer ended, or the source ended). A text
 *   still waiting then goes out as the finish itself. A finish is paced and retried like any
 *   call, carries the newest text, is never superseded; given up on, it is one
 *   `delivery-failed` (op `finish`). A message whose send failed for good is never finished; a
 *   text after its finish edits it (ref from the finish), with no second finish.
 *   (marbles/deliver/finish-once-per-message.marble)
 * - With `ledger` and `key`: the ledger is read before the first call (texts arriving meanwhile
 *   wait); each call that went through is written to it (ref, text, finished) before its
 *   report, in the same call slot. A message the ledger holds is known: texts it already holds
 *   make no call, a newer one edits it with the stored ref, a finished one is not finished
 *   again; one `resumed` report per such message. An unreadable ledger fails the output
 *   (`delivery-failed`) before any call; a failed write is a `warning` `ledger-write-failed`.
 *   (marbles/deliver/ledger-*.marble)
 * - A failure that may have reached the platform (`ambiguous`, a 5xx) is retried after a
 *   `warning` `possible-duplicate`. A transport that throws or returns no Promise is a
 *   `delivery-failed` for that call, never an unhandled rejection.
 * - The answer's end (`{ op: 'end', terminal }`) closes every message. Unless the outcome is
 *   `completed` or `silent`, a one-line `notice` goes on the last message's final text (a new
 *   message when it would not fit `transport.maxMessageChars`, or nothing was shown). Once
 *   every message finished, one `answer` report is the last. A source error before the end is
 *   an answer `failed`; bare edits completing without an end get no answer report.
 * - A `permanent` failure (401, 403, chat not found, bot blocked) ends the answer's delivery:
 *   one `delivery-failed` (`permanent: true`), no further call, not even the notice.
 * - Completes when the source completed and the last call settled (a source error is passed
 *   on then). Unsubscribing makes no further call and aborts `call.signal`.
 *
 * @example
 * ```ts
 * streamEvents(response)
 *   .pipe(
 *     channel('telegram'),
 *     toMessageEdits({ maxMessageChars: 4096, render: 'telegram' }),
 *     deliver(telegramTransport({ token, chatId, format: 'telegram' })),
 *   )
 *   .subscribe((report) => report.type === 'answer' && log.info(report)); // notice: in the chat
 * ```
 * @param transport - {@link DeliveryTransport}: `send`, `edit` and optionally `finish`
 * @param options - {@link DeliverOptions}
 */
export function deliver<Ref>(
  transport: DeliveryTransport<Ref>,
  options: DeliverOptions = {},
): OperatorFunction<MessageStep, DeliveryReport> {
  const settings = parseDeliverOptions(transport, options);
  const { scheduler, minIntervalMs, ledger, key, notice } = settings;

  return createOperator<MessageStep, DeliveryReport>(({ subscriber }) => {
    const queue = createDeliveryQueue({ finishes: transport.finish !== undefined });
    // The one slot: a transport call, then its ledger write, or the ledger read at the start.
    let busy = false;
    let inFlight: Subscription | undefined;
    let abortCall: AbortController | undefined;
    let waitTimer: Subscription | undefined;
    let lastStartAt = -Infinity;
    let pausedUntil = -Infinity;
    let sourceEnded = false; // and how: a source error is passed on last
    let sourceError: { error: unknown } | undefined;
    // Steps that arrive while the ledger is read wait here: the ledger decides what they are.
    let early: MessageStep[] | undefined = ledger ? [] : undefined;
    const answer = createAnswer(transport, notice);

    const pump = (): void => {
      if (busy || waitTimer || subscriber.closed) return;
      if (answer.halted || !queue.hasWork()) {
        const report = early ? undefined : answer.report();
        if (report) subscriber.next(report);
        if (sourceError) subscriber.error(sourceError.error);
        else if (sourceEnded) subscriber.complete();
        return;
      }
      const now = scheduler.now();
      const budgetWait = budgetWaitMs(queue.nextOp(), transport.budget); // text taken then
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
      const result = callTransport(transport, call, context);
      if ('wrong' in result) return settle(() => fail(call, result.wrong));
      occupy(
        result.promise,
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
        return settle(() =>
          fail(call, describeFailure(thrown), decision.status, decision.permanent),
        );
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
      answer.shows(call.message);
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

    const fail = (call: QueuedCall, why: string, status?: number, permanent = false) => {
      queue.giveUp(call);
      answer.failed(permanent);
      subscriber.next(failedReport(call, why, status, permanent));
    };

    const supersede = (edit: MessageEdit) =>
      subscriber.next({ type: 'superseded', message: edit.message, text: edit.text });
    const take = (step: MessageStep): void => {
      if (step.op === 'end') return endAnswer(step.terminal, step.silent === true);
      if (answer.ended || answer.halted) return;
      const resumed = queue.takeResumed(step.message);
      if (resumed) {
        answer.shows(step.message);
        subscriber.next(resumedReport(resumed));
      }
      answer.seen(step);
      const replaced = queue.push(step);
      if (replaced) supersede(replaced);
    };

    // The answer ended: its notice (unless it completed) joins the queue, every message closes.
    const endAnswer = (terminal: TerminalEvent, silent: boolean) => {
      if (answer.ended) return;
      const notice = answer.end(terminal, silent);
      if (notice) {
        const replaced = queue.push(notice);
        if (replaced) supersede(replaced);
      }
      queue.closeAll();
    };

    if (ledger) {
      const restore = (entries: unknown) => {
        busy = false;
        inFlight = undefined;
        queue.restore(entries as LedgerEntry[]);
        const waiting = early!;
        early = undefined;
        (waiting.forEach(take), pump());
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
        const end: MessageEnd = { op: 'end', terminal: failedFromError(error) };
        if (early) early.push(end);
        else take(end);
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
