import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { from } from 'rxjs';
import type { StreamEvent } from '../../src/events';
import { createAnthropicDecoder, decodeAnthropic } from '../../src/providers/anthropic';
import { streamEvents } from '../../src/streamEvents';
import { collect } from '../helpers/bytes';
import { decodePayloads } from './decoderSupport';

const eventsOf = (name: string) =>
  collect(
    streamEvents(
      new Response(readFileSync(join(__dirname, '../../fixtures/anthropic', name)), {
        headers: { 'content-type': 'text/event-stream' },
      }),
    ),
  );

/** Runs the pure decoder over payload objects (one SSE message each, named by their type). */
const decode = (payloads: object[], { complete = true } = {}): StreamEvent[] =>
  decodePayloads(createAnthropicDecoder(), payloads, { complete, named: true });

const messageStart = {
  type: 'message_start',
  message: { id: 'msg_1', model: 'claude', usage: { input_tokens: 10, output_tokens: 1 } },
};
const start = { type: 'response-start', provider: 'anthropic', id: 'msg_1', model: 'claude' };
const textBlock = [
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } },
  { type: 'content_block_stop', index: 0 },
];
const stopWith = (stopReason: string) => [
  { type: 'message_delta', delta: { stop_reason: stopReason }, usage: { output_tokens: 5 } },
  { type: 'message_stop' },
];
const usage = { inputTokens: 120, outputTokens: 57, cachedInputTokens: 30 };

describe('decodeAnthropic', () => {
  it('decodes thinking + signature, redacted thinking, text with a char_location citation, a tool without input', async () => {
    expect(await eventsOf('thinking-redacted-text-tool.sse')).toEqual([
      { type: 'response-start', provider: 'anthropic', id: 'msg_fx1', model: 'claude-sonnet-4-5' },
      { type: 'reasoning-start', id: 'msg_fx1:0', index: 0 },
      { type: 'reasoning-delta', id: 'msg_fx1:0', index: 0, delta: 'Check the list', kind: 'text' },
      { type: 'reasoning-delta', id: 'msg_fx1:0', index: 0, delta: ' first.', kind: 'text' },
      { type: 'reasoning-end', id: 'msg_fx1:0', index: 0, signature: 'EqQBCkYsig==' },
      { type: 'reasoning-start', id: 'msg_fx1:1', index: 1 },
      {
        type: 'reasoning-end',
        id: 'msg_fx1:1',
        index: 1,
        redacted: ['EmwKAhgBEgy3va3pzix/LafPsn4a'],
      },
      { type: 'text-start', id: 'msg_fx1:2' },
      { type: 'text-delta', id: 'msg_fx1:2', delta: 'Refreshing the list.' },
      { type: 'citation', text: 'list', start: 0, end: 4 },
      { type: 'text-end', id: 'msg_fx1:2' },
      { type: 'tool-input-start', id: 'toolu_fx1', name: 'refreshList', index: 3 },
      { type: 'tool-call', id: 'toolu_fx1', name: 'refreshList', input: {}, inputText: '' },
      { type: 'usage', ...usage },
      { type: 'finish', reason: 'tool-calls', raw: 'tool_use' },
      { type: 'completed', finishReason: 'tool-calls', usage },
    ]);
  });

  it('overloaded_error mid-stream (JSON padded with whitespace) → the text so far, then one retryable failed', async () => {
    expect(await eventsOf('overloaded-error-mid-stream.sse')).toEqual([
      { type: 'response-start', provider: 'anthropic', id: 'msg_fx1', model: 'claude-sonnet-4-5' },
      { type: 'text-start', id: 'msg_fx1:0' },
      { type: 'text-delta', id: 'msg_fx1:0', delta: 'Let me think' },
      { type: 'text-delta', id: 'msg_fx1:0', delta: ' about that' },
      { type: 'text-end', id: 'msg_fx1:0' },
      {
        type: 'failed',
        error: {
          code: 'overloaded_error',
          message: 'Overloaded',
          provider: 'anthropic',
          retryable: true,
        },
      },
    ]);
  });

  it('error retryability: api_error yes, invalid_request_error no', () => {
    const failedOf = (type: string) =>
      decode([messageStart, { type: 'error', error: { type, message: 'm' } }]).at(-1);
    expect(failedOf('api_error')).toEqual({
      type: 'failed',
      error: { code: 'api_error', message: 'm', provider: 'anthropic', retryable: true },
    });
    expect(failedOf('invalid_request_error')).toEqual({
      type: 'failed',
      error: {
        code: 'invalid_request_error',
        message: 'm',
        provider: 'anthropic',
        retryable: false,
      },
    });
  });

  it('a duplicate message_start warns; without message_stop ensureTerminal ends from the finish', async () => {
    expect(await eventsOf('max-tokens-no-message-stop.sse')).toEqual([
      { type: 'response-start', provider: 'anthropic', id: 'msg_fx1', model: 'claude-sonnet-4-5' },
      {
        type: 'warning',
        code: 'duplicate-event',
        message: 'Anthropic sent message_start again; the repeat was ignored.',
      },
      { type: 'text-start', id: 'msg_fx1:0' },
      { type: 'text-delta', id: 'msg_fx1:0', delta: 'Searching…' },
      { type: 'text-end', id: 'msg_fx1:0' },
      { type: 'usage', inputTokens: 120, outputTokens: 2, cachedInputTokens: 30 },
      { type: 'finish', reason: 'length', raw: 'max_tokens' },
      {
        type: 'incomplete',
        reason: 'length',
        message: 'The model stopped at its output token limit.',
      },
    ]);
  });

  it.each([
    [
      'end_turn',
      'stop',
      { type: 'completed', finishReason: 'stop', usage: { inputTokens: 10, outputTokens: 5 } },
    ],
    [
      'stop_sequence',
      'stop',
      { type: 'completed', finishReason: 'stop', usage: { inputTokens: 10, outputTokens: 5 } },
    ],
    [
      'tool_use',
      'tool-calls',
      {
        type: 'completed',
        finishReason: 'tool-calls',
        usage: { inputTokens: 10, outputTokens: 5 },
      },
    ],
    [
      'pause_turn',
      'other',
      {
        type: 'incomplete',
        reason: 'pause-turn',
        message:
          'Anthropic paused the turn (stop_reason pause_turn) during a long server tool run; send the response back as the assistant turn to let the model continue.',
      },
    ],
    [
      'max_tokens',
      'length',
      {
        type: 'incomplete',
        reason: 'length',
        message: 'The model stopped at its output token limit.',
      },
    ],
    [
      'refusal',
      'content-filter',
      {
        type: 'incomplete',
        reason: 'content-filter',
        message: 'The provider stopped the response with its content filter.',
      },
    ],
  ])('stop_reason %s → finish %s and its terminal', (raw, reason, terminal) => {
    expect(decode([messageStart, ...textBlock, ...stopWith(raw)]).slice(-3)).toEqual([
      { type: 'usage', inputTokens: 10, outputTokens: 5 },
      { type: 'finish', reason, raw },
      terminal,
    ]);
  });

  it('streams tool input by block index, parallel calls keep their own input', () => {
    const tool = (index: number, id: string) => ({
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id, name: `f${index}`, input: {} },
    });
    const json = (index: number, partial: string) => ({
      type: 'content_block_delta',
      index,
      delta: { type: 'input_json_delta', partial_json: partial },
    });
    const events = decode([
      messageStart,
      tool(0, 'toolu_a'),
      tool(1, 'toolu_b'),
      json(1, '{"b":'),
      json(0, '{"a":1}'),
      json(1, '2}'),
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_stop', index: 0 },
    ]);
    expect(events.filter((e) => e.type === 'tool-call')).toEqual([
      { type: 'tool-call', id: 'toolu_b', name: 'f1', input: { b: 2 }, inputText: '{"b":2}' },
      { type: 'tool-call', id: 'toolu_a', name: 'f0', input: { a: 1 }, inputText: '{"a":1}' },
    ]);
  });

  it('server tools: tool-start with the whole input at its stop, tool-end with the result block, providerExecuted; never client tool calls; compaction warns; ping ignored', () => {
    const events = decode([
      messageStart,
      { type: 'ping' },
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} },
      },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: '{"q":"x"}' },
      },
      { type: 'content_block_stop', index: 0 },
      {
        type: 'content_block_start',
        index: 1,
        content_block: {
          type: 'web_search_tool_result',
          tool_use_id: 'srvtoolu_1',
          content: [
            { type: 'web_search_result', url: 'https://a.example', encrypted_content: 'E1' },
          ],
        },
      },
      { type: 'content_block_stop', index: 1 },
      {
        type: 'content_block_start',
        index: 2,
        content_block: { type: 'compaction', content: null },
      },
      {
        type: 'content_block_delta',
        index: 2,
        delta: { type: 'compaction_delta', content: 'summary' },
      },
      {
        type: 'content_block_delta',
        index: 2,
        delta: { type: 'compaction_delta', content: 'more' },
      },
      { type: 'content_block_stop', index: 2 },
    ]);
    expect(events).toEqual([
      start,
      {
        type: 'tool-start',
        id: 'srvtoolu_1',
        name: 'web_search',
        args: { q: 'x' },
        providerExecuted: true,
      },
      {
        type: 'tool-end',
        id: 'srvtoolu_1',
        name: 'web_search',
        result: [{ type: 'web_search_result', url: 'https://a.example', encrypted_content: 'E1' }],
        isError: false,
        providerExecuted: true,
      },
      {
        type: 'warning',
        code: 'unknown-event',
        message: 'Anthropic content block "compaction" is not client content; it was skipped.',
      },
      {
        type: 'warning',
        code: 'unknown-event',
        message: 'Anthropic delta "compaction_delta" is not decoded; it was skipped.',
      },
    ]);
  });

  it('EOF inside a thinking block ends it with its signature; an open tool call is dropped', () => {
    expect(
      decode([
        messageStart,
        {
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'thinking', thinking: '', signature: '' },
        },
        {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'thinking_delta', thinking: 'Hmm' },
        },
        {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'signature_delta', signature: 'sig' },
        },
        {
          type: 'content_block_start',
          index: 1,
          content_block: { type: 'tool_use', id: 'toolu_x', name: 'f', input: {} },
        },
      ]),
    ).toEqual([
      start,
      { type: 'reasoning-start', id: 'msg_1:0', index: 0 },
      { type: 'reasoning-delta', id: 'msg_1:0', index: 0, delta: 'Hmm', kind: 'text' },
      { type: 'tool-input-start', id: 'toolu_x', name: 'f', index: 1 },
      { type: 'reasoning-end', id: 'msg_1:0', index: 0, signature: 'sig' },
    ]);
  });

  it('an unknown event type warns once; nothing is decoded after message_stop', () => {
    const events = decode([
      messageStart,
      { type: 'message_annotation', x: 1 },
      { type: 'message_annotation', x: 2 },
      ...textBlock,
      { type: 'message_stop' },
      ...textBlock,
    ]);
    expect(events).toEqual([
      start,
      {
        type: 'warning',
        code: 'unknown-event',
        message: 'Anthropic event "message_annotation" is not decoded; it was skipped.',
      },
      { type: 'text-start', id: 'msg_1:0' },
      { type: 'text-delta', id: 'msg_1:0', delta: 'Hi' },
      { type: 'text-end', id: 'msg_1:0' },
      { type: 'completed' },
    ]);
  });

  it('malformed JSON throws malformed-event; the operator form decodes messages', async () => {
    expect(() =>
      createAnthropicDecoder().next({ data: '{"type":"ping"' }, () => undefined),
    ).toThrow(expect.objectContaining({ code: 'malformed-event', provider: 'anthropic' }));
    const messages = [messageStart, ...stopWith('end_turn')].map((p) => ({
      data: JSON.stringify(p),
    }));
    expect(await collect(from(messages).pipe(decodeAnthropic()))).toEqual([
      start,
      { type: 'usage', inputTokens: 10, outputTokens: 5 },
      { type: 'finish', reason: 'stop', raw: 'end_turn' },
      { type: 'completed', finishReason: 'stop', usage: { inputTokens: 10, outputTokens: 5 } },
    ]);
  });
});
