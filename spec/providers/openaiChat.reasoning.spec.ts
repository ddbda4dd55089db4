import type { StreamEvent } from '../../src/events';
import { chunk, decode, sse } from './openaiChatHelpers';

// Reasoning of an OpenAI-compatible stream, rule by rule: which fields count once, which
// details carry text, what `reasoning-end` keeps, and the warning for an unknown detail type.

const delta = (fields: object) => chunk({ delta: fields, finish_reason: null });
const details = (...entries: object[]) => delta({ reasoning_details: entries });
const ofType = (events: StreamEvent[], ...types: string[]) =>
  events.filter((event) => types.includes(event.type));
const reasoning = (d: string, index = 0, kind = 'text') => ({
  type: 'reasoning-delta',
  id: `r:reasoning:${index}`,
  index,
  delta: d,
  kind,
});
const START = { type: 'response-start', provider: 'openai-chat', id: 'r', model: 'm' };
const unknownDetail = (type: string) => ({
  type: 'warning',
  code: 'unknown-field',
  message: `The openai-chat decoder does not know the reasoning detail type "${type}"; it was ignored.`,
  detail: { field: 'reasoning_details', type },
});

describe('decodeOpenAIChat plain reasoning fields', () => {
  it('reasoning_text equal to reasoning_content or to reasoning counts once', async () => {
    const events = await decode(
      sse(
        delta({ reasoning_content: 'a', reasoning_text: 'a' }),
        delta({ reasoning: 'b', reasoning_text: 'b' }),
        delta({ reasoning_content: 'c', reasoning: 'd', reasoning_text: 'e' }),
        '[DONE]',
      ),
    );
    expect(ofType(events, 'reasoning-delta')).toEqual(
      ['a', 'b', 'c', 'd', 'e'].map((d) => reasoning(d)),
    );
  });

  it('plain reasoning after text takes the index after the highest used, not the last', async () => {
    const events = await decode(
      sse(
        details({ type: 'reasoning.text', text: 'two', index: 2 }),
        details({ type: 'reasoning.text', text: 'zero', index: 0 }),
        delta({ content: 'T' }),
        delta({ reasoning_content: 'next' }),
        '[DONE]',
      ),
    );
    expect(ofType(events, 'reasoning-start')).toEqual([
      { type: 'reasoning-start', id: 'r:reasoning:2', index: 2 },
      { type: 'reasoning-start', id: 'r:reasoning:0', index: 0 },
      { type: 'reasoning-start', id: 'r:reasoning:3', index: 3 },
    ]);
  });
});

describe('decodeOpenAIChat reasoning_details that carry no text', () => {
  it('empty summary, null encrypted data and a null signature start nothing', async () => {
    const events = await decode(
      sse(
        details(
          { type: 'reasoning.summary', summary: '' },
          { type: 'reasoning.encrypted', data: null },
          { type: 'reasoning.encrypted', data: '' },
          { type: 'reasoning.text', text: '', signature: null },
          { type: 'reasoning.text', text: null, signature: '' },
        ),
        '[DONE]',
      ),
    );
    expect(events).toEqual([START, { type: 'completed' }]);
  });

  it('a summary detail replaces the plain copy; encrypted data does not', async () => {
    const events = await decode(
      sse(
        delta({
          reasoning: 'S',
          reasoning_details: [{ type: 'reasoning.summary', summary: 'S', index: 0 }],
        }),
        delta({
          reasoning: 'P',
          reasoning_details: [{ type: 'reasoning.encrypted', data: 'gAAA', index: 0 }],
        }),
        '[DONE]',
      ),
    );
    expect(ofType(events, 'reasoning-delta', 'reasoning-end')).toStrictEqual([
      reasoning('S', 0, 'summary'),
      reasoning('P'),
      { type: 'reasoning-end', id: 'r:reasoning:0', index: 0, redacted: ['gAAA'] },
    ]);
  });

  it('reasoning-end has only the keys the entry collected', async () => {
    const events = await decode(
      sse(
        details(
          { type: 'reasoning.text', text: 'a', index: 0 },
          { type: 'reasoning.text', text: 'b', index: 1, signature: 'sig' },
          { type: 'reasoning.encrypted', data: 'gAAA', index: 2 },
          { type: 'reasoning.text', text: 'd', index: 3, format: 'f' },
        ),
        delta({ content: 'T' }),
        '[DONE]',
      ),
    );
    expect(ofType(events, 'reasoning-end')).toStrictEqual([
      { type: 'reasoning-end', id: 'r:reasoning:0', index: 0 },
      { type: 'reasoning-end', id: 'r:reasoning:1', index: 1, signature: 'sig' },
      { type: 'reasoning-end', id: 'r:reasoning:2', index: 2, redacted: ['gAAA'] },
      { type: 'reasoning-end', id: 'r:reasoning:3', index: 3, format: 'f' },
    ]);
  });
});

describe('decodeOpenAIChat unknown reasoning detail types', () => {
  it('warn once per type, are ignored whole, and leave the plain copy in place', async () => {
    const events = await decode(
      sse(
        delta({
          reasoning: 'x',
          reasoning_details: [{ type: 'reasoning.audio', text: 'no', signature: 'sig', index: 0 }],
        }),
        details({ type: 'reasoning.audio', text: 'no' }, { type: 'reasoning.image' }),
        '[DONE]',
      ),
    );
    expect(events).toStrictEqual([
      START,
      unknownDetail('reasoning.audio'),
      { type: 'reasoning-start', id: 'r:reasoning:0', index: 0 },
      reasoning('x'),
      unknownDetail('reasoning.image'),
      { type: 'reasoning-end', id: 'r:reasoning:0', index: 0 },
      { type: 'completed' },
    ]);
  });
});
