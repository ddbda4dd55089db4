// What every stage needs to know about terminal events: which events are terminal, the terminal
// a `finish` earns, and the shapes shared by the decoders and ensureTerminal. The schemas and
// types are in events.ts; this module imports only their types, so the two form no circle.

import type {
  CompletedEvent,
  FailedError,
  FailedEvent,
  FinishEvent,
  StreamEvent,
  TerminalEvent,
  Usage,
  UsageEvent,
} from './events';
import { errorMessage, isLlmRxError } from './errors';

/** True for `completed`, `incomplete` and `failed`: the last event of every stream. */
export function isTerminal(event: StreamEvent): event is TerminalEvent {
  return event.type === 'completed' || event.type === 'incomplete' || event.type === 'failed';
}

/**
 * The terminal a stream earns when it ends after `finish`: `stop`, `tool-calls` and `other` are
 * `completed`; `length` and `content-filter` are `incomplete`; `error` is `failed`.
 * Shared by the decoders (explicit wire end) and ensureTerminal (end of the source).
 */
export function terminalForFinish(finish: FinishEvent, usage?: UsageEvent): TerminalEvent {
  switch (finish.reason) {
    case 'length':
      return {
        type: 'incomplete',
        reason: 'length',
        message: 'The model stopped at its output token limit.',
      };
    case 'content-filter':
      return {
        type: 'incomplete',
        reason: 'content-filter',
        message: 'The provider stopped the response with its content filter.',
      };
    case 'error':
      return {
        type: 'failed',
        error: {
          code: 'provider-error',
          message: `The provider ended the response with finish reason "${finish.raw ?? 'error'}".`,
          retryable: true,
        },
      };
    default: {
      const completed: CompletedEvent = { type: 'completed', finishReason: finish.reason };
      if (usage) completed.usage = usageFields(usage);
      return completed;
    }
  }
}

/**
 * A `failed` terminal with llm-rx's own code; `details` adds `status`, `provider` and
 * `retryAfterMs` when known (left out when undefined, so events compare equal).
 */
export function failedEvent(
  code: string,
  message: string,
  retryable: boolean,
  details: Pick<FailedError, 'status' | 'provider' | 'retryAfterMs'> = {},
): FailedEvent {
  const error: FailedError = { code, message, retryable };
  if (details.provider !== undefined) error.provider = details.provider;
  if (details.status !== undefined) error.status = details.status;
  if (details.retryAfterMs !== undefined) error.retryAfterMs = details.retryAfterMs;
  return { type: 'failed', error };
}

/**
 * The `failed` terminal an error stands for: its LlmRxError code (`stream-error`, retryable, for
 * any other error), message, retryability, and status / provider / retryAfterMs when it has them.
 */
export function failedFromError(error: unknown): FailedEvent {
  const message = errorMessage(error);
  return isLlmRxError(error)
    ? failedEvent(error.code, message, error.retryable, error)
    : failedEvent('stream-error', message, true);
}

/** The fields of a `usage` event without its tag. */
export function usageFields(usage: UsageEvent): Usage {
  const { type: _type, ...fields } = usage;
  return fields;
}
