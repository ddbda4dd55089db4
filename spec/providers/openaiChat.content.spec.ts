import type { StreamEvent } from '../../src/events';
import { chunk, decode, sse } from './openaiChatHelpers';

// `delta.content` as an array of typed parts (Mistral's magistral models), part by part.

const parts = (...content: object[]) => chunk({ delta: { content }, finish_reason: null });
const ofType = (events: StreamEvent[], ...types: string[]) =>
  events.filter((event) => types.includes(event.type));
const unknownPart = (type: string) => ({
  type: 'warning',
  code: 'unknown-field',
  message: `The openai-chat decoder does not know the content part type "${type}"; it was skipped.`,
  detail: { field: 'delta.content', type },
});

describe('decodeOpenAIChat content parts', () => {
  it('empty text and thinking parts start nothing', async () => {
    const events = await decode(
      sse(
        parts({ type: 'text', text: '' }),
        parts({ type: 'thinking', thinking: '' }),
        parts({ type: 'thinking', thinking: [{ type: 'text', text: '' }, { text: '' }] }),
        parts({ type: 'thinking' }, { type: 'thinking', thinking: null }),
        '[DONE]',
      ),
    );
    expect(events).toEqual([
      { type: 'response-start', provider: 'openai-chat', id: 'r', model: 'm' },
      { type: 'completed' },
    ]);
  });

  it('an inner thinking part without a type is text', async () => {
    const events = await decode(
      sse(parts({ type: 'thinking', thinking: [{ text: 'Plan.' }] }), '[DONE]'),
    );
    expect(ofType(events, 'reasoning-delta', 'warning')).toEqual([
      { type: 'reasoning-delta', id: 'r:reasoning:0', index: 0, delta: 'Plan.', kind: 'text' },
    ]);
  });

  it('a part without a type is text when it carries text, else an unknown part', async () => {
    const events = await decode(
      sse(parts({ text: 'A' }, { text: null }, {}, { type: 'image_url' }), '[DONE]'),
    );
    expect(ofType(events, 'text-delta', 'warning')).toEqual([
      { type: 'text-delta', id: 'r:text', delta: 'A' },
      unknownPart('unknown'),
      unknownPart('image_url'),
    ]);
  });

  it('an unknown inner thinking part warns with its own name', async () => {
    const events = await decode(
      sse(parts({ type: 'thinking', thinking: [{ type: 'reference', ids: [1] }] }), '[DONE]'),
    );
    expect(ofType(events, 'warning')).toEqual([unknownPart('thinking.reference')]);
  });
});
