import fc from 'fast-check';
import type { StreamEvent } from '../../src/events';
import { createOpenAIChatDecoder } from '../../src/providers/openaiChat';
import { readPlainDelta } from '../../src/providers/openaiChatSchema';
import { chunk, decode, sse } from './openaiChatHelpers';

/** The events of payloads fed straight to the pure decoder. */
function decodePayloads(payloads: object[]): StreamEvent[] {
  const decoder = createOpenAIChatDecoder();
  const events: StreamEvent[] = [];
  const emit = (event: StreamEvent) => events.push(event);
  for (const payload of payloads) decoder.next({ data: JSON.stringify(payload) }, emit);
  decoder.complete(emit);
  return events;
}

const plainField = fc.constantFrom('', 'a', ' b', 'é🙂', null);
const detail = fc.record(
  {
    type: fc.constantFrom('reasoning.text', 'reasoning.summary', 'reasoning.encrypted', 'x'),
    text: plainField,
    summary: plainField,
    data: plainField,
    signature: fc.constantFrom('sig', null),
    format: fc.constantFrom('unknown', null),
    index: fc.constantFrom(0, 1, 2, null),
  },
  { requiredKeys: ['type'] },
);
const plainDelta = fc.record(
  {
    role: fc.constant('assistant'),
    content: plainField,
    reasoning: plainField,
    reasoning_content: plainField,
    reasoning_text: plainField,
    reasoning_details: fc.array(detail, { maxLength: 3 }),
  },
  { requiredKeys: [] },
);

describe('decodeOpenAIChat fast path', () => {
  it('takes only one-choice text or reasoning deltas without finish, usage or error', () => {
    expect(readPlainDelta(chunk({ delta: { content: 'x' }, finish_reason: null }))).toEqual({
      content: 'x',
    });
    expect(
      readPlainDelta(chunk({ delta: { content: 'x' }, finish_reason: 'stop' })),
    ).toBeUndefined();
    expect(readPlainDelta(chunk({ delta: { content: 1 } }))).toBeUndefined();
    expect(readPlainDelta(chunk({ delta: { content: 'x', audio: {} } }))).toBeUndefined();
    expect(readPlainDelta(chunk({ delta: { content: 'x' } }, { usage: {} }))).toBeUndefined();
    expect(readPlainDelta(chunk({ delta: { content: 'x' } }, { error: 'e' }))).toBeUndefined();
    expect(readPlainDelta(chunk({ index: 1, delta: { content: 'x' } }))).toBeUndefined();
    expect(readPlainDelta([1])).toBeUndefined();
    const detail = (fields: object) => chunk({ delta: { reasoning_details: [fields] } });
    expect(readPlainDelta(detail({ type: 'reasoning.text', text: 'x' }))).toBeDefined();
    expect(readPlainDelta(detail({ text: 'x' }))).toBeUndefined();
    expect(readPlainDelta(detail({ type: 'reasoning.text', text: 2 }))).toBeUndefined();
    expect(readPlainDelta(detail({ type: 'reasoning.text', index: 0.5 }))).toBeUndefined();
  });

  it('gives the same events as the schema path (forced by an empty tool_calls) — property, seed 11', () => {
    fc.assert(
      fc.property(fc.array(plainDelta, { maxLength: 12 }), (deltas) => {
        const fast = deltas.map((d) => chunk({ delta: d, finish_reason: null }));
        const slow = deltas.map((d) => chunk({ delta: { ...d, tool_calls: [] } }));
        expect(decodePayloads(fast)).toEqual(decodePayloads(slow));
      }),
      { seed: 11, numRuns: 300 },
    );
  });

  it('reports a tool call whose name never arrived, with an error', async () => {
    const events = await decode(
      sse(
        chunk({ delta: { tool_calls: [{ index: 0, function: { arguments: '{}' } }] } }),
        '[DONE]',
      ),
    );
    expect(events.slice(1)).toEqual([
      { type: 'tool-input-start', id: 'r:tool:0', name: '', index: 0 },
      { type: 'tool-input-delta', id: 'r:tool:0', delta: '{}' },
      {
        type: 'tool-call',
        id: 'r:tool:0',
        name: '',
        input: {},
        inputText: '{}',
        error: 'Tool call r:tool:0: the provider never sent the tool name.',
      },
      { type: 'completed' },
    ]);
  });
});
