import * as z from 'zod/mini';
import type { FailedEvent, FinishReason, UsageEvent } from '../events';
import type { Emit } from './decoder';
import { SERVER_TOOL_PROGRESS } from './openaiResponsesServerTools';

// The OpenAI Responses stream events, as far as decodeOpenAIResponses reads them. Loose on
// purpose: every other field (obfuscation, logprobs, annotations…) passes unchecked.

/** `usage` of a finished response. */
export const ResponsesUsage = z.looseObject({
  input_tokens: z.nullish(z.number()),
  output_tokens: z.nullish(z.number()),
  total_tokens: z.nullish(z.number()),
  input_tokens_details: z.nullish(z.looseObject({ cached_tokens: z.nullish(z.number()) })),
  output_tokens_details: z.nullish(z.looseObject({ reasoning_tokens: z.nullish(z.number()) })),
});
export type ResponsesUsage = z.infer<typeof ResponsesUsage>;

/** The error object of `response.failed` and of the `error` event's nested form. */
const ResponsesErrorObject = z.looseObject({
  code: z.nullish(z.string()),
  type: z.nullish(z.string()),
  message: z.nullish(z.string()),
});

/** `response.created` / `in_progress` / `completed` / `incomplete` / `failed`. */
export const ResponseLifecycleEvent = z.looseObject({
  response: z.looseObject({
    id: z.nullish(z.string()),
    model: z.nullish(z.string()),
    usage: z.nullish(ResponsesUsage),
    error: z.nullish(ResponsesErrorObject),
    incomplete_details: z.nullish(z.looseObject({ reason: z.nullish(z.string()) })),
  }),
});

/** `error`: nested `{ error: { code, message } }` or flat `{ code, message }`. */
export const ResponsesErrorEvent = z.extend(ResponsesErrorObject, {
  error: z.nullish(ResponsesErrorObject),
});

/** `output_item.added` / `output_item.done`. */
export const OutputItemEvent = z.looseObject({
  output_index: z.optional(z.number()),
  item: z.looseObject({
    type: z.string(),
    id: z.optional(z.string()),
    call_id: z.optional(z.string()),
    name: z.optional(z.string()),
    arguments: z.optional(z.string()),
    encrypted_content: z.nullish(z.string()),
    /** A custom tool call's free-text input. */
    input: z.nullish(z.string()),
    /** An apply-patch call's operation (`create_file` / `update_file` / `delete_file`). */
    operation: z.optional(z.unknown()),
  }),
});
export type OutputItem = z.infer<typeof OutputItemEvent>['item'];

/**
 * `output_text.delta`, `refusal.delta`, `reasoning_text.delta`,
 * `function_call_arguments.delta`.
 */
export const ContentDeltaEvent = z.looseObject({
  item_id: z.string(),
  content_index: z.optional(z.number()),
  delta: z.string(),
});

/** `output_text.done`, `reasoning_text.done`. */
export const ContentDoneEvent = z.looseObject({
  item_id: z.string(),
  content_index: z.optional(z.number()),
  text: z.string(),
});

/** `refusal.done`: the full refusal text. */
export const RefusalDoneEvent = z.looseObject({
  item_id: z.string(),
  content_index: z.optional(z.number()),
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

/** `custom_tool_call_input.done`: a custom tool's whole free-text input. */
export const CustomInputDoneEvent = z.looseObject({ item_id: z.string(), input: z.string() });

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

/** Events the decoder knows and needs nothing from: the text they carry also comes in deltas. */
export const NOTHING_TO_READ = new Set([
  ...SERVER_TOOL_PROGRESS,
  'response.content_part.added',
  'response.content_part.done',
  'response.reasoning_summary_part.added',
  'response.reasoning_summary_part.done',
]);

/** Watches `sequence_number`: one that skips ahead → `warning` `sequence-gap`. */
export function createSequenceCheck(): (emit: Emit, sequence: unknown) => void {
  let nextSequence: number | undefined;
  return (emit, sequence) => {
    if (typeof sequence !== 'number') return;
    if (nextSequence !== undefined && sequence > nextSequence) {
      emit({
        type: 'warning',
        code: 'sequence-gap',
        message: `OpenAI Responses skipped from sequence number ${nextSequence} to ${sequence}; events may be missing.`,
        detail: { expected: nextSequence, received: sequence },
      });
    }
    nextSequence = sequence + 1;
  };
}
