import * as z from 'zod/mini';
import { isRetryableHttpStatus } from '../errors';
import type { FailedError, FinishReason } from '../events';
import type { Emit, WarnOnce } from './decoder';
import { ExecutedTool, SearchResult } from './openaiChatExtras';

// The parts of an OpenAI-compatible `chat.completion.chunk` the decoder reads, and nothing
// else: loose objects, so a server that adds fields never breaks decoding (the decoder reports
// unknown delta fields itself). `nullish` because servers send `null` for "absent" freely.

const text = z.nullish(z.string());
const count = z.nullish(z.number());

/** One entry of OpenRouter's `delta.reasoning_details[]`. */
export const ReasoningDetail = z.looseObject({
  type: z.string(),
  text,
  summary: text,
  data: text,
  signature: text,
  format: text,
  index: z.nullish(z.int()),
});
export type ReasoningDetail = z.infer<typeof ReasoningDetail>;

/** One entry of `delta.tool_calls[]`: a fragment of the call at `index`. */
export const ToolCallFragment = z.looseObject({
  index: z.nullish(z.int()),
  id: text,
  function: z.nullish(z.looseObject({ name: text, arguments: text })),
  // Gemini's OpenAI-compatible endpoint: the call's thought signature.
  extra_content: z.nullish(
    z.looseObject({ google: z.nullish(z.looseObject({ thought_signature: text })) }),
  ),
});
export type ToolCallFragment = z.infer<typeof ToolCallFragment>;

/**
 * One entry of `delta.content` when it is an array of typed parts (Mistral's magistral
 * models): `{ type: "text", text }` or `{ type: "thinking", thinking: [{ type: "text", text }] }`.
 */
export const ContentPart = z.looseObject({
  type: text,
  text,
  thinking: z.nullish(z.union([z.string(), z.array(z.looseObject({ type: text, text }))])),
});
export type ContentPart = z.infer<typeof ContentPart>;

/** `choices[].delta`: every field the decoder turns into events. */
export const ChunkDelta = z.looseObject({
  content: z.nullish(z.union([z.string(), z.array(ContentPart)])),
  refusal: text,
  reasoning: text,
  reasoning_content: text,
  reasoning_text: text,
  reasoning_details: z.nullish(z.array(ReasoningDetail)),
  tool_calls: z.nullish(z.array(ToolCallFragment)),
  executed_tools: z.nullish(z.array(ExecutedTool)),
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
  'executed_tools',
]);

/**
 * Delta fields that carry nothing for the user and are ignored quietly: `role` (always
 * assistant), `obfuscation` (OpenAI's padding against length side channels), `provider` /
 * `native_finish_reason` / `system_fingerprint` when a proxy puts them on the delta, Groq's
 * `channel`.
 */
export const QUIET_DELTA_FIELDS = new Set([
  'role',
  'obfuscation',
  'system_fingerprint',
  'native_finish_reason',
  'provider',
  // Groq's label of gpt-oss output ("analysis", "final"); the text is in reasoning / content.
  'channel',
]);

export const ChunkUsage = z.looseObject({
  prompt_tokens: count,
  completion_tokens: count,
  total_tokens: count,
  cost: count,
  prompt_cache_hit_tokens: count,
  cached_tokens: count,
  // xAI: the cost in units of 1e-10 USD.
  cost_in_usd_ticks: count,
  prompt_tokens_details: z.nullish(z.looseObject({ cached_tokens: count })),
  completion_tokens_details: z.nullish(z.looseObject({ reasoning_tokens: count })),
});
export type ChunkUsage = z.infer<typeof ChunkUsage>;

/** Reports each delta field the decoder does not read, once per name per stream. */
export function reportUnknownDeltaFields(delta: ChunkDelta, emit: Emit, warnOnce: WarnOnce): void {
  for (const field in delta) {
    if (DECODED_DELTA_FIELDS.has(field) || QUIET_DELTA_FIELDS.has(field)) continue;
    // A null carries nothing, so nothing is lost by skipping it quietly.
    if (delta[field] == null) continue;
    warnOnce(
      emit,
      'unknown-field',
      `delta.${field}`,
      `The openai-chat decoder does not know the delta field "${field}"; it was ignored.`,
      { field: `delta.${field}` },
    );
  }
}

export const ChunkChoice = z.looseObject({
  index: z.nullish(z.int()),
  delta: z.nullish(ChunkDelta),
  finish_reason: text,
  // Moonshot and others put the usage on the finishing choice, not on the chunk.
  usage: z.nullish(ChunkUsage),
});
export type ChunkChoice = z.infer<typeof ChunkChoice>;

/** The error object OpenAI, OpenRouter and vLLM put inside a 200 stream. */
export const ChunkError = z.union([
  z.looseObject({
    code: z.nullish(z.union([z.string(), z.number()])),
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
  choices: z.nullish(z.array(ChunkChoice)),
  usage: z.nullish(ChunkUsage),
  // Groq reports usage in `x_groq.usage` of the final chunk.
  x_groq: z.nullish(z.looseObject({ usage: z.nullish(ChunkUsage) })),
  error: z.nullish(ChunkError),
  // Perplexity: the URLs the answer cites, resent whole on every chunk, and their titles.
  citations: z.nullish(z.array(z.string())),
  search_results: z.nullish(z.array(SearchResult)),
});
export type Chunk = z.infer<typeof Chunk>;

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
  return Object.hasOwn(FINISH_REASONS, raw) ? FINISH_REASONS[raw] : 'other';
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
  if (chunk.x_groq != null || chunk.citations != null || chunk.search_results != null)
    return undefined;
  const choices = chunk.choices;
  if (!Array.isArray(choices) || choices.length !== 1) return undefined;
  const choice = choices[0] as Record<string, unknown> | null;
  if (typeof choice !== 'object' || choice === null || choice.finish_reason != null) {
    return undefined;
  }
  if (choice.usage != null) return undefined;
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
