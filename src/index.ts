// llm-rx public API: explicit named exports only, grouped by role.

// Events: schemas and types (DESIGN §3)
export {
  BlockEvent,
  CompletedEvent,
  FailedError,
  FailedEvent,
  FinishEvent,
  FinishReason,
  IncompleteEvent,
  ProviderId,
  ReasoningDeltaEvent,
  ReasoningEndEvent,
  ReasoningKind,
  ReasoningStartEvent,
  ResponseStartEvent,
  SilentEvent,
  StreamEvent,
  TextDeltaEvent,
  TextEndEvent,
  TextStartEvent,
  ToolCallEvent,
  ToolEndEvent,
  ToolInputDeltaEvent,
  ToolInputStartEvent,
  ToolStartEvent,
  ToolUpdateEvent,
  Usage,
  UsageEvent,
  WarningEvent,
  isTerminal,
  terminalForFinish,
} from './events';
export type { EventOf, StreamEventType, TerminalEvent } from './events';

// Errors
export { LlmRxError, isLlmRxError } from './errors';
export type { ErrorCode, LlmRxErrorContext, WarningCode } from './errors';

// Sources: bytes → messages
export { fromSse } from './source/fromSse';
export type { FromSseOptions, SourceWarning, SseMessage } from './source/fromSse';
export { fromNdjson } from './source/fromNdjson';
export type { FromNdjsonOptions } from './source/fromNdjson';
export type { ByteInput } from './source/byteSource';

// Providers: wire messages → StreamEvent
export { detectWireFormat } from './providers/detect';
export type { ProviderName } from './providers/detect';
export type { Emit, WireDecoder } from './providers/decoder';

// The whole source stage
export { streamEvents } from './streamEvents';
export type { StreamEventsOptions } from './streamEvents';

// Operators
export { ensureTerminal } from './operators/ensureTerminal';
export type { EnsureTerminalOptions } from './operators/ensureTerminal';

// Chunking (pure, no RxJS)

// Channels

// Turns
