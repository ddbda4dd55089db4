import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { from } from 'rxjs';
import type { StreamEvent } from '../../src/events';
import {
  createOpenAIResponsesDecoder,
  decodeOpenAIResponses,
} from '../../src/providers/openaiResponses';
import { streamEvents } from '../../src/streamEvents';
import { collect } from '../helpers/bytes';
import { decodePayloads } from './decoderSupport';

const fixture = (name: string) =>
  readFileSync(join(__dirname, '../../fixtures/openai-responses', name));
const eventsOf = (name: string) =>
  collect(
    streamEvents(new Response(fixture(name), { headers: { 'content-type': 'text/event-stream' } })),
  );

/** Runs the pure decoder over payload objects (one SSE message each) and returns what it emitted. */
const decode = (payloads: object[], options?: { complete?: boolean }): StreamEvent[] =>
  decodePayloads(createOpenAIResponsesDecoder(), payloads, options);

const created = { type: 'response.created', response: { id: 'resp_1', model: 'm' } };
const start = { type: 'response-start', provider: 'openai-responses', id: 'resp_1', model: 'm' };
const completed = { type: 'response.completed', response: { id: 'resp_1' } };

describe('decodeOpenAIResponses', () => {
  it('decodes reasoning summary parts, encrypted content, text and usage', async () => {
    const usage = {
      inputTokens: 42,
      outputTokens: 30,
      reasoningTokens: 12,
      cachedInputTokens: 8,
      totalTokens: 72,
    };
    expect(await eventsOf('reasoning-summary-text.sse')).toEqual([
      { type: 'response-start', provider: 'openai-responses', id: 'resp_fx1', model: 'gpt-5-mini' },
      { type: 'reasoning-start', id: 'rs_fx1:0', index: 0 },
      {
        type: 'reasoning-delta',
        id: 'rs_fx1:0',
        index: 0,
        delta: '**Planning**\n\n',
        kind: 'summary',
      },
      { type: 'reasoning-delta', id: 'rs_fx1:0', index: 0, delta: 'Say hi.', kind: 'summary' },
      { type: 'reasoning-end', id: 'rs_fx1:0', index: 0 },
      { type: 'reasoning-start', id: 'rs_fx1:1', index: 1 },
      {
        type: 'reasoning-delta',
        id: 'rs_fx1:1',
        index: 1,
        delta: 'Keep it short.',
        kind: 'summary',
      },
      // The final encrypted_content (on output_item.done), not the one on .added.
      { type: 'reasoning-end', id: 'rs_fx1:1', index: 1, redacted: ['gAAAA-final'] },
      { type: 'text-start', id: 'msg_fx1' },
      { type: 'text-delta', id: 'msg_fx1', delta: 'Hello' },
      { type: 'text-delta', id: 'msg_fx1', delta: ' there!' },
      { type: 'text-end', id: 'msg_fx1', text: 'Hello there!' },
      { type: 'usage', ...usage },
      { type: 'finish', reason: 'stop' },
      { type: 'completed', finishReason: 'stop', usage },
    ]);
  });

  it('ollama/ollama#17118: a stream that ends after a summary delta keeps the reasoning and fails once, retryable', async () => {
    expect(await eventsOf('ollama-17118-ends-mid-reasoning.sse')).toEqual([
      {
        type: 'response-start',
        provider: 'openai-responses',
        id: 'resp_ollama1',
        model: 'gpt-oss:20b',
      },
      { type: 'reasoning-start', id: 'rs_ollama1:0', index: 0 },
      {
        type: 'reasoning-delta',
        id: 'rs_ollama1:0',
        index: 0,
        delta: 'The user wants',
        kind: 'summary',
      },
      {
        type: 'reasoning-delta',
        id: 'rs_ollama1:0',
        index: 0,
        delta: ' a haiku about rain.',
        kind: 'summary',
      },
      { type: 'reasoning-end', id: 'rs_ollama1:0', index: 0 },
      {
        type: 'failed',
        error: {
          code: 'stream-closed',
          message:
            'The stream ended before the provider sent a finish reason or a terminal event (5 events received).',
          retryable: true,
        },
      },
    ]);
  });

  it('an error event (flat form) followed by response.failed is one failed', async () => {
    expect(await eventsOf('error-flat-then-failed.sse')).toEqual([
      { type: 'response-start', provider: 'openai-responses', id: 'resp_fx1', model: 'gpt-5-mini' },
      { type: 'text-start', id: 'msg_fx1' },
      { type: 'text-delta', id: 'msg_fx1', delta: 'Partial' },
      { type: 'text-end', id: 'msg_fx1' },
      {
        type: 'failed',
        error: {
          code: 'server_error',
          message: 'The server had an error while processing your request.',
          provider: 'openai-responses',
          retryable: true,
        },
      },
    ]);
  });

  it('the nested error form takes its code and message from error{}; not retryable for quota', () => {
    const error = {
      type: 'error',
      sequence_number: 1,
      error: { type: 'insufficient_quota', code: 'insufficient_quota', message: 'Quota.' },
    };
    const failed = {
      type: 'response.failed',
      sequence_number: 2,
      response: { error: { code: 'insufficient_quota', message: 'Quota.' } },
    };
    expect(decode([{ ...created, sequence_number: 0 }, error, failed])).toEqual([
      start,
      {
        type: 'failed',
        error: {
          code: 'insufficient_quota',
          message: 'Quota.',
          provider: 'openai-responses',
          retryable: false,
        },
      },
    ]);
  });

  it('response.failed alone carries error.code and error.message', () => {
    const failed = {
      type: 'response.failed',
      response: { error: { code: 'server_error', message: 'Boom.' } },
    };
    expect(decode([created, failed]).at(-1)).toEqual({
      type: 'failed',
      error: {
        code: 'server_error',
        message: 'Boom.',
        provider: 'openai-responses',
        retryable: true,
      },
    });
  });

  it('response.incomplete maps incomplete_details.reason', async () => {
    expect((await eventsOf('incomplete-max-output-tokens.sse')).slice(-3)).toEqual([
      { type: 'usage', inputTokens: 10, outputTokens: 3, totalTokens: 13 },
      { type: 'finish', reason: 'length', raw: 'max_output_tokens' },
      {
        type: 'incomplete',
        reason: 'length',
        message: 'The model stopped at its output token limit.',
      },
    ]);
    const filtered = {
      type: 'response.incomplete',
      response: { incomplete_details: { reason: 'content_filter' } },
    };
    expect(decode([created, filtered]).slice(-2)).toEqual([
      { type: 'finish', reason: 'content-filter', raw: 'content_filter' },
      {
        type: 'incomplete',
        reason: 'content-filter',
        message: 'The provider stopped the response with its content filter.',
      },
    ]);
  });

  it('arguments only on output_item.done still give a delta and a tool-call; a gap warns; a web search starts as a server tool', async () => {
    expect(await eventsOf('arguments-on-item-done-with-gap.sse')).toEqual([
      { type: 'response-start', provider: 'openai-responses', id: 'resp_fx1', model: 'gpt-5-mini' },
      { type: 'tool-input-start', id: 'call_fx1', name: 'lookup', index: 0 },
      { type: 'tool-input-delta', id: 'call_fx1', delta: '{"q":"rain"}' },
      {
        type: 'tool-call',
        id: 'call_fx1',
        name: 'lookup',
        input: { q: 'rain' },
        inputText: '{"q":"rain"}',
      },
      { type: 'tool-start', id: 'ws_fx1', name: 'web_search', providerExecuted: true },
      {
        type: 'warning',
        code: 'sequence-gap',
        message: 'OpenAI Responses skipped from sequence number 4 to 5; events may be missing.',
        detail: { expected: 4, received: 5 },
      },
      { type: 'finish', reason: 'tool-calls' },
      { type: 'completed', finishReason: 'tool-calls' },
    ]);
  });

  it('arguments streamed as deltas then repeated in .done and output_item.done give one tool-call', () => {
    const item = {
      id: 'fc_1',
      type: 'function_call',
      call_id: 'call_1',
      name: 'add',
      arguments: '',
    };
    const events = decode([
      created,
      { type: 'response.output_item.added', output_index: 2, item },
      { type: 'response.function_call_arguments.delta', item_id: 'fc_1', delta: '{"a":' },
      { type: 'response.function_call_arguments.delta', item_id: 'fc_1', delta: '1}' },
      { type: 'response.function_call_arguments.done', item_id: 'fc_1', arguments: '{"a":1}' },
      {
        type: 'response.output_item.done',
        output_index: 2,
        item: { ...item, arguments: '{"a":1}' },
      },
      completed,
    ]);
    expect(events.slice(1, 5)).toEqual([
      { type: 'tool-input-start', id: 'call_1', name: 'add', index: 2 },
      { type: 'tool-input-delta', id: 'call_1', delta: '{"a":' },
      { type: 'tool-input-delta', id: 'call_1', delta: '1}' },
      { type: 'tool-call', id: 'call_1', name: 'add', input: { a: 1 }, inputText: '{"a":1}' },
    ]);
    expect(events.filter((e) => e.type === 'tool-call')).toHaveLength(1);
  });

  it('reasoning_text.delta is kind text; output_text.done alone still delivers the text', () => {
    expect(
      decode([
        created,
        {
          type: 'response.reasoning_text.delta',
          item_id: 'rs_1',
          content_index: 0,
          delta: 'Think.',
        },
        {
          type: 'response.reasoning_text.done',
          item_id: 'rs_1',
          content_index: 0,
          text: 'Think. More.',
        },
        { type: 'response.output_item.done', item: { id: 'rs_1', type: 'reasoning' } },
        { type: 'response.output_text.done', item_id: 'msg_1', content_index: 0, text: 'Answer.' },
        completed,
      ]).slice(1, 9),
    ).toEqual([
      { type: 'reasoning-start', id: 'rs_1:text:0', index: 0 },
      { type: 'reasoning-delta', id: 'rs_1:text:0', index: 0, delta: 'Think.', kind: 'text' },
      { type: 'reasoning-delta', id: 'rs_1:text:0', index: 0, delta: ' More.', kind: 'text' },
      { type: 'reasoning-end', id: 'rs_1:text:0', index: 0 },
      { type: 'text-start', id: 'msg_1' },
      { type: 'text-delta', id: 'msg_1', delta: 'Answer.' },
      { type: 'text-end', id: 'msg_1', text: 'Answer.' },
      { type: 'finish', reason: 'stop' },
    ]);
  });

  it('encrypted reasoning without summary text gets an entry of its own', () => {
    const item = { id: 'rs_2', type: 'reasoning', summary: [], encrypted_content: 'gAAA' };
    expect(decode([created, { type: 'response.output_item.done', item }])).toEqual([
      start,
      { type: 'reasoning-start', id: 'rs_2:encrypted', index: 0 },
      { type: 'reasoning-end', id: 'rs_2:encrypted', index: 0, redacted: ['gAAA'] },
    ]);
  });

  it('an unknown event type warns once; a half-streamed tool call at EOF is dropped; nothing after a terminal', () => {
    const item = { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'add' };
    const unknown = { type: 'response.audio.delta', delta: 'AAA' };
    expect(
      decode([
        created,
        unknown,
        unknown,
        { type: 'response.output_item.added', output_index: 0, item },
        { type: 'response.function_call_arguments.delta', item_id: 'fc_1', delta: '{"a"' },
      ]),
    ).toEqual([
      start,
      {
        type: 'warning',
        code: 'unknown-event',
        message: 'OpenAI Responses event "response.audio.delta" is not decoded; it was skipped.',
      },
      { type: 'tool-input-start', id: 'call_1', name: 'add', index: 0 },
      { type: 'tool-input-delta', id: 'call_1', delta: '{"a"' },
    ]);
    expect(
      decode([
        created,
        completed,
        { type: 'response.output_text.delta', item_id: 'm', delta: 'late' },
      ]).at(-1),
    ).toEqual({
      type: 'completed',
      finishReason: 'stop',
    });
  });

  it('malformed JSON and a known event of the wrong shape throw malformed-event', () => {
    const decoder = createOpenAIResponsesDecoder();
    expect(() => decoder.next({ data: '{"type":' }, () => undefined)).toThrow(
      expect.objectContaining({ code: 'malformed-event', provider: 'openai-responses' }),
    );
    expect(() => decode([{ type: 'response.output_text.delta', item_id: 'm' }])).toThrow(
      expect.objectContaining({ code: 'malformed-event' }),
    );
  });

  it('the operator form decodes SSE messages (one decoder state per subscription)', async () => {
    const messages = [created, completed].map((payload) => ({ data: JSON.stringify(payload) }));
    const operator = decodeOpenAIResponses();
    const twice = [
      await collect(from(messages).pipe(operator)),
      await collect(from(messages).pipe(operator)),
    ];
    for (const events of twice)
      expect(events).toEqual([
        start,
        { type: 'finish', reason: 'stop' },
        { type: 'completed', finishReason: 'stop' },
      ]);
  });
});
