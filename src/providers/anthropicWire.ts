import * as z from 'zod/mini';
import type { FailedEvent, FinishReason, UsageEvent } from '../events';
import { AnthropicCitation } from './anthropicServerTools';

// The Anthropic Messages stream events, as far as decodeAnthropic reads them. Loose on purpose:
// `caller`, `service_tier`, `iterations`, `stop_details`… pass unchecked.

/** `usage` on `message_start.message` and on `message_delta`. */
export const AnthropicUsage = z.looseObject({
  input_tokens: z.nullish(z.number()),
  output_tokens: z.nullish(z.number()),
  cache_read_input_tokens: z.nullish(z.number()),
});
export type AnthropicUsage = z.infer<typeof AnthropicUsage>;

/** `message_start`. */
export const MessageStartEvent = z.looseObject({
  message: z.looseObject({
    id: z.nullish(z.string()),
    model: z.nullish(z.string()),
    usage: z.nullish(AnthropicUsage),
  }),
});

/** `content_block_start`: the block's type and whatever it already carries. */
export const BlockStartEvent = z.looseObject({
  index: z.int(),
  content_block: z.looseObject({
    type: z.string(),
    text: z.nullish(z.string()),
    thinking: z.nullish(z.string()),
    signature: z.nullish(z.string()),
    data: z.nullish(z.string()),
    id: z.nullish(z.string()),
    name: z.nullish(z.string()),
    input: z.optional(z.unknown()),
    // A server tool's result block: whose call it answers, what it returned.
    tool_use_id: z.nullish(z.string()),
    content: z.optional(z.unknown()),
    is_error: z.nullish(z.boolean()),
  }),
});
export type ContentBlock = z.infer<typeof BlockStartEvent>['content_block'];

/** `content_block_delta`. */
export const BlockDeltaEvent = z.looseObject({
  index: z.int(),
  delta: z.looseObject({
    type: z.string(),
    text: z.optional(z.string()),
    thinking: z.optional(z.string()),
    signature: z.optional(z.string()),
    partial_json: z.optional(z.string()),
    citation: z.nullish(AnthropicCitation),
  }),
});
export type BlockDelta = z.infer<typeof BlockDeltaEvent>['delta'];

/** `content_block_stop`. */
export const BlockStopEvent = z.looseObject({ index: z.int() });

/** `message_delta`: the stop reason and the final usage. */
export const MessageDeltaEvent = z.looseObject({
  delta: z.nullish(z.looseObject({ stop_reason: z.nullish(z.string()) })),
  usage: z.nullish(AnthropicUsage),
});

/** `event: error` inside a 200 stream. */
export const AnthropicErrorEvent = z.looseObject({
  error: z.nullish(z.looseObject({ type: z.nullish(z.string()), message: z.nullish(z.string()) })),
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
  return Object.hasOwn(STOP_REASONS, stopReason) ? STOP_REASONS[stopReason] : 'other';
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
