import type { StreamEvent } from '../../src/events';
import { chunk, decode, sse } from './openaiChatHelpers';

// How `delta.tool_calls[]` fragments become tool calls, case by case.

const fragments = (...tool_calls: object[]) =>
  chunk({ delta: { tool_calls }, finish_reason: null });
const ofType = (events: StreamEvent[], ...types: string[]) =>
  events.filter((event) => types.includes(event.type));

describe('decodeOpenAIChat tool-call fragments', () => {
  it('a call without index with a new id is a new call, even after a call without id', async () => {
    const events = await decode(
      sse(
        fragments({ function: { name: 'f', arguments: '{}' } }),
        fragments({ id: 'b', function: { name: 'g', arguments: '[1]' } }),
        '[DONE]',
      ),
    );
    expect(ofType(events, 'tool-input-start', 'tool-call')).toEqual([
      { type: 'tool-input-start', id: 'r:tool:0', name: 'f', index: 0 },
      { type: 'tool-input-start', id: 'b', name: 'g', index: 1 },
      { type: 'tool-call', id: 'r:tool:0', name: 'f', input: {}, inputText: '{}' },
      { type: 'tool-call', id: 'b', name: 'g', input: [1], inputText: '[1]' },
    ]);
  });

  it('an id that arrives after the call started does not rename it', async () => {
    const events = await decode(
      sse(
        fragments({ index: 0, function: { name: 'f', arguments: '{"a":' } }),
        fragments({ index: 0, id: 'late', function: { arguments: '1}' } }),
        '[DONE]',
      ),
    );
    expect(events.slice(1)).toEqual([
      { type: 'tool-input-start', id: 'r:tool:0', name: 'f', index: 0 },
      { type: 'tool-input-delta', id: 'r:tool:0', delta: '{"a":' },
      { type: 'tool-input-delta', id: 'r:tool:0', delta: '1}' },
      { type: 'tool-call', id: 'r:tool:0', name: 'f', input: { a: 1 }, inputText: '{"a":1}' },
      { type: 'completed' },
    ]);
  });

  it('the first name stands; fragments without function or arguments add nothing', async () => {
    const events = await decode(
      sse(
        fragments({ index: 0, id: 'c' }),
        fragments({ index: 0, function: { name: 'f' } }),
        fragments({ index: 0, function: { name: 'g', arguments: '' } }),
        fragments({ index: 0 }),
        fragments({ index: 0, function: { arguments: '{}' } }),
        fragments({ index: 0, function: { arguments: null } }),
        '[DONE]',
      ),
    );
    expect(events.slice(1)).toEqual([
      { type: 'tool-input-start', id: 'c', name: 'f', index: 0 },
      { type: 'tool-input-delta', id: 'c', delta: '{}' },
      { type: 'tool-call', id: 'c', name: 'f', input: {}, inputText: '{}' },
      { type: 'completed' },
    ]);
  });

  it('emits the tool calls in index order, whatever order they started in', async () => {
    const call = (index: number) => ({
      index,
      id: `c${index}`,
      function: { name: `f${index}`, arguments: `[${index}]` },
    });
    const events = await decode(sse(fragments(call(2)), fragments(call(0), call(1)), '[DONE]'));
    expect(ofType(events, 'tool-call').map((e) => (e as { id: string }).id)).toEqual([
      'c0',
      'c1',
      'c2',
    ]);
  });

  it('a call without name and with invalid arguments names both faults', async () => {
    const events = await decode(
      sse(fragments({ index: 0, function: { arguments: '{' } }), '[DONE]'),
    );
    expect(ofType(events, 'tool-call')).toEqual([
      {
        type: 'tool-call',
        id: 'r:tool:0',
        name: '',
        input: null,
        inputText: '{',
        error: expect.stringMatching(
          /^Tool call r:tool:0: the provider never sent the tool name\. Tool call r:tool:0: the arguments are not valid JSON \(.+\)\.$/,
        ),
      },
    ]);
  });
});
