import * as z from 'zod/mini';

// Every event llm-rx emits, as a zod schema with its inferred type beside it.
// The type names and fields are the public contract.
// zod/mini, as everywhere in src/: plain functions a bundler can drop, so a browser page does not
// carry all of zod (BENCHMARKS.md, "Browser bundle").

/** Which wire format a stream was decoded from. */
export const ProviderId = z.enum([
  'openai-chat',
  'openai-responses',
  'anthropic',
  'ollama',
  'llm-rx',
  'gemini',
  'cohere',
  'bedrock',
]);
export type ProviderId = z.infer<typeof ProviderId>;

/** The start of a response: what the wire said about it. */
export const ResponseStartEvent = z.object({
  type: z.literal('response-start'),
  id: z.optional(z.string()),
  model: z.optional(z.string()),
  provider: z.string(),
});
export type ResponseStartEvent = z.infer<typeof ResponseStartEvent>;

/** A text part begins. */
export const TextStartEvent = z.object({ type: z.literal('text-start'), id: z.string() });
export type TextStartEvent = z.infer<typeof TextStartEvent>;

/** A piece of visible text. */
export const TextDeltaEvent = z.object({
  type: z.literal('text-delta'),
  id: z.string(),
  delta: z.string(),
});
export type TextDeltaEvent = z.infer<typeof TextDeltaEvent>;

/** A text part ends; `text` is the full text when a source resends it. */
export const TextEndEvent = z.object({
  type: z.literal('text-end'),
  id: z.string(),
  text: z.optional(z.string()),
});
export type TextEndEvent = z.infer<typeof TextEndEvent>;

/** A reasoning entry begins. `index` orders entries of one response. */
export const ReasoningStartEvent = z.object({
  type: z.literal('reasoning-start'),
  id: z.string(),
  index: z.int(),
});
export type ReasoningStartEvent = z.infer<typeof ReasoningStartEvent>;

/** What kind of reasoning text a delta carries. */
export const ReasoningKind = z.enum(['text', 'summary']);
export type ReasoningKind = z.infer<typeof ReasoningKind>;

/** A piece of reasoning text: the model's own (`text`) or a summary of it (`summary`). */
export const ReasoningDeltaEvent = z.object({
  type: z.literal('reasoning-delta'),
  id: z.string(),
  index: z.int(),
  delta: z.string(),
  kind: ReasoningKind,
});
export type ReasoningDeltaEvent = z.infer<typeof ReasoningDeltaEvent>;

/**
 * A reasoning entry ends. Signed or encrypted reasoning is kept here, never shown as text:
 * `signature` (Anthropic, OpenRouter), `redacted` (encrypted payloads, in wire order).
 */
export const ReasoningEndEvent = z.object({
  type: z.literal('reasoning-end'),
  id: z.string(),
  index: z.int(),
  signature: z.optional(z.string()),
  redacted: z.optional(z.array(z.string())),
  format: z.optional(z.string()),
});
export type ReasoningEndEvent = z.infer<typeof ReasoningEndEvent>;

/** A client tool call begins streaming its input. */
export const ToolInputStartEvent = z.object({
  type: z.literal('tool-input-start'),
  id: z.string(),
  name: z.string(),
  index: z.int(),
});
export type ToolInputStartEvent = z.infer<typeof ToolInputStartEvent>;

/** A piece of a tool call's input, as raw JSON text. */
export const ToolInputDeltaEvent = z.object({
  type: z.literal('tool-input-delta'),
  id: z.string(),
  delta: z.string(),
});
export type ToolInputDeltaEvent = z.infer<typeof ToolInputDeltaEvent>;

/** A complete tool call; `error`: why `inputText` is not JSON; `signature`: opaque, kept. */
export const ToolCallEvent = z.object({
  type: z.literal('tool-call'),
  id: z.string(),
  name: z.string(),
  input: z.unknown(),
  inputText: z.string(),
  error: z.optional(z.string()),
  signature: z.optional(z.string()),
});
export type ToolCallEvent = z.infer<typeof ToolCallEvent>;

/** A streaming tool call's arguments parsed so far (`partialToolInput`): complete keys only. */
export const ToolInputPartialEvent = z.object({
  type: z.literal('tool-input-partial'),
  id: z.string(),
  value: z.unknown(),
});
export type ToolInputPartialEvent = z.infer<typeof ToolInputPartialEvent>;

/** A tool started: by the host app, or by the provider (`providerExecuted`: a server tool). */
export const ToolStartEvent = z.object({
  type: z.literal('tool-start'),
  id: z.string(),
  name: z.optional(z.string()),
  args: z.optional(z.unknown()),
  providerExecuted: z.optional(z.boolean()),
});
export type ToolStartEvent = z.infer<typeof ToolStartEvent>;

/** A running tool reported progress. */
export const ToolUpdateEvent = z.object({
  type: z.literal('tool-update'),
  id: z.string(),
  name: z.optional(z.string()),
  output: z.optional(z.unknown()),
});
export type ToolUpdateEvent = z.infer<typeof ToolUpdateEvent>;

/** A tool finished (`providerExecuted` as on its `tool-start`). */
export const ToolEndEvent = z.object({
  type: z.literal('tool-end'),
  id: z.string(),
  name: z.optional(z.string()),
  result: z.optional(z.unknown()),
  isError: z.optional(z.boolean()),
  providerExecuted: z.optional(z.boolean()),
});
export type ToolEndEvent = z.infer<typeof ToolEndEvent>;

/** A source the answer cites; `start` / `end` index the text when the wire says, `text` quotes it. */
export const CitationEvent = z.object({
  type: z.literal('citation'),
  id: z.optional(z.string()),
  url: z.optional(z.string()),
  title: z.optional(z.string()),
  text: z.optional(z.string()),
  start: z.optional(z.number()),
  end: z.optional(z.number()),
});
export type CitationEvent = z.infer<typeof CitationEvent>;

/** Tool activity as a chat shows it (`channel(name, { progress: true })`); never final text. */
export const ProgressEvent = z.object({
  type: z.literal('progress'),
  id: z.string(),
  name: z.string(),
  status: z.enum(['running', 'done', 'error']),
  title: z.optional(z.string()),
});
export type ProgressEvent = z.infer<typeof ProgressEvent>;

/** Token accounting, as far as the wire reports it. */
export const UsageEvent = z.object({
  type: z.literal('usage'),
  inputTokens: z.optional(z.number()),
  outputTokens: z.optional(z.number()),
  reasoningTokens: z.optional(z.number()),
  cachedInputTokens: z.optional(z.number()),
  totalTokens: z.optional(z.number()),
  cost: z.optional(z.number()),
});
export type UsageEvent = z.infer<typeof UsageEvent>;

/** Why the model stopped. */
export const FinishReason = z.enum([
  'stop',
  'length',
  'tool-calls',
  'content-filter',
  'error',
  'other',
]);
export type FinishReason = z.infer<typeof FinishReason>;

/** The model stopped; `raw` is the provider's own word for why. Not a terminal. */
export const FinishEvent = z.object({
  type: z.literal('finish'),
  reason: FinishReason,
  raw: z.optional(z.string()),
});
export type FinishEvent = z.infer<typeof FinishEvent>;

/** Something was skipped or repaired; codes are listed in `WarningCode` (src/errors.ts). */
export const WarningEvent = z.object({
  type: z.literal('warning'),
  code: z.string(),
  message: z.string(),
  detail: z.optional(z.unknown()),
});
export type WarningEvent = z.infer<typeof WarningEvent>;

/** A chunk of text sized for a channel (bufferChunk). */
export const BlockEvent = z.object({
  type: z.literal('block'),
  text: z.string(),
  seq: z.int().check(z.nonnegative()),
  reason: z.enum(['size', 'paragraph', 'idle', 'flush', 'end']),
});
export type BlockEvent = z.infer<typeof BlockEvent>;

/** The reply was only a silent token: the channel should stay silent (suppressSilent). */
export const SilentEvent = z.object({ type: z.literal('silent'), token: z.string() });
export type SilentEvent = z.infer<typeof SilentEvent>;

/** Usage fields without the `type` tag, as carried by `completed`. */
export const Usage = z.omit(UsageEvent, { type: true });
export type Usage = z.infer<typeof Usage>;

/** Terminal: the response ended normally. */
export const CompletedEvent = z.object({
  type: z.literal('completed'),
  finishReason: z.optional(FinishReason),
  usage: z.optional(Usage),
});
export type CompletedEvent = z.infer<typeof CompletedEvent>;

/** Terminal: the response ended early but not in error (length, content filter, abort). */
export const IncompleteEvent = z.object({
  type: z.literal('incomplete'),
  reason: z.string(),
  message: z.string(),
});
export type IncompleteEvent = z.infer<typeof IncompleteEvent>;

/** The error a `failed` terminal carries. `code` is ours (ErrorCode) or the provider's own. */
export const FailedError = z.object({
  code: z.string(),
  message: z.string(),
  provider: z.optional(z.string()),
  status: z.optional(z.number()),
  /** Wait at least this long before trying again (a `Retry-After` header or the provider's field). */
  retryAfterMs: z.optional(z.number().check(z.nonnegative())),
  retryable: z.boolean(),
});
export type FailedError = z.infer<typeof FailedError>;

/** Terminal: the response failed. */
export const FailedEvent = z.object({ type: z.literal('failed'), error: FailedError });
export type FailedEvent = z.infer<typeof FailedEvent>;

/** Any event llm-rx emits or accepts. */
export const StreamEvent = z.discriminatedUnion('type', [
  ResponseStartEvent,
  TextStartEvent,
  TextDeltaEvent,
  TextEndEvent,
  ReasoningStartEvent,
  ReasoningDeltaEvent,
  ReasoningEndEvent,
  ToolInputStartEvent,
  ToolInputDeltaEvent,
  ToolInputPartialEvent,
  ToolCallEvent,
  ToolStartEvent,
  ToolUpdateEvent,
  ToolEndEvent,
  CitationEvent,
  ProgressEvent,
  UsageEvent,
  FinishEvent,
  WarningEvent,
  BlockEvent,
  SilentEvent,
  CompletedEvent,
  IncompleteEvent,
  FailedEvent,
]);
export type StreamEvent = z.infer<typeof StreamEvent>;

/** The `type` tag of any StreamEvent. */
export type StreamEventType = StreamEvent['type'];

/** One event type, by its tag: `EventOf<'text-delta'>` is `TextDeltaEvent`. */
export type EventOf<T extends StreamEventType> = Extract<StreamEvent, { type: T }>;

/** The three events that end a stream. */
export type TerminalEvent = CompletedEvent | IncompleteEvent | FailedEvent;
