import { ProviderId } from '../events';
import type { SseMessage } from '../source/fromSse';
import { COHERE_EVENT_TYPES } from './cohereWire';
import { isLlmRxMessage } from './llmRx';
import { isRecord } from './wireSchema';

/** Provider ids `streamEvents` accepts: the wire formats, plus `openrouter` for `openai-chat`. */
export type ProviderName = ProviderId | 'openrouter';

/** Every {@link ProviderName}, from the one list of wire formats; `openrouter` beside its wire. */
export const PROVIDER_NAMES: readonly ProviderName[] = ProviderId.options.flatMap(
  (id): ProviderName[] => (id === 'openai-chat' ? [id, 'openrouter'] : [id]),
);

/** The wire format a provider name stands for. */
export function wireFormatOf(provider: ProviderName): ProviderId {
  return provider === 'openrouter' ? 'openai-chat' : provider;
}

/** True when a Content-Type names the AWS event stream framing (Bedrock ConverseStream). */
export function isEventStreamContentType(contentType: string | null | undefined): boolean {
  return /^application\/vnd\.amazon\.eventstream\b/i.test(contentType?.trim() ?? '');
}

/** True when a Content-Type names newline-delimited JSON (Ollama's native API). */
export function isNdjsonContentType(contentType: string | null | undefined): boolean {
  return /^application\/(x-)?ndjson\b/i.test(contentType?.trim() ?? '');
}

/**
 * Tells the wire format from one SSE message, or `undefined` when this message does not say.
 * The event name decides first (`message_start`, `content_block_*` → anthropic; `response.*`
 * → openai-responses; Cohere's `message-start`, `content-delta`, `tool-plan-delta`, … →
 * cohere), then the data's shape: a valid StreamEvent → llm-rx; a `type`
 * of the same names, `object: "chat.completion.chunk"`, `choices`, a bare `{ error }`, or
 * `[DONE]` → openai-chat; `candidates`, `usageMetadata` or `promptFeedback` (Gemini's
 * `GenerateContentResponse`), or Google's `{ error: { code, status } }` → gemini.
 */
export function detectWireFormat(message: SseMessage): ProviderId | undefined {
  const byName = formatOfEventType(message.event);
  if (byName) return byName;
  if (message.data === '[DONE]') return 'openai-chat';
  if (isLlmRxMessage(message)) return 'llm-rx';
  let data: unknown;
  try {
    data = JSON.parse(message.data);
  } catch {
    return undefined;
  }
  if (typeof data !== 'object' || data === null) return undefined;
  const record = data as Record<string, unknown>;
  if (typeof record.type === 'string') {
    // Both Anthropic and Responses send `type: "error"`; Anthropic nests a typed error object.
    if (record.type === 'error') {
      const inner = record.error as Record<string, unknown> | undefined;
      return typeof inner?.type === 'string' && !('sequence_number' in record)
        ? 'anthropic'
        : 'openai-responses';
    }
    const byType = formatOfEventType(record.type);
    if (byType) return byType;
  }
  if (record.object === 'chat.completion.chunk' || Array.isArray(record.choices)) {
    return 'openai-chat';
  }
  if (isGeminiPayload(record)) return 'gemini';
  if ('error' in record) return 'openai-chat';
  return undefined;
}

const ANTHROPIC_EVENT_TYPES = new Set([
  'message_start',
  'message_delta',
  'message_stop',
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
]);

function formatOfEventType(type: string | undefined): ProviderId | undefined {
  if (type === undefined) return undefined;
  if (ANTHROPIC_EVENT_TYPES.has(type)) return 'anthropic';
  if (type.startsWith('response.')) return 'openai-responses';
  if (type !== 'debug' && COHERE_EVENT_TYPES.has(type)) return 'cohere';
  return undefined;
}

/**
 * Gemini's chunks have no `type` or `object`: `candidates`, `usageMetadata` or `promptFeedback`
 * tell them. Its error object is Google's: a numeric `code` and an RPC `status` name.
 */
function isGeminiPayload(record: Record<string, unknown>): boolean {
  if (Array.isArray(record.candidates)) return true;
  if (isRecord(record.usageMetadata) || isRecord(record.promptFeedback)) return true;
  const error = record.error;
  return isRecord(error) && typeof error.code === 'number' && typeof error.status === 'string';
}
