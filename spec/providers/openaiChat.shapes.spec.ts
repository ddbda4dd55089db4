import type { StreamEvent } from '../../src/events';
import { chunk, decode, sse } from './openaiChatHelpers';

// The rules behind the issue-13 fixtures (spec/providers/wireShapes.spec.ts), case by case.

const delta = (fields: object, finish: string | null = null, extra: object = {}) =>
  chunk({ delta: fields, finish_reason: finish }, extra);
const ofType = (events: StreamEvent[], ...types: string[]) =>
  events.filter((event) => types.includes(event.type));

describe('decodeOpenAIChat tool calls told apart by id', () => {
  const call = (fragment: object) => delta({ tool_calls: [fragment] });

  it('keeps merging fragments that repeat no id, or repeat the same id (Ollama, OpenAI)', async () => {
    const events = await decode(
      sse(
        call({ index: 0, id: 'a', function: { name: 'f', arguments: '{"x":' } }),
        call({ index: 0, function: { arguments: '1' } }),
        call({ index: 0, id: 'a', function: { arguments: '}' } }),
        delta({}, 'tool_calls'),
        '[DONE]',
      ),
    );
    expect(ofType(events, 'tool-call')).toEqual([
      { type: 'tool-call', id: 'a', name: 'f', input: { x: 1 }, inputText: '{"x":1}' },
    ]);
  });

  it('a fragment without index and no id continues the latest call at its position', async () => {
    const events = await decode(
      sse(
        call({ id: 'a', function: { name: 'f', arguments: '' } }),
        call({ function: { arguments: '{}' } }),
        call({ id: 'b', function: { name: 'g', arguments: '[1]' } }),
        delta({}, 'stop'),
        '[DONE]',
      ),
    );
    expect(ofType(events, 'tool-input-start', 'tool-call')).toEqual([
      { type: 'tool-input-start', id: 'a', name: 'f', index: 0 },
      { type: 'tool-input-start', id: 'b', name: 'g', index: 1 },
      { type: 'tool-call', id: 'a', name: 'f', input: {}, inputText: '{}' },
      { type: 'tool-call', id: 'b', name: 'g', input: [1], inputText: '[1]' },
    ]);
  });

  it('a known id continues its call wherever it arrives; an id before the name is adopted', async () => {
    const events = await decode(
      sse(
        call({ index: 0, function: { arguments: '{"a":' } }),
        call({ index: 0, id: 'late', function: { name: 'f' } }),
        call({ index: 0, id: 'second', function: { name: 'g', arguments: '{}' } }),
        call({ index: 3, id: 'late', function: { arguments: '2}' } }),
        delta({}, 'tool_calls'),
        '[DONE]',
      ),
    );
    expect(ofType(events, 'tool-input-start', 'tool-call')).toEqual([
      { type: 'tool-input-start', id: 'late', name: 'f', index: 0 },
      { type: 'tool-input-start', id: 'second', name: 'g', index: 1 },
      { type: 'tool-call', id: 'late', name: 'f', input: { a: 2 }, inputText: '{"a":2}' },
      { type: 'tool-call', id: 'second', name: 'g', input: {}, inputText: '{}' },
    ]);
  });
});

describe('decodeOpenAIChat content as typed parts', () => {
  it('thinking as a string, thinking after text opens the next reasoning index', async () => {
    const events = await decode(
      sse(
        delta({
          content: [
            { type: 'thinking', thinking: 'Plan.' },
            { type: 'text', text: 'A' },
          ],
        }),
        delta({ content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'More.' }] }] }),
        delta({ content: [{ text: 'B' }] }),
        '[DONE]',
      ),
    );
    expect(ofType(events, 'reasoning-delta', 'text-delta', 'text-start')).toEqual([
      { type: 'reasoning-delta', id: 'r:reasoning:0', index: 0, delta: 'Plan.', kind: 'text' },
      { type: 'text-start', id: 'r:text' },
      { type: 'text-delta', id: 'r:text', delta: 'A' },
      { type: 'reasoning-delta', id: 'r:reasoning:1', index: 1, delta: 'More.', kind: 'text' },
      // Reasoning between text does not end the text part: the answer stays one part.
      { type: 'text-delta', id: 'r:text', delta: 'B' },
    ]);
  });

  it('warns once per unknown part type, inner ones included, and loses no text', async () => {
    const image = { type: 'image_url', image_url: { url: 'x' } };
    const events = await decode(
      sse(
        delta({ content: [image, { type: 'text', text: 'Hi' }, image] }),
        delta({ content: [{ type: 'thinking', thinking: [{ type: 'reference', ids: [1] }] }] }),
        delta({ content: [{ type: 'thinking', thinking: [{ type: 'reference', ids: [2] }] }] }),
        '[DONE]',
      ),
    );
    expect(ofType(events, 'warning').map((w) => (w as { detail: unknown }).detail)).toEqual([
      { field: 'delta.content', type: 'image_url' },
      { field: 'delta.content', type: 'thinking.reference' },
    ]);
    expect(ofType(events, 'text-delta')).toEqual([
      { type: 'text-delta', id: 'r:text', delta: 'Hi' },
    ]);
    expect(events.at(-1)).toEqual({ type: 'completed' });
  });
});

describe('decodeOpenAIChat usage wherever the server puts it', () => {
  it('chunk.usage wins over x_groq.usage in one chunk; a changed usage is reported again', async () => {
    const events = await decode(
      sse(
        delta({ content: 'Hi' }, null, { x_groq: { id: 'req' } }),
        delta({}, 'stop', {
          usage: { prompt_tokens: 1, completion_tokens: 2 },
          x_groq: { usage: { prompt_tokens: 7, completion_tokens: 7 } },
        }),
        chunk(null, { usage: { prompt_tokens: 1, completion_tokens: 2 } }),
        chunk(null, { usage: { prompt_tokens: 1, completion_tokens: 3 } }),
        '[DONE]',
      ),
    );
    expect(ofType(events, 'usage', 'completed')).toEqual([
      { type: 'usage', inputTokens: 1, outputTokens: 2 },
      { type: 'usage', inputTokens: 1, outputTokens: 3 },
      { type: 'completed', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 3 } },
    ]);
  });

  it('usage on the choice reaches completed at EOF without [DONE] too', async () => {
    const events = await decode(
      sse(delta({ content: 'Hi' }), delta({}, 'stop', {}), {
        id: 'r',
        choices: [{ index: 0, delta: {}, usage: { prompt_tokens: 4, total_tokens: 9 } }],
      }),
    );
    expect(events.slice(-2)).toEqual([
      { type: 'usage', inputTokens: 4, totalTokens: 9 },
      { type: 'completed', finishReason: 'stop', usage: { inputTokens: 4, totalTokens: 9 } },
    ]);
  });
});
