import type { ProviderName } from '../../src/providers/detect';

/**
 * One small, well-formed stream per wire format, split into the pieces the fault matrix
 * breaks: events carrying the text "Hel" + "lo", the events that end it, and an error object
 * as that provider sends one inside a 200 stream.
 */
export interface WireSample {
  provider: ProviderName;
  contentType: string;
  /** Events that deliver "Hel" then "lo" (each a complete SSE event or NDJSON line). */
  textEvents: string[];
  /** Events that end the stream properly (finish, terminal). */
  endEvents: string[];
  /** An error object inside the stream. */
  errorEvent: string;
  /** The error code the `failed` terminal carries for `errorEvent`. */
  errorCode: string;
  /** Frames a JSON payload as one event of this wire (without its terminating blank line). */
  frame(payload: string, eventName?: string): string;
  /** What ends one event: a blank line for SSE, a newline for NDJSON. */
  eventEnd: string;
}

const sse = (payload: string, eventName?: string) =>
  `${eventName ? `event: ${eventName}\n` : ''}data: ${payload}\n`;
const typed = (payload: string) => sse(payload, (JSON.parse(payload) as { type: string }).type);

const chatChunk = (delta: object, finish: string | null = null) =>
  JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });

export const openaiChatSample: WireSample = {
  provider: 'openai-chat',
  contentType: 'text/event-stream',
  textEvents: [
    sse(chatChunk({ role: 'assistant', content: 'Hel' })),
    sse(chatChunk({ content: 'lo' })),
  ],
  endEvents: [sse(chatChunk({}, 'stop')), sse('[DONE]')],
  errorEvent: sse(
    JSON.stringify({ error: { code: 502, message: 'Upstream provider returned 502' } }),
  ),
  errorCode: '502',
  frame: sse,
  eventEnd: '\n',
};

export const openaiResponsesSample: WireSample = {
  provider: 'openai-responses',
  contentType: 'text/event-stream',
  textEvents: [
    typed(
      JSON.stringify({
        type: 'response.created',
        sequence_number: 0,
        response: { id: 'resp_1', model: 'gpt-5', status: 'in_progress', output: [] },
      }),
    ),
    typed(
      JSON.stringify({
        type: 'response.output_item.added',
        sequence_number: 1,
        output_index: 0,
        item: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          status: 'in_progress',
          content: [],
        },
      }),
    ),
    typed(
      JSON.stringify({
        type: 'response.output_text.delta',
        sequence_number: 2,
        item_id: 'msg_1',
        output_index: 0,
        content_index: 0,
        delta: 'Hel',
      }),
    ),
    typed(
      JSON.stringify({
        type: 'response.output_text.delta',
        sequence_number: 3,
        item_id: 'msg_1',
        output_index: 0,
        content_index: 0,
        delta: 'lo',
      }),
    ),
  ],
  endEvents: [
    typed(
      JSON.stringify({
        type: 'response.output_item.done',
        sequence_number: 4,
        output_index: 0,
        item: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'Hello', annotations: [] }],
        },
      }),
    ),
    typed(
      JSON.stringify({
        type: 'response.completed',
        sequence_number: 5,
        response: {
          id: 'resp_1',
          model: 'gpt-5',
          status: 'completed',
          usage: { input_tokens: 3, output_tokens: 2, total_tokens: 5 },
        },
      }),
    ),
  ],
  errorEvent: typed(
    JSON.stringify({
      type: 'error',
      sequence_number: 4,
      code: 'server_error',
      message: 'The server had an error',
    }),
  ),
  errorCode: 'server_error',
  frame: (payload, eventName) => sse(payload, eventName ?? 'response.output_text.delta'),
  eventEnd: '\n',
};

export const anthropicSample: WireSample = {
  provider: 'anthropic',
  contentType: 'text/event-stream',
  textEvents: [
    typed(
      JSON.stringify({
        type: 'message_start',
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4',
          content: [],
          usage: { input_tokens: 3, output_tokens: 1 },
        },
      }),
    ),
    typed(
      JSON.stringify({
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'text', text: '' },
      }),
    ),
    typed(
      JSON.stringify({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text: 'Hel' },
      }),
    ),
    typed(
      JSON.stringify({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text: 'lo' },
      }),
    ),
  ],
  endEvents: [
    typed(JSON.stringify({ type: 'content_block_stop', index: 0 })),
    typed(
      JSON.stringify({
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { output_tokens: 2 },
      }),
    ),
    typed(JSON.stringify({ type: 'message_stop' })),
  ],
  errorEvent: typed(
    JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
  ),
  errorCode: 'overloaded_error',
  frame: (payload, eventName) => sse(payload, eventName ?? 'content_block_delta'),
  eventEnd: '\n',
};

const ollamaLine = (content: string, done = false, extra: object = {}) =>
  JSON.stringify({
    model: 'llama3.2',
    created_at: '2026-01-01T00:00:00Z',
    message: { role: 'assistant', content },
    done,
    ...extra,
  }) + '\n';

export const ollamaSample: WireSample = {
  provider: 'ollama',
  contentType: 'application/x-ndjson',
  textEvents: [ollamaLine('Hel'), ollamaLine('lo')],
  endEvents: [ollamaLine('', true, { done_reason: 'stop', prompt_eval_count: 3, eval_count: 2 })],
  errorEvent: JSON.stringify({ error: 'model "llama9" not found, try pulling it first' }) + '\n',
  errorCode: 'provider-error',
  frame: (payload) => payload + '\n',
  eventEnd: '',
};

export const wireSamples: WireSample[] = [
  openaiChatSample,
  openaiResponsesSample,
  anthropicSample,
  ollamaSample,
];

/** The sample's events joined into a body, each event terminated. */
export function body(sample: WireSample, events: string[]): string {
  return events.map((event) => event + sample.eventEnd).join('');
}
