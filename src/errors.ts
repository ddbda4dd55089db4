/**
 * Every error code llm-rx raises itself, in one place. A `failed` terminal carries one of these,
 * or the provider's own code when the provider sent an error object.
 *
 * - `max-buffer-size-exceeded`: an SSE line or event grew past `maxBufferSize` without ending.
 * - `malformed-event`: a data payload (SSE `data:` or an NDJSON line) is not valid JSON.
 * - `stream-closed`: the body ended before the provider sent a terminal event or a finish reason
 *   (an empty body too, whether or not `provider` was given; retryable).
 * - `stream-error`: reading the body failed (connection reset, the body stream errored).
 * - `http-error`: the response status was not 2xx.
 * - `unexpected-body`: a 2xx answer that is not a stream of events (an HTML page, a plain-text
 *   message, NDJSON whose first line is not JSON).
 * - `provider-error`: the provider reported an error inside the stream without a code of its own.
 * - `unknown-provider`: the wire format could not be detected and no `provider` was given.
 * - `stalled`: no event arrived for `idleTimeoutMs`.
 * - `deadline`: the stream ran past `deadlineMs`, or the request's `AbortSignal.timeout()` fired
 *   (retryable).
 * - `aborted`: the caller's AbortSignal fired, or the request's own fetch signal aborted the
 *   body read (whatever its reason); ends as `incomplete`, reason `aborted`.
 * - `body-used`: the body was already read (a second subscribe to the same Response): a body
 *   can be read once; share the Observable instead (not retryable).
 * - `invalid-options`: an operator or function was given options it cannot use.
 * - `incomplete-turn`: a turn carried nothing a user could receive (see `assertTurn`).
 * - `stream-exists`: an event log already holds a stream under that id (recordTo).
 * - `unknown-stream`: an event log holds no stream under that id (`log.read`).
 * - `stream-not-found`: no stream appeared under that id within followLog's `startTimeoutMs`.
 * - `invalid-last-event-id`: a resume position (`Last-Event-ID`) that is not a whole number
 *   within the stream.
 * - `producer-lost`: the process recording a stream stopped refreshing its liveness key
 *   (redisEventLog); the events appended before it are delivered first.
 * - `log-unavailable`: the event log's backend (Redis) could not be reached or was lost.
 * - `delivery-failed`: a chat transport call failed for good (deliver).
 */
export type ErrorCode =
  | 'max-buffer-size-exceeded'
  | 'malformed-event'
  | 'stream-closed'
  | 'stream-error'
  | 'http-error'
  | 'unexpected-body'
  | 'provider-error'
  | 'unknown-provider'
  | 'stalled'
  | 'deadline'
  | 'aborted'
  | 'body-used'
  | 'invalid-options'
  | 'incomplete-turn'
  | 'stream-exists'
  | 'unknown-stream'
  | 'stream-not-found'
  | 'invalid-last-event-id'
  | 'producer-lost'
  | 'log-unavailable'
  | 'delivery-failed';

/**
 * Every `warning.code`, in one place. A warning means something was skipped or repaired;
 * the stream goes on.
 *
 * - `unknown-field`: a wire field the decoder does not know (once per field name per stream).
 * - `unknown-event`: a wire event or block type the decoder does not handle (once per type).
 * - `truncated-event`: the body ended inside an event whose data was not complete JSON; dropped.
 * - `duplicate-event`: the wire repeated an event that may occur once (e.g. `message_start`).
 * - `sequence-gap`: a `sequence_number` was skipped (OpenAI Responses).
 * - `text-end-divergent`: a resent full text did not match what was streamed (monotonicText).
 * - `handler-error`: an event handler threw or rejected (handleEvents).
 * - `detached-timeout`: detached handlers did not settle within `settleTimeoutMs`.
 * - `retry`: a failed attempt is being retried (retryStream).
 * - `invalid-event`: an event from a foreign source did not match the StreamEvent schema.
 * - `plain-text-fallback`: a chat app rejected the formatting (entities, HTML); the message went
 *   out as plain text instead (a note on a `deliver` report).
 * - `possible-duplicate`: a chat call whose outcome is unknown (timeout, reset, 5xx) is retried;
 *   the platform may have acted on the first try (a `deliver` warning report).
 * - `ledger-write-failed`: a chat call went through but the delivery ledger did not record it
 *   (a `deliver` warning report).
 * - `slack-stream-rotated`: a Slack stream reached `maxStreamMs`, 12,000 characters or
 *   `maxStreamBytes`; it was stopped and the text goes on in a new streamed message.
 * - `slack-stream-expired`: Slack closed a stream (`message_not_in_streaming_state`); the text it
 *   had not confirmed goes on in a new message.
 * - `slack-stream-too-long`: Slack refused more text in a stream (`msg_too_long`); the text goes on
 *   in a new message and the transport's streams hold less from then on.
 * - `slack-posted-split`: a posted Slack text over 40,000 characters went out as several messages.
 * - `tool-input-invalid`: a tool call's streamed input stopped being JSON; no more partial
 *   views of it (partialToolInput). Its `tool-call` still says why.
 */
export type WarningCode =
  | 'unknown-field'
  | 'unknown-event'
  | 'truncated-event'
  | 'duplicate-event'
  | 'sequence-gap'
  | 'text-end-divergent'
  | 'handler-error'
  | 'detached-timeout'
  | 'retry'
  | 'invalid-event'
  | 'plain-text-fallback'
  | 'possible-duplicate'
  | 'ledger-write-failed'
  | 'slack-stream-rotated'
  | 'slack-stream-expired'
  | 'slack-stream-too-long'
  | 'slack-posted-split'
  | 'tool-input-invalid';

/** Context an LlmRxError may carry besides its code and message. */
export interface LlmRxErrorContext {
  /** HTTP status, for `http-error`. */
  status?: number;
  /** Provider id, when the error is tied to one wire format. */
  provider?: string;
  /** Whether trying the same request again may succeed. */
  retryable?: boolean;
  /** How long to wait before trying again, from `Retry-After` or the provider's own field. */
  retryAfterMs?: number;
  /** 1-based line number in the input, for `malformed-event` on NDJSON. */
  line?: number;
  /** The underlying error, when one was caught. */
  cause?: unknown;
}

/** The one error class of llm-rx: a `code` from `ErrorCode`, a message a person can act on. */
export class LlmRxError extends Error {
  override readonly name = 'LlmRxError';
  readonly code: ErrorCode;
  readonly status?: number;
  readonly provider?: string;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  readonly line?: number;

  constructor(code: ErrorCode, message: string, context: LlmRxErrorContext = {}) {
    super(message, context.cause === undefined ? undefined : { cause: context.cause });
    this.code = code;
    this.status = context.status;
    this.provider = context.provider;
    this.retryable = context.retryable ?? false;
    this.retryAfterMs = context.retryAfterMs;
    this.line = context.line;
  }
}

/** True for HTTP statuses where the same request may succeed later: 408, 409, 429 and 5xx. */
export function isRetryableHttpStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** True when `error` is an LlmRxError (also across bundle copies, by name and code). */
export function isLlmRxError(error: unknown): error is LlmRxError {
  return (
    error instanceof LlmRxError ||
    (error instanceof Error &&
      error.name === 'LlmRxError' &&
      typeof (error as LlmRxError).code === 'string')
  );
}

/**
 * The text of a thrown value as a person reads it: its own `message` (no `Error: ` prefix, also
 * for an error from another realm, where `instanceof Error` is false), a string as it is, any
 * other value as `String(value)`.
 */
export function errorMessage(thrown: unknown): string {
  const message =
    typeof thrown === 'string' ? thrown : (thrown as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(thrown);
}

/**
 * The error for an aborted signal, from its `reason`: `deadline` (retryable) when it is
 * `AbortSignal.timeout()`'s TimeoutError, else `aborted` (whatever reason the caller gave).
 */
export function abortError(reason: unknown): LlmRxError {
  return (reason as { name?: unknown } | null)?.name === 'TimeoutError'
    ? new LlmRxError('deadline', "The request's AbortSignal.timeout() fired.", { retryable: true })
    : new LlmRxError('aborted', 'The caller aborted the stream.');
}
