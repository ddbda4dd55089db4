import type { StreamEvent } from '../../src/events';
import { createOpenAIChatDecoder } from '../../src/providers/openaiChat';

// Chunks that look like a plain text delta but carry more (an error, usage, a finish, another
// choice): after the first chunk, each still gives every event it carries.

const first = { id: 'r', model: 'm', choices: [{ index: 0, delta: { content: 'a' } }] };
const content = (text: string, more: object = {}) => ({
  index: 0,
  delta: { content: text },
  ...more,
});

/** The events of `payload` decoded after `first`, or the error it threw. */
function after(payload: unknown): StreamEvent[] | unknown {
  const decoder = createOpenAIChatDecoder();
  const events: StreamEvent[] = [];
  const emit = (event: StreamEvent) => events.push(event);
  decoder.next({ data: JSON.stringify(first) }, emit);
  events.length = 0;
  try {
    decoder.next({ data: JSON.stringify(payload) }, emit);
  } catch (error) {
    return error;
  }
  return events;
}

const x = { type: 'text-delta', id: 'r:text', delta: 'x' };
const textEnd = { type: 'text-end', id: 'r:text' };

describe('decodeOpenAIChat chunks with one text choice and more', () => {
  it('an error object beside the choice fails the stream', () => {
    expect(after({ id: 'r', choices: [content('x')], error: { code: 'server_error' } })).toEqual([
      x,
      textEnd,
      {
        type: 'failed',
        error: {
          code: 'server_error',
          message: 'The provider reported an error inside the stream.',
          provider: 'openai-chat',
          retryable: true,
        },
      },
    ]);
  });

  it('a vLLM error object with a choice fails the stream', () => {
    expect(after({ object: 'error', message: 'boom', code: 500, choices: [content('x')] })).toEqual(
      [
        x,
        textEnd,
        {
          type: 'failed',
          error: { code: '500', message: 'boom', provider: 'openai-chat', retryable: true },
        },
      ],
    );
  });

  it.each([
    ['chunk usage', { id: 'r', choices: [content('x')], usage: { prompt_tokens: 1 } }],
    ['Groq usage', { id: 'r', choices: [content('x')], x_groq: { usage: { prompt_tokens: 1 } } }],
    ['choice usage', { id: 'r', choices: [content('x', { usage: { prompt_tokens: 1 } })] }],
  ])('%s is reported', (_where, payload) => {
    expect(after(payload)).toEqual([x, { type: 'usage', inputTokens: 1 }]);
  });

  it('a finish reason on the choice is a finish', () => {
    expect(after({ id: 'r', choices: [content('x', { finish_reason: 'stop' })] })).toEqual([
      x,
      textEnd,
      { type: 'finish', reason: 'stop', raw: 'stop' },
    ]);
  });

  it('a second choice is reported and not decoded; a lone choice 1 is not decoded', () => {
    const warning = (n: number) => ({
      type: 'warning',
      code: 'unknown-field',
      message: `Only the first choice is decoded; choice ${n} (n > 1) was ignored.`,
    });
    expect(after({ id: 'r', choices: [content('x'), { ...content('y'), index: 1 }] })).toEqual([
      x,
      warning(1),
    ]);
    expect(after({ id: 'r', choices: [{ ...content('y'), index: 2 }] })).toEqual([warning(2)]);
  });

  it('a null choice is malformed-event', () => {
    expect(after({ id: 'r', choices: [null] })).toEqual(
      expect.objectContaining({
        code: 'malformed-event',
        message: expect.stringMatching(/→ at choices\[0\]$/),
      }),
    );
  });
});
