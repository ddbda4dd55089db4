import { chunk, decode, sse } from './openaiChatHelpers';

const START = { type: 'response-start', provider: 'openai-chat', id: 'r', model: 'm' };
const delta = (fields: object, finish: string | null = null) =>
  chunk({ delta: fields, finish_reason: finish });
const text = (d: string) => ({ type: 'text-delta', id: 'r:text', delta: d });
const reasoning = (d: string, index = 0, kind = 'text', id = `r:reasoning:${index}`) => ({
  type: 'reasoning-delta',
  id,
  index,
  delta: d,
  kind,
});

describe('decodeOpenAIChat reasoning', () => {
  it('emits OpenRouter reasoning + reasoning_details of one chunk once', async () => {
    const both = (t: string) =>
      delta({
        content: '',
        reasoning: t,
        reasoning_details: [{ type: 'reasoning.text', text: t }],
      });
    const events = await decode(sse(both('a'), both('b'), delta({}, 'stop'), '[DONE]'));
    expect(events.filter((e) => e.type === 'reasoning-delta')).toEqual([
      reasoning('a'),
      reasoning('b'),
    ]);
  });

  it('emits vLLM reasoning and reasoning_content with the same text once; reasoning_text too', async () => {
    const events = await decode(
      sse(
        delta({ reasoning: 'x', reasoning_content: 'x' }),
        delta({ reasoning_text: 'y' }),
        '[DONE]',
      ),
    );
    expect(events.filter((e) => e.type === 'reasoning-delta')).toEqual([
      reasoning('x'),
      reasoning('y'),
    ]);
  });

  it('keeps signature, encrypted data and format on reasoning-end; summary kind', async () => {
    const events = await decode(
      sse(
        delta({
          reasoning_details: [
            {
              type: 'reasoning.summary',
              summary: 'Plan.',
              index: 0,
              format: 'openai-responses-v1',
            },
            { type: 'reasoning.encrypted', data: 'gAAA==', index: 1 },
          ],
        }),
        delta({ reasoning_details: [{ type: 'reasoning.text', signature: 'sig', index: 0 }] }),
        delta({ content: 'Hi' }),
        '[DONE]',
      ),
    );
    expect(events.slice(0, 7)).toEqual([
      START,
      { type: 'reasoning-start', id: 'r:reasoning:0', index: 0 },
      reasoning('Plan.', 0, 'summary'),
      { type: 'reasoning-start', id: 'r:reasoning:1', index: 1 },
      {
        type: 'reasoning-end',
        id: 'r:reasoning:0',
        index: 0,
        signature: 'sig',
        format: 'openai-responses-v1',
      },
      { type: 'reasoning-end', id: 'r:reasoning:1', index: 1, redacted: ['gAAA=='] },
      { type: 'text-start', id: 'r:text' },
    ]);
  });

  it('treats reasoning after text as a new entry with the next index', async () => {
    const events = await decode(
      sse(
        delta({ reasoning_content: 'a' }),
        delta({ content: 'T' }),
        delta({ reasoning_content: 'b' }),
        delta({ content: 'U' }),
        '[DONE]',
      ),
    );
    expect(events.slice(1, 11)).toEqual([
      { type: 'reasoning-start', id: 'r:reasoning:0', index: 0 },
      reasoning('a'),
      { type: 'reasoning-end', id: 'r:reasoning:0', index: 0 },
      { type: 'text-start', id: 'r:text' },
      text('T'),
      { type: 'reasoning-start', id: 'r:reasoning:1', index: 1 },
      reasoning('b', 1),
      { type: 'reasoning-end', id: 'r:reasoning:1', index: 1 },
      text('U'),
      { type: 'text-end', id: 'r:text' },
    ]);
  });

  it('reopens a details index that ended with a new id', async () => {
    const detail = (t: string) =>
      delta({ reasoning_details: [{ type: 'reasoning.text', text: t }] });
    const events = await decode(sse(detail('a'), delta({ content: 'T' }), detail('b'), '[DONE]'));
    expect(events.filter((e) => e.type === 'reasoning-delta')).toEqual([
      reasoning('a'),
      reasoning('b', 0, 'text', 'r:reasoning:0:1'),
    ]);
  });
});

describe('decodeOpenAIChat tool calls', () => {
  const call = (index: number, fn: object, id?: string) =>
    delta({ tool_calls: [{ index, ...(id ? { id } : {}), function: fn }] });

  it('keeps arguments that arrive before the name; derives a missing id from the index', async () => {
    const events = await decode(
      sse(call(0, { arguments: '{"a"' }), call(0, { name: 'f', arguments: ':1}' }), '[DONE]'),
    );
    expect(events.slice(1)).toEqual([
      { type: 'tool-input-start', id: 'r:tool:0', name: 'f', index: 0 },
      { type: 'tool-input-delta', id: 'r:tool:0', delta: '{"a":1}' },
      { type: 'tool-call', id: 'r:tool:0', name: 'f', input: { a: 1 }, inputText: '{"a":1}' },
      { type: 'completed' },
    ]);
  });

  it('reports invalid JSON arguments with error and inputText; empty arguments are {}', async () => {
    const events = await decode(
      sse(
        call(0, { name: 'broken', arguments: '{"a":' }, 'c0'),
        call(1, { name: 'noArgs', arguments: '' }, 'c1'),
        delta({}, 'tool_calls'),
      ),
    );
    const calls = events.filter((e) => e.type === 'tool-call');
    expect(calls).toEqual([
      {
        type: 'tool-call',
        id: 'c0',
        name: 'broken',
        input: null,
        inputText: '{"a":',
        error: expect.stringMatching(/^Tool call c0: the arguments are not valid JSON \(/),
      },
      { type: 'tool-call', id: 'c1', name: 'noArgs', input: {}, inputText: '' },
    ]);
    expect(events.at(-1)).toEqual({ type: 'completed', finishReason: 'tool-calls' });
  });

  it('ends open reasoning when a tool call starts', async () => {
    const events = await decode(sse(delta({ reasoning: 'r' }), call(0, { name: 'f' }, 'c')));
    expect(events.slice(3, 5).map((e) => e.type)).toEqual(['reasoning-end', 'tool-input-start']);
  });
});
