import * as z from 'zod/mini';
import { LlmRxError } from '../errors';
import type { FailedEvent, FinishReason, UsageEvent } from '../events';
import { failedEvent } from '../terminalEvents';
import type { EventStreamMessage } from '../source/fromEventStream';
import { parseJsonPayload } from './decoder';
import { isRecord } from './wireSchema';

// The parts of Bedrock's ConverseStream events decodeBedrock reads, and how an event stream
// message becomes one of them. Loose objects: fields Bedrock adds pass through.

const text = z.nullish(z.string());
const count = z.nullish(z.number());
const blockIndex = z.int();

export const BlockStart = z.looseObject({
  contentBlockIndex: blockIndex,
  start: z.nullish(
    z.looseObject({
      toolUse: z.nullish(z.looseObject({ toolUseId: z.string(), name: z.string() })),
    }),
  ),
});

export const BlockDelta = z.looseObject({
  contentBlockIndex: blockIndex,
  delta: z.looseObject({
    text,
    // `redactedContent` is base64 text on the wire and a Uint8Array from the AWS SDK.
    reasoningContent: z.nullish(
      z.looseObject({
        text,
        signature: text,
        redactedContent: z.nullish(z.union([z.string(), z.instanceof(Uint8Array)])),
      }),
    ),
    toolUse: z.nullish(z.looseObject({ input: text })),
  }),
});
export type BlockDelta = z.infer<typeof BlockDelta>;

export const BlockStop = z.looseObject({ contentBlockIndex: blockIndex });

export const MessageStop = z.looseObject({ stopReason: z.string() });

export const Metadata = z.looseObject({
  usage: z.nullish(
    z.looseObject({
      inputTokens: count,
      outputTokens: count,
      totalTokens: count,
      cacheReadInputTokens: count,
    }),
  ),
});
export type Metadata = z.infer<typeof Metadata>;

/** Redacted reasoning as the wire sends it: base64 (bytes from the AWS SDK are encoded). */
export function base64Of(content: string | Uint8Array): string {
  if (typeof content === 'string') return content;
  let binary = '';
  for (const byte of content) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** `delta` fields decodeBedrock reads; others are reported once as `unknown-field`. */
export const DECODED_DELTA_FIELDS = new Set(['text', 'reasoningContent', 'toolUse']);

/** One ConverseStream event: its name (`contentBlockDelta`, `throttlingException`, …) and payload. */
export interface BedrockEvent {
  type: string;
  payload: unknown;
  /** True for an exception or error: framed as one, or named like one (`…Exception`). */
  failure: boolean;
}

/**
 * The event an input stands for: an {@link EventStreamMessage} (`:message-type` `event` →
 * `:event-type`, `exception` → `:exception-type`, `error` → `:error-code` with
 * `:error-message`), or an object with one key, as the AWS SDK yields and the captures hold
 * (`{ "contentBlockDelta": { … } }`).
 */
export function bedrockEventOf(input: unknown): BedrockEvent {
  if (isRecord(input) && input.body instanceof Uint8Array && isRecord(input.headers)) {
    const { headers, body } = input as unknown as EventStreamMessage;
    const kind = headers[':message-type'];
    if (kind === 'error') {
      const type = String(headers[':error-code'] ?? 'error');
      const payload = { message: String(headers[':error-message'] ?? '') };
      return { type, payload, failure: true };
    }
    const name = kind === 'exception' ? headers[':exception-type'] : headers[':event-type'];
    const data = new TextDecoder().decode(body);
    const payload = data.trim() === '' ? {} : parseJsonPayload(data, 'bedrock');
    if (typeof name === 'string')
      return { type: name, payload, failure: kind === 'exception' || isBedrockException(name) };
  } else if (isRecord(input)) {
    const keys = Object.keys(input);
    if (keys.length === 1)
      return { type: keys[0], payload: input[keys[0]], failure: isBedrockException(keys[0]) };
  }
  throw new LlmRxError(
    'malformed-event',
    'bedrock: an event is neither an event stream message with an :event-type or ' +
      ':exception-type header nor an object with one event name as its only key.',
    { provider: 'bedrock' },
  );
}

const FINISH_REASONS: Record<string, FinishReason> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool-calls',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  guardrail_intervened: 'content-filter',
  content_filtered: 'content-filter',
};

/** Our finish reason for a `stopReason`; anything unlisted is `other`. */
export function bedrockFinishReasonOf(raw: string): FinishReason {
  return Object.hasOwn(FINISH_REASONS, raw) ? FINISH_REASONS[raw] : 'other';
}

/** The `usage` of a `metadata` event; `cacheReadInputTokens` → cachedInputTokens. */
export function bedrockUsageOf(metadata: Metadata): UsageEvent | undefined {
  const wire = metadata.usage;
  if (!wire) return undefined;
  const usage: UsageEvent = { type: 'usage' };
  if (wire.inputTokens != null) usage.inputTokens = wire.inputTokens;
  if (wire.outputTokens != null) usage.outputTokens = wire.outputTokens;
  if (wire.cacheReadInputTokens != null) usage.cachedInputTokens = wire.cacheReadInputTokens;
  if (wire.totalTokens != null) usage.totalTokens = wire.totalTokens;
  return Object.keys(usage).length > 1 ? usage : undefined;
}

/** Exceptions ConverseStream sends inside the stream: their HTTP status and whether to retry. */
const EXCEPTIONS: Record<string, { status: number; retryable: boolean }> = {
  internalServerException: { status: 500, retryable: true },
  modelStreamErrorException: { status: 424, retryable: true },
  throttlingException: { status: 429, retryable: true },
  serviceUnavailableException: { status: 503, retryable: true },
  validationException: { status: 400, retryable: false },
};

/** True for an event name that is an exception (listed, or ending in `Exception`). */
export function isBedrockException(type: string): boolean {
  return Object.hasOwn(EXCEPTIONS, type) || /exception$/i.test(type);
}

/**
 * The `failed` terminal for an exception event: the exception's name as `code`, its message,
 * its HTTP status, retryable for the server-side ones (internal, model stream, throttling,
 * unavailable); unknown exceptions are retryable (most are transient).
 */
export function bedrockFailed(type: string, payload: unknown): FailedEvent {
  const known = Object.hasOwn(EXCEPTIONS, type) ? EXCEPTIONS[type] : undefined;
  const wireMessage = isRecord(payload) ? (payload.message ?? payload.Message) : undefined;
  const message =
    typeof wireMessage === 'string' && wireMessage !== ''
      ? wireMessage
      : `Bedrock ended the stream with ${type}.`;
  return failedEvent(type, message, known?.retryable ?? true, {
    provider: 'bedrock',
    status: known?.status,
  });
}
