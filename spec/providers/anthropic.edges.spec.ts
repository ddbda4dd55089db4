import type { StreamEvent } from '../../src/events';
import { createAnthropicDecoder } from '../../src/providers/anthropic';
import { decodePayloads } from './decoderSupport';

// decodeAnthropic at the edges of a message: missing ids, repeated deltas, terminals with
// blocks still open, and what follows a terminal.

/** Runs the pure decoder over payload objects (one SSE message each, named by their type). */
const decode = (payloads: object[], { complete = true } = {}): StreamEvent[] =>
  decodePayloads(createAnthropicDecoder(), payloads, { complete, named: true });

const messageStart = { type: 'message_start', message: { id: 'msg_1', model: 'claude' } };
const start = { type: 'response-start', provider: 'anthropic', id: 'msg_1', model: 'claude' };
const textBlock = (index: number, text: string) => [
  { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index, delta: { type: 'text_delta', text } },
  { type: 'content_block_stop', index },
];
const toolStart = (index: number, id: string) => ({
  type: 'content_block_start',
  index,
  content_block: { type: 'tool_use', id, name: 'f', input: {} },
});
const json = (index: number, partial: string) => ({
  type: 'content_block_delta',
  index,
  delta: { type: 'input_json_delta', partial_json: partial },
});

describe('decodeAnthropic edges', () => {
  it('a message without id or model: response-start has neither, block ids use "message"', () => {
    expect(
      decode([
        { type: 'message_start', message: { id: null, model: null } },
        ...textBlock(0, 'Hi'),
      ]),
    ).toEqual([
      { type: 'response-start', provider: 'anthropic' },
      { type: 'text-start', id: 'message:0' },
      { type: 'text-delta', id: 'message:0', delta: 'Hi' },
      { type: 'text-end', id: 'message:0' },
    ]);
  });

  it('a block before any message_start has a "message" id', () => {
    expect(decode(textBlock(2, 'Hi'))).toEqual([
      { type: 'text-start', id: 'message:2' },
      { type: 'text-delta', id: 'message:2', delta: 'Hi' },
      { type: 'text-end', id: 'message:2' },
    ]);
  });

  it('a message_delta repeating its stop reason gives one finish; usage only when a delta carries it', () => {
    expect(
      decode([
        {
          type: 'message_start',
          message: { id: 'msg_1', model: 'claude', usage: { input_tokens: 4 } },
        },
        { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } },
        { type: 'message_delta', delta: { stop_reason: 'end_turn' } },
        { type: 'message_delta', delta: { stop_reason: null } },
        { type: 'message_delta', delta: {} },
        { type: 'message_stop' },
      ]),
    ).toEqual([
      start,
      { type: 'usage', inputTokens: 4, outputTokens: 2 },
      { type: 'finish', reason: 'stop', raw: 'end_turn' },
      { type: 'completed', finishReason: 'stop', usage: { inputTokens: 4, outputTokens: 2 } },
    ]);
  });

  it('a changed stop reason is a new finish', () => {
    expect(
      decode([
        messageStart,
        { type: 'message_delta', delta: { stop_reason: 'pause_turn' } },
        { type: 'message_delta', delta: { stop_reason: 'end_turn' } },
      ]).filter((event) => event.type === 'finish'),
    ).toEqual([
      { type: 'finish', reason: 'other', raw: 'pause_turn' },
      { type: 'finish', reason: 'stop', raw: 'end_turn' },
    ]);
  });

  it('message_stop without a stop reason is completed with the usage so far', () => {
    expect(
      decode([
        messageStart,
        { type: 'message_delta', usage: { output_tokens: 9 } },
        { type: 'message_stop' },
      ]),
    ).toEqual([
      start,
      { type: 'usage', outputTokens: 9 },
      { type: 'completed', usage: { outputTokens: 9 } },
    ]);
  });

  it('message_stop with a tool call still open finishes it, in index order with an open text', () => {
    expect(
      decode([
        messageStart,
        toolStart(1, 'toolu_1'),
        json(1, '{"a":1}'),
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'Hi' } },
        { type: 'message_delta', delta: { stop_reason: 'tool_use' } },
        { type: 'message_stop' },
      ]),
    ).toEqual([
      start,
      { type: 'tool-input-start', id: 'toolu_1', name: 'f', index: 1 },
      { type: 'tool-input-delta', id: 'toolu_1', delta: '{"a":1}' },
      { type: 'text-start', id: 'msg_1:0' },
      { type: 'text-delta', id: 'msg_1:0', delta: 'Hi' },
      { type: 'finish', reason: 'tool-calls', raw: 'tool_use' },
      { type: 'text-end', id: 'msg_1:0' },
      { type: 'tool-call', id: 'toolu_1', name: 'f', input: { a: 1 }, inputText: '{"a":1}' },
      { type: 'completed', finishReason: 'tool-calls' },
    ]);
  });

  it('an error with a tool call open drops the call; nothing is decoded after the error', () => {
    expect(
      decode([
        messageStart,
        toolStart(0, 'toolu_1'),
        json(0, '{"a":'),
        { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
        json(0, '1}'),
        { type: 'content_block_stop', index: 0 },
        ...textBlock(1, 'late'),
        { type: 'message_stop' },
      ]),
    ).toEqual([
      start,
      { type: 'tool-input-start', id: 'toolu_1', name: 'f', index: 0 },
      { type: 'tool-input-delta', id: 'toolu_1', delta: '{"a":' },
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
});
