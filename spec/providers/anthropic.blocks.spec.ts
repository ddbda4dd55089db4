import type { StreamEvent } from '../../src/events';
import { createAnthropicDecoder } from '../../src/providers/anthropic';
import type { Emit } from '../../src/providers/decoder';

// decodeAnthropic's content blocks, case by case: what a block carries on its start, empty
// deltas, deltas that do not fit their block, and tool input that came whole.

/** Runs the pure decoder over payload objects after a message_start of `msg_1`. */
function decode(payloads: object[]): StreamEvent[] {
  const events: StreamEvent[] = [];
  const emit: Emit = (event) => events.push(event);
  const decoder = createAnthropicDecoder();
  for (const payload of [messageStart, ...payloads])
    decoder.next(
      { event: (payload as { type: string }).type, data: JSON.stringify(payload) },
      emit,
    );
  decoder.complete(emit);
  return events.slice(1);
}

const messageStart = { type: 'message_start', message: { id: 'msg_1', model: 'claude' } };
const blockStart = (index: number, contentBlock: object) => ({
  type: 'content_block_start',
  index,
  content_block: contentBlock,
});
const delta = (index: number, fields: object) => ({
  type: 'content_block_delta',
  index,
  delta: fields,
});
const stop = (index: number) => ({ type: 'content_block_stop', index });
const skipped = (message: string) => ({
  type: 'warning',
  code: 'unknown-event',
  message: `${message}; it was skipped.`,
});

describe('decodeAnthropic content blocks', () => {
  it('a text block without any text starts and ends nothing; empty deltas emit nothing', () => {
    expect(
      decode([
        blockStart(0, { type: 'text', text: '' }),
        delta(0, { type: 'text_delta', text: '' }),
        stop(0),
        blockStart(1, { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }),
        delta(1, { type: 'input_json_delta', partial_json: '' }),
        delta(1, { type: 'input_json_delta', partial_json: '{}' }),
        stop(1),
      ]),
    ).toEqual([
      { type: 'tool-input-start', id: 'toolu_1', name: 'f', index: 1 },
      { type: 'tool-input-delta', id: 'toolu_1', delta: '{}' },
      { type: 'tool-call', id: 'toolu_1', name: 'f', input: {}, inputText: '{}' },
    ]);
  });

  it('text and thinking on a block start are its first delta; the start signature is kept', () => {
    expect(
      decode([
        blockStart(0, { type: 'thinking', thinking: 'First', signature: 'S0' }),
        delta(0, { type: 'signature_delta', signature: 'S1' }),
        stop(0),
        blockStart(1, { type: 'text', text: 'Hello' }),
        stop(1),
      ]),
    ).toEqual([
      { type: 'reasoning-start', id: 'msg_1:0', index: 0 },
      { type: 'reasoning-delta', id: 'msg_1:0', index: 0, delta: 'First', kind: 'text' },
      { type: 'reasoning-end', id: 'msg_1:0', index: 0, signature: 'S0S1' },
      { type: 'text-start', id: 'msg_1:1' },
      { type: 'text-delta', id: 'msg_1:1', delta: 'Hello' },
      { type: 'text-end', id: 'msg_1:1' },
    ]);
  });

  it('a thinking block without signature ends without one; a delta is read for its own field only', () => {
    expect(
      decode([
        blockStart(0, { type: 'thinking' }),
        delta(0, { type: 'thinking_delta', thinking: 'Hm', text: 'not text' }),
        stop(0),
        blockStart(1, { type: 'text', text: '' }),
        delta(1, { type: 'text_delta', text: '', partial_json: '{}' }),
        stop(1),
      ]),
    ).toStrictEqual([
      { type: 'reasoning-start', id: 'msg_1:0', index: 0 },
      { type: 'reasoning-delta', id: 'msg_1:0', index: 0, delta: 'Hm', kind: 'text' },
      { type: 'reasoning-end', id: 'msg_1:0', index: 0 },
    ]);
  });

  it('redacted thinking without data, a tool_use without name or input', () => {
    expect(
      decode([
        blockStart(0, { type: 'redacted_thinking' }),
        stop(0),
        blockStart(1, { type: 'tool_use', id: 'toolu_1' }),
        stop(1),
        blockStart(2, { type: 'tool_use', id: 'toolu_2', name: 'g', input: null }),
        stop(2),
        blockStart(3, { type: 'tool_use', id: 'toolu_3', name: 'h', input: 'x' }),
        stop(3),
      ]),
    ).toEqual([
      { type: 'reasoning-start', id: 'msg_1:0', index: 0 },
      { type: 'reasoning-end', id: 'msg_1:0', index: 0, redacted: [''] },
      { type: 'tool-input-start', id: 'toolu_1', name: '', index: 1 },
      { type: 'tool-call', id: 'toolu_1', name: '', input: {}, inputText: '' },
      { type: 'tool-input-start', id: 'toolu_2', name: 'g', index: 2 },
      { type: 'tool-call', id: 'toolu_2', name: 'g', input: {}, inputText: '' },
      { type: 'tool-input-start', id: 'toolu_3', name: 'h', index: 3 },
      { type: 'tool-call', id: 'toolu_3', name: 'h', input: {}, inputText: '' },
    ]);
  });

  it('tool input that came whole on the block start is its one delta; streamed input wins over it', () => {
    expect(
      decode([
        blockStart(0, { type: 'tool_use', id: 'toolu_1', name: 'f', input: { city: 'Oslo' } }),
        stop(0),
        blockStart(1, { type: 'tool_use', id: 'toolu_2', name: 'g', input: { stale: true } }),
        delta(1, { type: 'input_json_delta', partial_json: '{"x":2}' }),
        stop(1),
      ]),
    ).toEqual([
      { type: 'tool-input-start', id: 'toolu_1', name: 'f', index: 0 },
      { type: 'tool-input-delta', id: 'toolu_1', delta: '{"city":"Oslo"}' },
      {
        type: 'tool-call',
        id: 'toolu_1',
        name: 'f',
        input: { city: 'Oslo' },
        inputText: '{"city":"Oslo"}',
      },
      { type: 'tool-input-start', id: 'toolu_2', name: 'g', index: 1 },
      { type: 'tool-input-delta', id: 'toolu_2', delta: '{"x":2}' },
      { type: 'tool-call', id: 'toolu_2', name: 'g', input: { x: 2 }, inputText: '{"x":2}' },
    ]);
  });

  it('a delta for no open block, or for a block of another kind, warns once per pair', () => {
    expect(
      decode([
        delta(5, { type: 'text_delta', text: 'lost' }),
        delta(6, { type: 'text_delta', text: 'lost again' }),
        blockStart(0, { type: 'thinking', thinking: '' }),
        delta(0, { type: 'text_delta', text: 'not thinking' }),
        blockStart(1, { type: 'tool_use', id: 'toolu_1', name: 'f' }),
        delta(1, { type: 'text_delta', text: 'not json' }),
        delta(1, { type: 'signature_delta', signature: 'sig' }),
        stop(0),
        stop(1),
      ]),
    ).toEqual([
      skipped('Anthropic sent "text_delta" for no open block (index 5)'),
      { type: 'reasoning-start', id: 'msg_1:0', index: 0 },
      skipped('Anthropic sent "text_delta" for a thinking block (index 0)'),
      { type: 'tool-input-start', id: 'toolu_1', name: 'f', index: 1 },
      skipped('Anthropic sent "text_delta" for a tool block (index 1)'),
      skipped('Anthropic sent "signature_delta" for a tool block (index 1)'),
      { type: 'reasoning-end', id: 'msg_1:0', index: 0 },
      { type: 'tool-call', id: 'toolu_1', name: 'f', input: {}, inputText: '' },
    ]);
  });

  it('a delta type named like an inherited property is an unknown delta, not a kind', () => {
    expect(
      decode([
        blockStart(0, { type: 'text', text: '' }),
        delta(0, { type: 'toString' }),
        delta(0, { type: 'constructor' }),
        stop(0),
      ]),
    ).toEqual([
      skipped('Anthropic delta "toString" is not decoded'),
      skipped('Anthropic delta "constructor" is not decoded'),
    ]);
  });

  it('a stop for a block that never started warns once; a stopped block takes no more deltas', () => {
    expect(
      decode([
        stop(4),
        stop(4),
        blockStart(0, { type: 'text', text: 'A' }),
        stop(0),
        delta(0, { type: 'text_delta', text: 'B' }),
        stop(0),
      ]),
    ).toEqual([
      skipped('Anthropic stopped block 4, which never started'),
      { type: 'text-start', id: 'msg_1:0' },
      { type: 'text-delta', id: 'msg_1:0', delta: 'A' },
      { type: 'text-end', id: 'msg_1:0' },
      skipped('Anthropic sent "text_delta" for no open block (index 0)'),
    ]);
  });
});
