import { z } from 'zod';
import type { FailedEvent, FinishReason, UsageEvent } from '../events';

// The OpenAI Responses stream events, as far as decodeOpenAIResponses reads them. Loose on
// purpose: every other field (obfuscation, logprobs, annotations…) passes unchecked.

/** `usage` of a finished response. */
export const ResponsesUsage = z.looseObject({
  input_tokens: z.number().nullish(),
  output_tokens: z.number().nullish(),
  total_tokens: z.number().nullish(),
  input_tokens_details: z.looseObject({ cached_tokens: z.number().nullish() }).nullish(),
  output_tokens_details: z.looseObject({ reasoning_tokens: z.number().nullish() }).nullish(),
});
export type ResponsesUsage = z.infer<typeof ResponsesUsage>;

/** The error object of `response.failed` and of the `error` event's nested form. */
const ResponsesErrorObject = z.looseObject({
  code: z.string().nullish(),
  type: z.string().nullish(),
  message: z.string().nullish(),
});

/** `response.created` / `in_progress` / `completed` / `incomplete` / `failed`. */
export const ResponseLifecycleEvent = z.looseObject({
  response: z.looseObject({
    id: z.string().nullish(),
    model: z.string().nullish(),
    usage: ResponsesUsage.nullish(),
    error: ResponsesErrorObject.nullish(),
    incomplete_details: z.looseObject({ reason: z.string().nullish() }).nullish(),
  }),
});

/** `error`: nested `{ error: { code, message } }` or flat `{ code, message }`. */
export const ResponsesErrorEvent = ResponsesErrorObject.extend({
  error: ResponsesErrorObject.nullish(),
});

/** `output_item.added` / `output_item.done`. */
export const OutputItemEvent = z.looseObject({
  output_index: z.number().optional(),
  item: z.looseObject({
    type: z.string(),
    id: z.string().optional(),
    call_id: z.string().optional(),
    name: z.string().optional(),
    arguments: z.string().optional(),
    encrypted_content: z.string().nullish(),
  }),
});
export type OutputItem = z.infer<typeof OutputItemEvent>['item'];

/**
 * `output_text.delta`, `refusal.delta`, `reasoning_text.delta`,
 * `function_call_arguments.delta`.
 */
export const ContentDeltaEvent = z.looseObject({
  item_id: z.string(),
  content_index: z.number().optional(),
  delta: z.string(),
});

/** `output_text.done`, `reasoning_text.done`. */
export const ContentDoneEvent = z.looseObject({
  item_id: z.string(),
  content_index: z.number().optional(),
  text: z.string(),
});

/** `refusal.done`: the full refusal text. */
export const RefusalDoneEvent = z.looseObject({
  item_id: z.string(),
  content_index: z.number().optional(),
  refusal: z.string(),
});

/** `reasoning_summary_text.delta`. */
export const SummaryDeltaEvent = z.looseObject({
  item_id: z.string(),
  summary_index: z.number(),
  delta: z.string(),
});

/** `reasoning_summary_text.done`. */
export const SummaryDoneEvent = z.looseObject({
  item_id: z.string(),
  summary_index: z.number(),
  text: z.string(),
});

/** `function_call_arguments.done`. */
export const ArgumentsDoneEvent = z.looseObject({ item_id: z.string(), arguments: z.string() });

/** Error codes after which the same request may well succeed. */
const RETRYABLE_CODES = new Set(['server_error', 'rate_limit_exceeded']);

/** The `failed` terminal for a Responses error object (`response.failed` or `error`). */
export function responsesFailed(
  code: string | null | undefined,
  message: string | null | undefined,
): FailedEvent {
  return {
    type: 'failed',
    error: {
      code: code ?? 'provider-error',
      message: message ?? 'The OpenAI Responses stream reported an error without a message.',
      provider: 'openai-responses',
      retryable: code != null && RETRYABLE_CODES.has(code),
    },
  };
}

/** `incomplete_details.reason` as a finish reason; anything else is `other` (raw kept). */
export function incompleteFinishReason(raw: string): FinishReason {
  if (raw === 'max_output_tokens') return 'length';
  if (raw === 'content_filter') return 'content-filter';
  return 'other';
}

/** Responses `usage` as a `usage` event, or undefined when it holds no count. */
export function responsesUsageEvent(
  usage: ResponsesUsage | null | undefined,
): UsageEvent | undefined {
  if (!usage) return undefined;
  const event: UsageEvent = { type: 'usage' };
  if (usage.input_tokens != null) event.inputTokens = usage.input_tokens;
  if (usage.output_tokens != null) event.outputTokens = usage.output_tokens;
  const reasoning = usage.output_tokens_details?.reasoning_tokens;
  if (reasoning != null) event.reasoningTokens = reasoning;
  const cached = usage.input_tokens_details?.cached_tokens;
  if (cached != null) event.cachedInputTokens = cached;
  if (usage.total_tokens != null) event.totalTokens = usage.total_tokens;
  return Object.keys(event).length > 1 ? event : undefined;
}
