import { z } from 'zod';
import type { FailedEvent, FinishReason, UsageEvent } from '../events';

// The Anthropic Messages stream events, as far as decodeAnthropic reads them. Loose on purpose:
// `caller`, `service_tier`, `iterations`, `stop_details`… pass unchecked.

/** `usage` on `message_start.message` and on `message_delta`. */
export const AnthropicUsage = z.looseObject({
  input_tokens: z.number().nullish(),
  output_tokens: z.number().nullish(),
  cache_read_input_tokens: z.number().nullish(),
});
export type AnthropicUsage = z.infer<typeof AnthropicUsage>;

/** `message_start`. */
export const MessageStartEvent = z.looseObject({
  message: z.looseObject({
    id: z.string().nullish(),
    model: z.string().nullish(),
    usage: AnthropicUsage.nullish(),
  }),
});

/** `content_block_start`: the block's type and whatever it already carries. */
export const BlockStartEvent = z.looseObject({
  index: z.number().int(),
  content_block: z.looseObject({
    type: z.string(),
    text: z.string().nullish(),
    thinking: z.string().nullish(),
    signature: z.string().nullish(),
    data: z.string().nullish(),
    id: z.string().nullish(),
    name: z.string().nullish(),
    input: z.unknown().optional(),
  }),
});
export type ContentBlock = z.infer<typeof BlockStartEvent>['content_block'];

/** `content_block_delta`. */
export const BlockDeltaEvent = z.looseObject({
  index: z.number().int(),
  delta: z.looseObject({
    type: z.string(),
    text: z.string().optional(),
    thinking: z.string().optional(),
    signature: z.string().optional(),
    partial_json: z.string().optional(),
  }),
});
export type BlockDelta = z.infer<typeof BlockDeltaEvent>['delta'];

/** `content_block_stop`. */
export const BlockStopEvent = z.looseObject({ index: z.number().int() });

/** `message_delta`: the stop reason and the final usage. */
export const MessageDeltaEvent = z.looseObject({
  delta: z.looseObject({ stop_reason: z.string().nullish() }).nullish(),
  usage: AnthropicUsage.nullish(),
});

/** `event: error` inside a 200 stream. */
export const AnthropicErrorEvent = z.looseObject({
  error: z.looseObject({ type: z.string().nullish(), message: z.string().nullish() }).nullish(),
});

/** Error types after which the same request may well succeed (Anthropic's own advice). */
const RETRYABLE_ERROR_TYPES = new Set(['overloaded_error', 'api_error']);

/** The `failed` terminal for an Anthropic error object; `code` is its `type`. */
export function anthropicFailed(
  type: string | null | undefined,
  message: string | null | undefined,
): FailedEvent {
  return {
    type: 'failed',
    error: {
      code: type ?? 'provider-error',
      message: message ?? 'The Anthropic stream reported an error without a message.',
      provider: 'anthropic',
      retryable: type != null && RETRYABLE_ERROR_TYPES.has(type),
    },
  };
}

const STOP_REASONS: Record<string, FinishReason> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool-calls',
  refusal: 'content-filter',
  pause_turn: 'other',
};

/** `stop_reason` as a finish reason; one it does not know is `other` (the raw value is kept). */
export function finishReasonOfStop(stopReason: string): FinishReason {
  return STOP_REASONS[stopReason] ?? 'other';
}

/**
 * Usage so far as a `usage` event: `inputTokens` is Anthropic's `input_tokens` (which leaves out
 * cache reads, reported as `cachedInputTokens`). Anthropic sends no total; none is made up.
 */
export function anthropicUsageEvent(usage: AnthropicUsage): UsageEvent | undefined {
  const event: UsageEvent = { type: 'usage' };
  if (usage.input_tokens != null) event.inputTokens = usage.input_tokens;
  if (usage.output_tokens != null) event.outputTokens = usage.output_tokens;
  if (usage.cache_read_input_tokens != null)
    event.cachedInputTokens = usage.cache_read_input_tokens;
  return Object.keys(event).length > 1 ? event : undefined;
}
