import { isLlmRxError } from '../errors';
import { failedEvent, type FailedEvent } from '../events';

/**
 * The `failed` terminal an error stands for on a relay: its LlmRxError code (`stream-error` for
 * any other error), message, retryability, and status / retryAfterMs when it has them.
 */
export function failedFromError(error: unknown): FailedEvent {
  const message = error instanceof Error ? error.message : String(error);
  if (!isLlmRxError(error)) return failedEvent('stream-error', message, true);
  const failed = failedEvent(error.code, message, error.retryable);
  if (error.status !== undefined) failed.error.status = error.status;
  if (error.provider !== undefined) failed.error.provider = error.provider;
  if (error.retryAfterMs !== undefined) failed.error.retryAfterMs = error.retryAfterMs;
  return failed;
}
