import { LlmRxError } from '../errors';

/** What a transport knows about a failed call (all optional). */
export interface DeliveryErrorContext {
  /** The platform asked to wait this long (Telegram `retry_after`, Slack `Retry-After`). */
  retryAfterMs?: number;
  /** The edit changed nothing (Telegram "message is not modified"): counts as delivered. */
  notModified?: boolean;
  /** Retrying cannot help (bad token, unknown chat, message too long). */
  permanent?: boolean;
  /** The HTTP status, when there was an answer. */
  status?: number;
  /**
   * The platform may have acted on the call although it failed (a timeout or a reset after the
   * request was written, a 5xx): a retry may repeat it. @defaultValue true for a 5xx status
   */
  ambiguous?: boolean;
}

/**
 * What a transport throws (or rejects with) when a call fails. `deliver` reads these fields:
 * `retryAfterMs` pauses every call that long, `notModified` counts as delivered, `permanent`
 * gives up at once; anything else is retried with backoff, and `ambiguous` (or a `status` of
 * 500 or more) adds a `possible-duplicate` warning report to the retry. Any thrown value
 * carrying these fields is read the same way; this class only names them.
 *
 * Its `code` is `delivery-failed`; `retryable` is `!permanent`.
 *
 * @example
 * ```ts
 * throw new DeliveryError('Too Many Requests: retry after 3', { retryAfterMs: 3000, status: 429 });
 * ```
 * @param message - what went wrong, for a person (never a token or a whole payload)
 * @param context - {@link DeliveryErrorContext}
 */
export class DeliveryError extends LlmRxError {
  readonly notModified: boolean;
  readonly permanent: boolean;
  readonly ambiguous: boolean;

  constructor(message: string, context: DeliveryErrorContext = {}) {
    super('delivery-failed', message, {
      status: context.status,
      retryAfterMs: context.retryAfterMs,
      retryable: !context.permanent,
    });
    this.notModified = context.notModified ?? false;
    this.permanent = context.permanent ?? false;
    this.ambiguous = context.ambiguous ?? (context.status !== undefined && context.status >= 500);
  }
}
