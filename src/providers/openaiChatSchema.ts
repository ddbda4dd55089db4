import { z } from 'zod';
import { isRetryableHttpStatus } from '../errors';
import type { FailedError, FinishReason, UsageEvent } from '../events';

// The parts of an OpenAI-compatible `chat.completion.chunk` the decoder reads, and nothing
// else: loose objects, so a server that adds fields never breaks decoding (the decoder reports
// unknown delta fields itself). `nullish` because servers send `null` for "absent" freely.

const text = z.string().nullish();
const count = z.number().nullish();

/** One entry of OpenRouter's `delta.reasoning_details[]`. */
export const ReasoningDetail = z.looseObject({
  type: z.string(),
  text,
  summary: text,
  data: text,
  signature: text,
  format: text,
  index: z.number().int().nullish(),
});
export type ReasoningDetail = z.infer<typeof ReasoningDetail>;

/** One entry of `delta.tool_calls[]`: a fragment of the call at `index`. */
export const ToolCallFragment = z.looseObject({
  index: z.number().int().nullish(),
  id: text,
  function: z.looseObject({ name: text, arguments: text }).nullish(),
});
export type ToolCallFragment = z.infer<typeof ToolCallFragment>;

/** `choices[].delta`: every field the decoder turns into events. */
export const ChunkDelta = z.looseObject({
  content: text,
  refusal: text,
  reasoning: text,
  reasoning_content: text,
  reasoning_text: text,
  reasoning_details: z.array(ReasoningDetail).nullish(),
  tool_calls: z.array(ToolCallFragment).nullish(),
});
export type ChunkDelta = z.infer<typeof ChunkDelta>;

/** Delta fields the decoder reads (the rest are reported once as `unknown-field`). */
export const DECODED_DELTA_FIELDS = new Set([
  'content',
  'refusal',
  'reasoning',
  'reasoning_content',
  'reasoning_text',
  'reasoning_details',
  'tool_calls',
]);

/**
 * Delta fields that carry nothing for the user and are ignored quietly: `role` (always
 * assistant), `obfuscation` (OpenAI's padding against length side channels), `provider` /
 * `native_finish_reason` / `system_fingerprint` when a proxy puts them on the delta.
 */
export const QUIET_DELTA_FIELDS = new Set([
  'role',
  'obfuscation',
  'system_fingerprint',
  'native_finish_reason',
  'provider',
]);

export const ChunkChoice = z.looseObject({
  index: z.number().int().nullish(),
  delta: ChunkDelta.nullish(),
  finish_reason: text,
});
export type ChunkChoice = z.infer<typeof ChunkChoice>;

export const ChunkUsage = z.looseObject({
  prompt_tokens: count,
  completion_tokens: count,
  total_tokens: count,
  cost: count,
  prompt_cache_hit_tokens: count,
  prompt_tokens_details: z.looseObject({ cached_tokens: count }).nullish(),
  completion_tokens_details: z.looseObject({ reasoning_tokens: count }).nullish(),
});
export type ChunkUsage = z.infer<typeof ChunkUsage>;

/** The error object OpenAI, OpenRouter and vLLM put inside a 200 stream. */
export const ChunkError = z.union([
  z.looseObject({
    code: z.union([z.string(), z.number()]).nullish(),
    message: text,
    type: text,
  }),
  z.string(),
]);
export type ChunkError = z.infer<typeof ChunkError>;

/** One `data:` payload of an OpenAI-compatible stream. */
export const Chunk = z.looseObject({
  id: text,
  model: text,
  // vLLM's own error shape is `{"object":"error","message":…,"code":…}`.
  object: text,
  choices: z.array(ChunkChoice).nullish(),
  usage: ChunkUsage.nullish(),
  error: ChunkError.nullish(),
});
export type Chunk = z.infer<typeof Chunk>;

/** The event for a wire `usage` object; absent and null counts are left out. */
export function usageEventOf(usage: ChunkUsage): UsageEvent {
  const event: UsageEvent = { type: 'usage' };
  if (usage.prompt_tokens != null) event.inputTokens = usage.prompt_tokens;
  if (usage.completion_tokens != null) event.outputTokens = usage.completion_tokens;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  if (reasoning != null) event.reasoningTokens = reasoning;
  // DeepSeek reports cache hits beside the OpenAI field; the OpenAI field wins when both exist.
  const cached = usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens;
  if (cached != null) event.cachedInputTokens = cached;
  if (usage.total_tokens != null) event.totalTokens = usage.total_tokens;
  if (usage.cost != null) event.cost = usage.cost;
  return event;
}

const FINISH_REASONS: Record<string, FinishReason> = {
  stop: 'stop',
  end_turn: 'stop',
  length: 'length',
  max_tokens: 'length',
  tool_calls: 'tool-calls',
  function_call: 'tool-calls',
  content_filter: 'content-filter',
  error: 'error',
};

/** Our finish reason for the wire's `finish_reason`; anything unlisted is `other`. */
export function finishReasonOf(raw: string): FinishReason {
  return FINISH_REASONS[raw] ?? 'other';
}

/**
 * The `failed` error for an error object found in a 200 stream. Retryable when the code is an
 * HTTP status worth retrying (408, 409, 429, 5xx) or a word for overload, rate limit, timeout
 * or a server fault; anything else (bad request, moderation, credits) is not.
 */
export function failedErrorOf(
  error: ChunkError | { code?: unknown; message?: unknown },
  provider: string,
): FailedError {
  const record = typeof error === 'string' ? { message: error } : error;
  const rawCode = record.code;
  const code =
    typeof rawCode === 'string' && rawCode !== ''
      ? rawCode
      : typeof rawCode === 'number'
        ? String(rawCode)
        : 'provider-error';
  const message =
    typeof record.message === 'string' && record.message !== ''
      ? record.message
      : 'The provider reported an error inside the stream.';
  return { code, message, provider, retryable: isRetryableCode(rawCode) };
}

function isRetryableCode(code: unknown): boolean {
  if (typeof code === 'number') return isRetryableHttpStatus(code);
  if (typeof code === 'string') {
    if (/^\d+$/.test(code)) return isRetryableCode(Number(code));
    return /rate|overload|timeout|timed_out|unavailable|server|internal|capacity|busy/i.test(code);
  }
  // No code at all: most often a dropped upstream connection, which a retry may fix.
  return true;
}

/** Delta fields the fast path reads, each a string or null. */
const PLAIN_DELTA_FIELDS = new Set([
  'role',
  'content',
  'refusal',
  'reasoning',
  'reasoning_content',
  'reasoning_text',
]);

/**
 * The hot path: most chunks are one choice whose delta holds only text or reasoning (plain
 * strings or `reasoning_details`), with no finish, usage or error. For those this checks, by hand, the type of every field the
 * decoder reads and returns the delta; for anything else it returns undefined and the caller
 * validates with the `Chunk` schema. Same result, without a schema walk per token.
 */
export function readPlainDelta(value: unknown): ChunkDelta | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const chunk = value as Record<string, unknown>;
  if (chunk.error != null || chunk.usage != null || chunk.object === 'error') return undefined;
  const choices = chunk.choices;
  if (!Array.isArray(choices) || choices.length !== 1) return undefined;
  const choice = choices[0] as Record<string, unknown> | null;
  if (typeof choice !== 'object' || choice === null || choice.finish_reason != null) {
    return undefined;
  }
  if (choice.index != null && choice.index !== 0) return undefined;
  const delta = choice.delta as Record<string, unknown> | null;
  if (typeof delta !== 'object' || delta === null || Array.isArray(delta)) return undefined;
  for (const field in delta) {
    const fieldValue = delta[field];
    if (field === 'reasoning_details') {
      if (!isPlainDetailList(fieldValue)) return undefined;
    } else if (!PLAIN_DELTA_FIELDS.has(field)) return undefined;
    else if (fieldValue !== null && typeof fieldValue !== 'string') return undefined;
  }
  return delta as ChunkDelta;
}

/** Fields of a `reasoning_details` entry the decoder reads, each a string, null or absent. */
const DETAIL_STRING_FIELDS = ['type', 'text', 'summary', 'data', 'signature', 'format'] as const;

/** The `ReasoningDetail` schema, checked by hand (OpenRouter sends one per reasoning token). */
function isPlainDetailList(value: unknown): boolean {
  if (value === null) return true;
  if (!Array.isArray(value)) return false;
  for (const entry of value as Array<Record<string, unknown> | null>) {
    if (typeof entry !== 'object' || entry === null || typeof entry.type !== 'string') return false;
    for (const field of DETAIL_STRING_FIELDS) {
      const fieldValue = entry[field];
      if (fieldValue != null && typeof fieldValue !== 'string') return false;
    }
    if (entry.index != null && !Number.isInteger(entry.index)) return false;
  }
  return true;
}
