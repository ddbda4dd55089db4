// llm-rx public API: explicit named exports only, grouped by role.

// Events: schemas and types
export {
  BlockEvent,
  CitationEvent,
  CompletedEvent,
  FailedError,
  FailedEvent,
  FinishEvent,
  FinishReason,
  IncompleteEvent,
  ProviderId,
  ReasoningDeltaEvent,
  ReasoningEndEvent,
  ProgressEvent,
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
  ToolInputPartialEvent,
  ToolInputStartEvent,
  ToolStartEvent,
  ToolUpdateEvent,
  Usage,
  UsageEvent,
  WarningEvent,
} from './events';
export type { EventOf, StreamEventType, TerminalEvent } from './events';
export { isTerminal, terminalForFinish } from './terminalEvents';

// Errors
export { LlmRxError, isLlmRxError } from './errors';
export type { ErrorCode, LlmRxErrorContext, WarningCode } from './errors';

// Sources: bytes → messages
export { fromSse } from './source/fromSse';
export type { FromSseOptions, SourceWarning, SseMessage } from './source/fromSse';
export { fromNdjson } from './source/fromNdjson';
export type { FromNdjsonOptions } from './source/fromNdjson';
export type { ByteInput } from './source/byteSource';
export { fromEventStream } from './source/fromEventStream';
export type { EventStreamMessage, FromEventStreamOptions } from './source/fromEventStream';
export { fromEvents } from './source/fromEvents';

// From the AI SDK: streamText's parts (ai 6 fullStream, ai 7 stream) → StreamEvent
export { fromAISdk } from './interop/fromAISdk';
export type { FromAISdkOptions } from './interop/fromAISdk';
export type { AISdkStreamPart } from './interop/aiSdkValues';

// Providers: wire messages → StreamEvent
export { detectWireFormat } from './providers/detect';
export type { ProviderName } from './providers/detect';
export type { Emit, WireDecoder } from './providers/decoder';
export { createOpenAIChatDecoder, decodeOpenAIChat } from './providers/openaiChat';
export { createOpenAIResponsesDecoder, decodeOpenAIResponses } from './providers/openaiResponses';
export { createAnthropicDecoder, decodeAnthropic } from './providers/anthropic';
export { createOllamaDecoder, decodeOllama } from './providers/ollama';
export { createGeminiDecoder, decodeGemini } from './providers/gemini';
export { createCohereDecoder, decodeCohere } from './providers/cohere';
export { createBedrockDecoder, decodeBedrock } from './providers/bedrock';
export type { BedrockInput } from './providers/bedrock';

// The whole source stage
export { streamEvents } from './streamEvents';
export type { StreamEventsOptions } from './streamEvents';

// Operators
export { ensureTerminal } from './operators/ensureTerminal';
export type { EnsureTerminalOptions } from './operators/ensureTerminal';
export { bufferChunk } from './operators/bufferChunk';
export type { BufferChunkOptions } from './operators/bufferChunk';
export { retryStream } from './operators/retryStream';
export type { RetryStreamOptions } from './operators/retryStream';
export { normalizeReasoning } from './operators/normalizeReasoning';
export type { NormalizeReasoningOptions } from './operators/normalizeReasoning';
export { sortByIndex } from './operators/sortByIndex';
export type { SortByIndexOptions } from './operators/sortByIndex';
export { partialToolInput } from './operators/partialToolInput';
export type { PartialToolInputOptions } from './operators/partialToolInput';
export { monotonicText } from './operators/monotonicText';
export { suppressSilent } from './operators/suppressSilent';
export type { SuppressSilentOptions } from './operators/suppressSilent';
export { DEFAULT_SILENT_TOKENS, stripSilentTokens } from './text/silentTokens';
export { handleEvents } from './operators/handleEvents';
export type {
  EventHandler,
  EventHandlerResult,
  HandleEventsOptions,
} from './operators/handleEvents';

// Chunking (pure, no RxJS)
export { createBlockChunker } from './chunking/blockChunker';
export type {
  BlockChunker,
  BlockChunkerOptions,
  BlockReason,
  ChunkBlock,
} from './chunking/blockChunker';

// Partial JSON: the incremental parser behind partialToolInput (pure, no RxJS)
export { createPartialJsonParser } from './json/partialJson';
export type { PartialJsonError, PartialJsonParser } from './json/partialJson';

// Channels
export { channel } from './channels/channel';
export type { ChannelOverrides } from './channels/channel';
export { channelNames, channelPresets } from './channels/presets';
export type { ChannelName, ChannelPreset } from './channels/presets';
export { platformLimits } from './platforms';
export type { PlatformLimit, PlatformName } from './platforms';
export { toMessageEdits } from './channels/toMessageEdits';
export type {
  MessageEdit,
  MessageEnd,
  MessageStep,
  ToMessageEditsOptions,
} from './channels/toMessageEdits';
export { isMessageEdit } from './channels/messageEditPlanner';

// Turns
export { collectTurn } from './turn/collectTurn';
export { assertTurn, IncompleteTurnError } from './turn/assertTurn';
export type {
  Turn,
  TurnCitation,
  TurnOutcome,
  TurnReasoning,
  TurnToolCall,
} from './turn/turnBuilder';

// Relay: llm-rx's own SSE wire, event logs, resume
export { toSseFrames, sseFrame, SSE_PING } from './relay/sse/toSseFrames';
export type { SseFramesOptions } from './relay/sse/toSseFrames';
export { toSseStream, toSseResponse, SSE_HEADERS } from './relay/sse/toSseStream';
export type { ToSseStreamOptions, ToSseResponseOptions } from './relay/sse/toSseStream';
export { memoryEventLog } from './relay/log/memoryEventLog';
export type { MemoryEventLogOptions } from './relay/log/memoryEventLog';
export { recordTo } from './relay/log/recordTo';
export type { RecordToOptions } from './relay/log/recordTo';
export { followLog } from './relay/log/followLog';
export type { FollowLogOptions } from './relay/log/followLog';
export { parseLastEventId } from './relay/sse/lastEventId';
export type {
  ClaimOptions,
  EventLog,
  EventLogWriter,
  LoggedEvent,
  StreamStatus,
} from './relay/log/eventLog';
export { pipeToNodeResponse } from './relay/sse/pipeToNodeResponse';
export type { NodeResponseLike } from './relay/sse/pipeToNodeResponse';
export { createLlmRxDecoder, decodeLlmRx } from './providers/llmRx';

// Relay: the resumable reader of llm-rx's wire (browsers and Node), reconnecting with Last-Event-ID
export { resumableEvents } from './relay/sse/resumableEvents';
export type { ResumableEventsOptions, ResumableRequest } from './relay/sse/resumableEvents';

// Relay: the AI SDK UI message stream, for useChat
export {
  toUIMessageChunks,
  toUIMessageStream,
  toUIMessageStreamResponse,
  UI_MESSAGE_STREAM_HEADERS,
} from './relay/ui/toUIMessageStream';
export type {
  ToUIMessageStreamOptions,
  ToUIMessageStreamResponseOptions,
} from './relay/ui/toUIMessageStream';
export type { UIFinishReason, UIMessageChunk } from './relay/ui/uiMessageChunk';
// Rendering for chat apps (pure, no RxJS)
export { renderMarkdown, renderFormats } from './render/renderMarkdown';
export type { RenderMarkdownOptions } from './render/renderMarkdown';
export type { RenderFormat, RenderedMessage, TelegramEntity } from './render/types';

// Delivery: a serial, rate-limited, lossless sink for bots, and its chat transports
export { deliver } from './delivery/deliver';
export type { DeliverOptions } from './delivery/deliver';
export { defaultNotice } from './delivery/answerOutcome';
export type { NoticeText } from './delivery/answerOutcome';
export { DeliveryError } from './delivery/errors';
export { memoryLedger } from './delivery/memoryLedger';
export type { DeliveryErrorContext } from './delivery/errors';
export { telegramTransport } from './platforms/telegram/telegramTransport';
export { createTelegramBot } from './platforms/telegram/telegramBot';
export type {
  TelegramBot,
  TelegramBotOptions,
  TelegramBotTransportOptions,
} from './platforms/telegram/telegramBot';
export { createCallBudget, createCallGate } from './delivery/callBudget';
export type { CallBudget, CallGate } from './delivery/callBudget';
export type {
  TelegramRef,
  TelegramTransport,
  TelegramTransportOptions,
} from './platforms/telegram/telegramTransport';
export type { TelegramClient } from './platforms/telegram/telegramClient';
export { slackTransport } from './platforms/slack/slackTransport';
export type { SlackTransport, SlackTransportOptions } from './platforms/slack/slackTransport';
export type { SlackRef, SlackRefPart } from './platforms/slack/slackRef';
export type { SlackClient } from './platforms/slack/slackWebApi';
export { createSlackBot } from './platforms/slack/slackBot';
export type {
  SlackBot,
  SlackBotOptions,
  SlackBotTarget,
  SlackBotTransportOptions,
} from './platforms/slack/slackBot';
export { discordTransport } from './platforms/discord/discordTransport';
export { createDiscordBot } from './platforms/discord/discordBot';
export type { DiscordBot, DiscordBotOptions } from './platforms/discord/discordBot';
export type {
  DiscordMessageRef,
  DiscordTransport,
  DiscordTransportOptions,
} from './platforms/discord/discordTransport';
// Stop in chat apps: what a user's Stop button or the bot's /stop says, and every transport's stop
export { telegramStopOf } from './platforms/telegram/stop';
export type { TelegramStop } from './platforms/telegram/stop';
export { slackStopOf } from './platforms/slack/stop';
export type { SlackStop } from './platforms/slack/stop';
export type { StopControl } from './delivery/transportStop';
export { teamsTransport } from './platforms/teams/teamsTransport';
export type {
  TeamsMessagePart,
  TeamsMessageRef,
  TeamsTransport,
  TeamsTransportOptions,
} from './platforms/teams/teamsTransport';
export {
  MAX_IDLE_TYPING_REFRESHES,
  WHATSAPP_MAX_MESSAGE_CHARS,
  whatsappTransport,
} from './platforms/whatsapp/whatsappTransport';
export type {
  WhatsAppMessageRef,
  WhatsAppTransport,
  WhatsAppTransportOptions,
} from './platforms/whatsapp/whatsappTransport';
export {
  GOOGLE_CHAT_MAX_MESSAGE_CHARS,
  googleChatTransport,
} from './platforms/googlechat/googleChatTransport';
export type {
  GoogleChatMessageRef,
  GoogleChatTransport,
  GoogleChatTransportOptions,
} from './platforms/googlechat/googleChatTransport';
export type {
  AnswerOutcome,
  AnswerReport,
  DeliveryFailedReport,
  DeliveryLedger,
  DeliveryReport,
  DeliveryTransport,
  DeliveryWarning,
  DeliveryWarningReport,
  EditedReport,
  FinishedReport,
  LedgerEntry,
  ResumedReport,
  RetryingReport,
  SentReport,
  SupersededReport,
  TransportCall,
} from './delivery/types';
