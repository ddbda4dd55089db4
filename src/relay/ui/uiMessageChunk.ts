// The chunks of the AI SDK's UI message stream protocol v1 that llm-rx writes: exactly the fields
// `uiMessageChunkSchema` of the `ai` package (v6) accepts for them, and no others. A type only:
// llm-rx never imports `ai` at run time.

/** Why a message finished, as the UI message stream names it. */
export type UIFinishReason =
  'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';

/** `providerMetadata` of the protocol: per provider name, a JSON object. */
export type UIProviderMetadata = Record<string, Record<string, string | string[]>>;

/** One chunk of the AI SDK UI message stream (the subset llm-rx emits). */
export type UIMessageChunk =
  | { type: 'start'; messageId?: string; messageMetadata?: unknown }
  | { type: 'start-step' }
  | { type: 'text-start'; id: string }
  | { type: 'text-delta'; id: string; delta: string }
  | { type: 'text-end'; id: string }
  | { type: 'reasoning-start'; id: string }
  | { type: 'reasoning-delta'; id: string; delta: string }
  | { type: 'reasoning-end'; id: string; providerMetadata?: UIProviderMetadata }
  | { type: 'source-url'; sourceId: string; url: string; title?: string }
  | { type: 'tool-input-start'; toolCallId: string; toolName: string }
  | { type: 'tool-input-delta'; toolCallId: string; inputTextDelta: string }
  | {
      type: 'tool-input-available';
      toolCallId: string;
      toolName: string;
      input: unknown;
      providerExecuted?: boolean;
    }
  | {
      type: 'tool-input-error';
      toolCallId: string;
      toolName: string;
      input: unknown;
      errorText: string;
    }
  | {
      type: 'tool-output-available';
      toolCallId: string;
      output: unknown;
      preliminary?: boolean;
      providerExecuted?: boolean;
    }
  | { type: 'tool-output-error'; toolCallId: string; errorText: string; providerExecuted?: boolean }
  | { type: 'finish-step' }
  | { type: 'finish'; finishReason?: UIFinishReason; messageMetadata?: unknown }
  | { type: 'abort'; reason?: string }
  | { type: 'error'; errorText: string };
