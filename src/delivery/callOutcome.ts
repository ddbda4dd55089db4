import { errorMessage, LlmRxError } from '../errors';
import type { QueuedCall } from './deliveryQueue';
import type {
  DeliveryFailedReport,
  DeliveryTransport,
  TransportCall,
  DeliveryWarning,
  DeliveryWarningReport,
  EditedReport,
  FinishedReport,
  LedgerEntry,
  ResumedReport,
  RetryingReport,
  SentReport,
} from './types';

/** What to do after a call failed (pure: `deliver` applies it). */
export type FailureDecision =
  | { kind: 'not-modified' }
  | { kind: 'retry'; delayMs: number; reason: 'retry-after' | 'backoff'; counted: boolean }
  | { kind: 'give-up'; status?: number; permanent: boolean };

/**
 * Reads a failure the way DeliveryError describes it (any thrown value with these fields):
 * `notModified` on an edit or a finish is delivered; `permanent` gives up; `retryAfterMs` waits that long
 * without counting against `maxAttempts`; anything else backs off `backoffMs`, doubling, and
 * gives up at the `maxAttempts`-th counted failure.
 */
export function decideAfterFailure(
  thrown: unknown,
  call: QueuedCall,
  failuresBefore: number,
  { maxAttempts, backoffMs }: { maxAttempts: number; backoffMs: number },
): FailureDecision {
  const { retryAfterMs, notModified, permanent, status } = (thrown ?? {}) as Record<
    string,
    unknown
  >;
  if (notModified === true && call.op !== 'send') return { kind: 'not-modified' };
  const waitsRetryAfter =
    typeof retryAfterMs === 'number' && Number.isFinite(retryAfterMs) && retryAfterMs >= 0;
  const failures = failuresBefore + (waitsRetryAfter ? 0 : 1);
  if (permanent === true || failures >= maxAttempts) {
    const known = typeof status === 'number' ? status : undefined;
    return { kind: 'give-up', status: known, permanent: permanent === true };
  }
  return waitsRetryAfter
    ? { kind: 'retry', delayMs: retryAfterMs, reason: 'retry-after', counted: false }
    : { kind: 'retry', delayMs: backoffMs * 2 ** (failures - 1), reason: 'backoff', counted: true };
}

/**
 * Whether the platform may have acted on a failed call (`ambiguous`, else a 5xx `status`): a
 * retry of it may show twice.
 */
export function isAmbiguous(thrown: unknown): boolean {
  const { ambiguous, status } = (thrown ?? {}) as Record<string, unknown>;
  if (typeof ambiguous === 'boolean') return ambiguous;
  return typeof status === 'number' && status >= 500;
}

/** The `warning` report of a call that goes out again although it may have gone through. */
export function possibleDuplicateReport(call: QueuedCall, thrown: unknown): DeliveryWarningReport {
  return {
    type: 'warning',
    code: 'possible-duplicate',
    message: call.message,
    op: call.op,
    attempt: call.attempt,
    detail: `deliver: the ${call.op} of message ${call.message} may have gone through before it failed (${describeFailure(thrown)}); it is tried again, and the chat may show it twice.`,
  };
}

/** The `warning` report of a call the ledger did not record. */
export function ledgerWriteFailedReport(call: QueuedCall, thrown: unknown): DeliveryWarningReport {
  return {
    type: 'warning',
    code: 'ledger-write-failed',
    message: call.message,
    op: call.op,
    attempt: call.attempt,
    detail: `deliver: the ${call.op} of message ${call.message} went through, but the ledger did not record it (${describeFailure(thrown)}); a restart may repeat it.`,
  };
}

/** The `sent` / `edited` / `finished` report of a call that went through. */
export function deliveredReport(
  call: QueuedCall,
  warnings: DeliveryWarning[],
  notModified = false,
): SentReport | EditedReport | FinishedReport {
  const base = { message: call.message, text: call.edit.text, attempts: call.attempt };
  const extra = {
    ...(notModified ? { notModified: true as const } : {}),
    ...(warnings.length > 0 ? { warnings } : {}),
  };
  const type = ({ send: 'sent', edit: 'edited', finish: 'finished' } as const)[call.op];
  return { type, ...base, ...extra };
}

/** The `retrying` report of a failed call that will be tried again after `delayMs`. */
export function retryingReport(
  call: QueuedCall,
  decision: { delayMs: number; reason: 'retry-after' | 'backoff' },
  thrown: unknown,
): RetryingReport {
  return {
    type: 'retrying',
    message: call.message,
    op: call.op,
    attempt: call.attempt,
    delayMs: decision.delayMs,
    reason: decision.reason,
    error: { message: describeFailure(thrown) },
  };
}

/** The one `delivery-failed` report of a call given up on. */
export function failedReport(
  call: QueuedCall,
  why: string,
  status?: number,
  permanent = false,
): DeliveryFailedReport {
  const attempts = `${call.attempt} attempt${call.attempt === 1 ? '' : 's'}`;
  return {
    type: 'delivery-failed',
    message: call.message,
    op: call.op,
    text: call.edit.text,
    attempts: call.attempt,
    ...(permanent ? { permanent: true as const } : {}),
    error: {
      code: 'delivery-failed',
      message: `deliver: the ${call.op} of message ${call.message} failed after ${attempts}: ${why}`,
      ...(status === undefined ? {} : { status }),
    },
  };
}

/** Whether a transport's result can be awaited (a Promise, or any thenable). */
export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as PromiseLike<unknown>).then === 'function'
  );
}

/** `undefined`, `null`, `a string`, `an object`, … for a message about a wrong return value. */
export function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** A failure's message, cut short: a report never carries a whole payload. */
export function describeFailure(thrown: unknown): string {
  const text = errorMessage(thrown);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** The `resumed` report of a message an earlier run delivered. */
export function resumedReport({ message, text, finished }: LedgerEntry): ResumedReport {
  return { type: 'resumed', message, text, finished };
}

/** The error of a ledger that could not be read: nothing is sent, so nothing is sent twice. */
export function ledgerUnreadable(key: string, thrown: unknown): LlmRxError {
  return new LlmRxError(
    'delivery-failed',
    `deliver: the ledger could not be read for key "${key}" (${describeFailure(thrown)}); nothing was sent, so that nothing is sent twice.`,
  );
}

/** Runs `fn`, catching a synchronous throw (a ledger that throws instead of rejecting). */
export function attempt<T>(fn: () => T): { value: T } | { thrown: unknown } {
  try {
    return { value: fn() };
  } catch (thrown) {
    return { thrown };
  }
}

/**
 * Makes `call` on `transport`: its Promise, or why it is not one (a throw, or another value),
 * never an unhandled rejection.
 */
export function callTransport<Ref>(
  transport: DeliveryTransport<Ref>,
  call: QueuedCall,
  context: TransportCall,
): { promise: PromiseLike<unknown> } | { wrong: string } {
  let result: unknown;
  try {
    if (call.op === 'send') result = transport.send(call.edit, context);
    else if (call.op === 'edit') result = transport.edit(call.ref as Ref, call.edit, context);
    else result = transport.finish!(call.ref as Ref, call.edit, context);
  } catch (thrown) {
    return {
      wrong: `transport.${call.op} threw instead of returning a Promise (${describeFailure(thrown)})`,
    };
  }
  if (!isPromiseLike(result)) {
    return { wrong: `transport.${call.op} returned ${kindOf(result)}, not a Promise` };
  }
  return { promise: result };
}
