import { type CompletedEvent, type UsageEvent } from '../events';
import { usageFields } from '../terminalEvents';
import type { Chunk, ChunkUsage } from './openaiChatSchema';

// Where an OpenAI-compatible stream reports usage, and how it becomes one `usage` event.

/**
 * The usage a chunk reports, wherever the server put it: on the chunk (OpenAI, OpenRouter),
 * in `x_groq.usage` (Groq's final chunk) or on the finishing choice (Moonshot and others),
 * in that order, one per chunk. Undefined when the chunk has none, or when it repeats `last`
 * unchanged, so the same numbers are reported once.
 */
export function usageOfChunk(chunk: Chunk, last: UsageEvent | undefined): UsageEvent | undefined {
  const firstChoice = chunk.choices?.find((choice) => (choice.index ?? 0) === 0);
  const wireUsage = chunk.usage ?? chunk.x_groq?.usage ?? firstChoice?.usage;
  if (!wireUsage) return undefined;
  const usage = usageEventOf(wireUsage);
  return last && sameUsage(last, usage) ? undefined : usage;
}

/** The event for a wire `usage` object; absent and null counts are left out. */
export function usageEventOf(usage: ChunkUsage): UsageEvent {
  const event: UsageEvent = { type: 'usage' };
  if (usage.prompt_tokens != null) event.inputTokens = usage.prompt_tokens;
  if (usage.completion_tokens != null) event.outputTokens = usage.completion_tokens;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  if (reasoning != null) event.reasoningTokens = reasoning;
  // DeepSeek (`prompt_cache_hit_tokens`) and Moonshot (`cached_tokens`) report cache hits
  // beside the OpenAI field; the OpenAI field wins when more than one exists.
  const cached =
    usage.prompt_tokens_details?.cached_tokens ??
    usage.prompt_cache_hit_tokens ??
    usage.cached_tokens;
  if (cached != null) event.cachedInputTokens = cached;
  if (usage.total_tokens != null) event.totalTokens = usage.total_tokens;
  if (usage.cost != null) event.cost = usage.cost;
  else if (usage.cost_in_usd_ticks != null) event.cost = usage.cost_in_usd_ticks / 1e10;
  return event;
}

/** True when two usage events hold the same counts. */
function sameUsage(a: UsageEvent, b: UsageEvent): boolean {
  const keys = Object.keys(a) as Array<keyof UsageEvent>;
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/** `[DONE]` with no finish reason before it: the server said it is done, so it is `completed`. */
export function completedWithoutFinish(usage: UsageEvent | undefined): CompletedEvent {
  const completed: CompletedEvent = { type: 'completed' };
  if (usage) completed.usage = usageFields(usage);
  return completed;
}
