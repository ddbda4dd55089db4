import { errorMessage } from '../errors';
import {
  FinishReason,
  type FinishEvent,
  type StreamEvent,
  type TerminalEvent,
  type UsageEvent,
} from '../events';
import { failedEvent } from '../terminalEvents';

// The AI SDK's stream parts as llm-rx reads them (the mapper is aiSdkParts.ts): structural copies of the fields used, taken
// from `TextStreamPart` of `ai` 6 (`fullStream`) and of `ai` 7 (`stream`). No import of `ai`.

/** Any AI SDK stream part: what `fromAISdk` accepts (the ones it does not know are reported). */
export interface AISdkStreamPart {
  readonly type: string;
}

/** `LanguageModelUsage` of both majors (ai 6 also has the deprecated flat fields). */
export interface AISdkUsage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  inputTokenDetails?: { cacheReadTokens?: number };
  outputTokenDetails?: { reasoningTokens?: number };
  reasoningTokens?: number;
  cachedInputTokens?: number;
}

/** The parts read, by type; every field is checked at run time before use. */
export interface KnownParts {
  'text-start': { id: string };
  'text-delta': { id: string; text: string };
  'text-end': { id: string };
  'reasoning-start': { id: string; providerMetadata?: unknown };
  'reasoning-delta': { id: string; text: string; providerMetadata?: unknown };
  'reasoning-end': { id: string; providerMetadata?: unknown };
  'tool-input-start': { id: string; toolName: string; providerExecuted?: boolean };
  'tool-input-delta': { id: string; delta: string };
  'tool-call': {
    toolCallId: string;
    toolName: string;
    input: unknown;
    providerExecuted?: boolean;
    invalid?: boolean;
    error?: unknown;
  };
  'tool-result': {
    toolCallId: string;
    toolName: string;
    output: unknown;
    providerExecuted?: boolean;
    preliminary?: boolean;
  };
  'tool-error': {
    toolCallId: string;
    toolName: string;
    error: unknown;
    providerExecuted?: boolean;
  };
  'tool-output-denied': { toolCallId: string; toolName: string };
  'finish-step': { finishReason: string; rawFinishReason?: string };
  finish: { finishReason: string; rawFinishReason?: string; totalUsage?: AISdkUsage };
  abort: { reason?: string };
  error: { error: unknown };
  source: { sourceType: string; id: string; url?: string; title?: string; filename?: string };
}

export type KnownReasoning = {
  type: 'reasoning-start' | 'reasoning-delta' | 'reasoning-end';
} & Partial<KnownParts['reasoning-delta']>;
export type KnownTool = {
  [
    T in
      | 'tool-input-start'
      | 'tool-input-delta'
      | 'tool-call'
      | 'tool-result'
      | 'tool-error'
      | 'tool-output-denied'
  ]: {
    type: T;
  } & KnownParts[T];
}[
  | 'tool-input-start'
  | 'tool-input-delta'
  | 'tool-call'
  | 'tool-result'
  | 'tool-error'
  | 'tool-output-denied'];

/**
 * An AI SDK error value as text: {@link errorMessage}, but a data value without a message (an
 * error part may carry any JSON) as JSON rather than `[object Object]`.
 */
export function messageOf(error: unknown): string {
  if (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { message?: unknown }).message !== 'string'
  ) {
    try {
      return JSON.stringify(error);
    } catch {
      // A cycle or a BigInt: String() below.
    }
  }
  return errorMessage(error);
}

/** The AI SDK's finish reasons llm-rx names the same: all of llm-rx's (ai 7 adds `interrupted`). */
const FINISH_REASONS = new Set<string>(FinishReason.options);

export function isString(value: unknown): value is string {
  return typeof value === 'string';
}

export function finishOf(part: {
  finishReason: string;
  rawFinishReason?: string;
}): FinishEvent | undefined {
  if (!FINISH_REASONS.has(part.finishReason)) return undefined;
  const finish: FinishEvent = { type: 'finish', reason: part.finishReason as FinishReason };
  if (isString(part.rawFinishReason)) finish.raw = part.rawFinishReason;
  return finish;
}

/** Usage of both majors; the details win over ai 6's deprecated flat fields. */
export function usageOf(usage: AISdkUsage | undefined): UsageEvent | undefined {
  if (!usage) return undefined;
  const event: UsageEvent = { type: 'usage' };
  const set = (key: Exclude<keyof UsageEvent, 'type'>, value: unknown) => {
    if (typeof value === 'number') event[key] = value;
  };
  set('inputTokens', usage.inputTokens);
  set('outputTokens', usage.outputTokens);
  set('reasoningTokens', usage.outputTokenDetails?.reasoningTokens ?? usage.reasoningTokens);
  set('cachedInputTokens', usage.inputTokenDetails?.cacheReadTokens ?? usage.cachedInputTokens);
  set('totalTokens', usage.totalTokens);
  return Object.keys(event).length > 1 ? event : undefined;
}

/**
 * A tool call as llm-rx has it: `inputText` is what streamed, or the input as JSON; a call the
 * AI SDK marked invalid (input not JSON, or no such tool) carries the SDK's reason in `error`.
 */
export function toolCallOf(part: KnownParts['tool-call'], streamed: string) {
  const inputText =
    streamed !== ''
      ? streamed
      : isString(part.input)
        ? part.input
        : (JSON.stringify(part.input) ?? '');
  const event: Extract<StreamEvent, { type: 'tool-call' }> = {
    type: 'tool-call',
    id: part.toolCallId,
    name: part.toolName,
    input: part.input ?? null,
    inputText,
  };
  if (part.invalid) {
    if (isString(part.input)) event.input = parsedOrNull(part.input);
    event.error =
      part.error === undefined ? `Tool call ${part.toolCallId} is invalid.` : messageOf(part.error);
  }
  return event;
}

function parsedOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The `failed` an `error` part stands for: its message, HTTP status and retryability if known. */
export function failedOf(error: unknown): TerminalEvent {
  const details = error as { statusCode?: unknown; isRetryable?: unknown } | null;
  const status = typeof details?.statusCode === 'number' ? details.statusCode : undefined;
  const retryable = typeof details?.isRetryable === 'boolean' ? details.isRetryable : false;
  return failedEvent(
    'provider-error',
    messageOf(error),
    retryable,
    status === undefined ? {} : { status },
  );
}
