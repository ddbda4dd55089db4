import { errorMessage, isLlmRxError, LlmRxError } from '../errors';

// The errors of the Redis integration, in one place.

/** `error` as a retryable `log-unavailable`, naming what failed (an LlmRxError passes as is). */
export function logUnavailable(what: string, error: unknown): LlmRxError {
  if (isLlmRxError(error)) return error;
  return new LlmRxError(
    'log-unavailable',
    `redisEventLog: ${what} failed (${errorMessage(error)}); check that Redis is reachable, then retry`,
    { retryable: true, cause: error },
  );
}
