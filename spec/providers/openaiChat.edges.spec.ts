import type { StreamEvent } from '../../src/events';
import { createOpenAIChatDecoder } from '../../src/providers/openaiChat';
import { chunk, decode, sse } from './openaiChatHelpers';

const START = { type: 'response-start', provider: 'openai-chat', id: 'r', model: 'm' };
const delta = (fields: object, finish: string | null = null) =>
  chunk({ delta: fields, finish_reason: finish });
const text = (d: string) => ({ type: 'text-delta', id: 'r:text', delta: d });
const STOP = { type: 'finish', reason: 'stop', raw: 'stop' };

describe('decodeOpenAIChat finish, usage and the terminal', () => {
  it('puts a chunk’s reasoning and text before its finish; content after finish still arrives', async () => {
    const events = await decode(
      sse(
        delta({ reasoning_content: 'r', content: 'A' }, 'stop'),
        delta({ content: 'B' }),
        delta({}, 'stop'),
        chunk(null, { usage: { prompt_tokens: 1, completion_tokens: 2 } }),
        '[DONE]',
      ),
    );
    expect(events.slice(1).map((e) => e.type)).toEqual([
      'reasoning-start',
      'reasoning-delta',
      'reasoning-end',
      'text-start',
      'text-delta',
      'text-end',
      'finish',
      'text-start',
      'text-delta',
      'text-end',
      'usage',
      'completed',
    ]);
    expect(events.filter((e) => e.type === 'text-start')).toEqual([
      { type: 'text-start', id: 'r:text' },
      { type: 'text-start', id: 'r:text:1' },
    ]);
    expect(events.at(-1)).toEqual({
      type: 'completed',
      finishReason: 'stop',
      usage: { inputTokens: 1, outputTokens: 2 },
    });
  });

  it('warns once about a second, different finish reason', async () => {
    const events = await decode(sse(delta({}, 'stop'), delta({}, 'length'), delta({}, 'length')));
    expect(events.slice(1)).toEqual([
      STOP,
      {
        type: 'warning',
        code: 'duplicate-event',
        message:
          'The provider sent a second finish reason "length" after "stop"; the first one stands.',
      },
      { type: 'completed', finishReason: 'stop' },
    ]);
  });

  it.each([
    ['length', { type: 'incomplete', reason: 'length' }],
    ['content_filter', { type: 'incomplete', reason: 'content-filter' }],
    ['something_new', { type: 'completed', finishReason: 'other' }],
  ])('finish_reason %s then [DONE] ends with %o', async (raw, terminal) => {
    const events = await decode(sse(delta({ content: 'x' }, raw), '[DONE]'));
    expect(events.at(-1)).toMatchObject(terminal);
  });

  it('ends [DONE] without a finish as completed', async () => {
    expect(await decode(sse(delta({ content: 'x' }), '[DONE]'))).toEqual([
      START,
      { type: 'text-start', id: 'r:text' },
      text('x'),
      { type: 'text-end', id: 'r:text' },
      { type: 'completed' },
    ]);
  });

  it('leaves EOF without [DONE] and without finish to ensureTerminal (stream-closed)', async () => {
    const events = await decode(sse(delta({ content: 'x' })));
    expect(events.slice(-2)).toEqual([
      { type: 'text-end', id: 'r:text' },
      {
        type: 'failed',
        error: expect.objectContaining({ code: 'stream-closed', retryable: true }),
      },
    ]);
  });

  it('turns finish_reason "error" without an error object into failed provider-error', async () => {
    const events = await decode(sse(delta({ content: 'x' }, 'error'), '[DONE]'));
    expect(events.at(-1)).toEqual({
      type: 'failed',
      error: {
        code: 'provider-error',
        message: 'The provider reported an error inside the stream.',
        provider: 'openai-chat',
        retryable: true,
      },
    });
    expect(events.filter((e) => e.type === 'finish')).toEqual([]);
  });

  it.each([
    [{ object: 'error', message: 'bad request', code: 400 }, '400', 'bad request', false],
    [{ error: 'overloaded' }, 'provider-error', 'overloaded', true],
    [
      { error: { code: 'rate_limit_exceeded', message: 'slow down' } },
      'rate_limit_exceeded',
      'slow down',
      true,
    ],
  ])('turns the error chunk %j into failed %s', async (payload, code, message, retryable) => {
    expect(await decode(sse(payload, '[DONE]'))).toEqual([
      { type: 'failed', error: { code, message, provider: 'openai-chat', retryable } },
    ]);
  });

  it('turns malformed JSON into failed malformed-event', async () => {
    const events = await decode(sse(delta({ content: 'x' }), '{"choices":[{'));
    expect(events.at(-1)).toEqual({
      type: 'failed',
      error: expect.objectContaining({ code: 'malformed-event', provider: 'openai-chat' }),
    });
  });
});

describe('decodeOpenAIChat unknown fields', () => {
  it('warns once per unknown delta field; known noise and nulls are quiet', async () => {
    const events = await decode(
      sse(
        delta({ role: 'assistant', content: 'a', audio_token: 1, function_call: null }),
        delta({ content: 'b', audio_token: 2, obfuscation: 'xx' }),
        chunk({ index: 1, delta: { content: 'other choice' } }),
        delta({}, 'stop'),
      ),
    );
    expect(events.filter((e) => e.type === 'warning')).toEqual([
      {
        type: 'warning',
        code: 'unknown-field',
        message:
          'The openai-chat decoder does not know the delta field "audio_token"; it was ignored.',
        detail: { field: 'delta.audio_token' },
      },
      {
        type: 'warning',
        code: 'unknown-field',
        message: 'Only the first choice is decoded; choice 1 (n > 1) was ignored.',
      },
    ]);
    expect(events.filter((e) => e.type === 'text-delta')).toEqual([text('a'), text('b')]);
  });
});

describe('createOpenAIChatDecoder (pure)', () => {
  it('ignores everything after its terminal and emits nothing more at complete', () => {
    const decoder = createOpenAIChatDecoder();
    const events: StreamEvent[] = [];
    const emit = (event: StreamEvent) => events.push(event);
    for (const payload of [delta({ content: 'x' }, 'stop'), '[DONE]', delta({ content: 'y' })]) {
      decoder.next({ data: typeof payload === 'string' ? payload : JSON.stringify(payload) }, emit);
    }
    decoder.complete(emit);
    expect(events.map((e) => e.type)).toEqual([
      'response-start',
      'text-start',
      'text-delta',
      'text-end',
      'finish',
      'completed',
    ]);
  });
});
