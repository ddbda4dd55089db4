import type { StreamEvent } from '../../src/events';
import { createOpenAIChatDecoder } from '../../src/providers/openaiChat';
import { chunk, decode, sse } from './openaiChatHelpers';

// What the openai-chat decoder accepts on the wire and how it names what it does not: finish
// reasons, error objects in a 200 stream, delta fields, and chunks of the wrong shape.

const delta = (fields: object, finish: string | null = null) =>
  chunk({ delta: fields, finish_reason: finish });
const FIRST = delta({ content: 'a' });

/** Feeds `FIRST`, then `payload`; the events after FIRST's, or the error `payload` threw. */
function after(payload: unknown): { events: StreamEvent[]; error?: unknown } {
  const decoder = createOpenAIChatDecoder();
  const events: StreamEvent[] = [];
  const emit = (event: StreamEvent) => events.push(event);
  decoder.next({ data: JSON.stringify(FIRST) }, emit);
  events.length = 0;
  try {
    decoder.next({ data: JSON.stringify(payload) }, emit);
    return { events };
  } catch (error) {
    return { events, error };
  }
}

describe('decodeOpenAIChat finish reasons', () => {
  it.each([
    ['stop', 'stop', { type: 'completed', finishReason: 'stop' }],
    ['end_turn', 'stop', { type: 'completed', finishReason: 'stop' }],
    ['length', 'length', { type: 'incomplete', reason: 'length' }],
    ['max_tokens', 'length', { type: 'incomplete', reason: 'length' }],
    ['tool_calls', 'tool-calls', { type: 'completed', finishReason: 'tool-calls' }],
    ['function_call', 'tool-calls', { type: 'completed', finishReason: 'tool-calls' }],
    ['content_filter', 'content-filter', { type: 'incomplete', reason: 'content-filter' }],
    ['pause_turn', 'other', { type: 'completed', finishReason: 'other' }],
    // Names an object has by inheritance are not in the table either.
    ['toString', 'other', { type: 'completed', finishReason: 'other' }],
    ['constructor', 'other', { type: 'completed', finishReason: 'other' }],
    ['__proto__', 'other', { type: 'completed', finishReason: 'other' }],
  ])('%s is finish %s', async (raw, reason, terminal) => {
    const events = await decode(sse(delta({}, raw), '[DONE]'));
    expect(events.slice(1)).toEqual([
      { type: 'finish', reason, raw },
      expect.objectContaining(terminal),
    ]);
  });
});

describe('decodeOpenAIChat error objects in a 200 stream', () => {
  const failed = async (error: unknown) => {
    const events = await decode(sse({ error }, '[DONE]'));
    expect(events).toHaveLength(1);
    return (events[0] as { error: object }).error;
  };
  const DEFAULT_MESSAGE = 'The provider reported an error inside the stream.';

  it.each([
    [{ code: null, message: null }, 'provider-error', DEFAULT_MESSAGE, true],
    [{ message: 'gone' }, 'provider-error', 'gone', true],
    ['plain text', 'provider-error', 'plain text', true],
    [{ code: 400, message: 'm' }, '400', 'm', false],
    [{ code: 429, message: 'm' }, '429', 'm', true],
    [{ code: 503, message: 'm' }, '503', 'm', true],
    [{ code: '400', message: 'm' }, '400', 'm', false],
    [{ code: '503', message: 'm' }, '503', 'm', true],
    [{ code: 'invalid_request_error', message: 'm' }, 'invalid_request_error', 'm', false],
  ])('%j → code %s, message %s, retryable %s', async (error, code, message, retryable) => {
    expect(await failed(error)).toEqual({ code, message, provider: 'openai-chat', retryable });
  });

  it('an empty code or message is the default one', async () => {
    expect(await failed({ code: '', message: '' })).toEqual(
      expect.objectContaining({ code: 'provider-error', message: DEFAULT_MESSAGE }),
    );
  });

  it.each([
    ['rate_limit_exceeded', true],
    ['RATE_LIMIT', true],
    ['overloaded_error', true],
    ['timeout', true],
    ['request_timed_out', true],
    ['service_unavailable', true],
    ['server_error', true],
    ['internal_error', true],
    ['insufficient_capacity', true],
    ['busy', true],
    ['server503', true],
    ['503server', true],
    ['5x', false],
    ['moderation', false],
    ['insufficient_credits', false],
  ])('code %s is retryable: %s', async (code, retryable) => {
    expect(await failed({ code, message: 'm' })).toEqual(
      expect.objectContaining({ code, retryable }),
    );
  });
});

describe('decodeOpenAIChat delta fields', () => {
  it('every field it decodes, and the quiet ones, give no warning on the schema path', async () => {
    const events = await decode(
      sse(
        delta({
          role: 'assistant',
          content: 'c',
          refusal: 'no',
          reasoning: 'r1',
          reasoning_content: 'r2',
          reasoning_text: 'r3',
          reasoning_details: [],
          tool_calls: [],
          obfuscation: 'pad',
          system_fingerprint: 'fp',
          native_finish_reason: 'stop',
          provider: 'x',
        }),
        '[DONE]',
      ),
    );
    expect(events.filter((e) => e.type === 'warning')).toEqual([]);
    expect(events.filter((e) => e.type === 'text-delta' || e.type === 'reasoning-delta')).toEqual([
      { type: 'reasoning-delta', id: 'r:reasoning:0', index: 0, delta: 'r2', kind: 'text' },
      { type: 'reasoning-delta', id: 'r:reasoning:0', index: 0, delta: 'r1', kind: 'text' },
      { type: 'reasoning-delta', id: 'r:reasoning:0', index: 0, delta: 'r3', kind: 'text' },
      { type: 'text-delta', id: 'r:text', delta: 'c' },
      { type: 'text-delta', id: 'r:text', delta: 'no' },
    ]);
  });
});

describe('decodeOpenAIChat unknown delta fields', () => {
  it('each unknown field warns once, by its own name', async () => {
    const events = await decode(
      sse(
        delta({ content: 'x' }),
        delta({ audio: 'a' }),
        delta({ annotations: [] }),
        delta({ audio: 'b', annotations: [1] }),
        '[DONE]',
      ),
    );
    expect(events.filter((e) => e.type === 'warning')).toEqual(
      ['audio', 'annotations'].map((field) => ({
        type: 'warning',
        code: 'unknown-field',
        message: `The openai-chat decoder does not know the delta field "${field}"; it was ignored.`,
        detail: { field: `delta.${field}` },
      })),
    );
  });
});

describe('decodeOpenAIChat chunks of the wrong shape', () => {
  const choice = (fields: object) => ({ id: 'r', choices: [{ index: 0, ...fields }] });
  it.each([
    ['id', { id: 5 }],
    ['model', { id: 'r', model: 5 }],
    ['object', { id: 'r', object: 5 }],
    ['choices', { id: 'r', choices: 'x' }],
    ['choices[0].index', choice({ index: 0.5, delta: {} })],
    ['choices[0].delta', choice({ delta: [] })],
    ['choices[0].delta', choice({ delta: 5 })],
    ['choices[0].finish_reason', choice({ delta: {}, finish_reason: 1 })],
    ['choices[0].delta.content', choice({ delta: { content: 5 } })],
    ['choices[0].delta.content', choice({ delta: { content: [{ type: 'text', text: 5 }] } })],
    ['choices[0].delta.content', choice({ delta: { content: [{ type: 5 }] } })],
    [
      'choices[0].delta.content',
      choice({ delta: { content: [{ type: 'thinking', thinking: [{ text: 5 }] }] } }),
    ],
    ['choices[0].delta.refusal', choice({ delta: { refusal: 5 } })],
    ['choices[0].delta.reasoning', choice({ delta: { reasoning: 5 } })],
    ['choices[0].delta.reasoning_content', choice({ delta: { reasoning_content: 5 } })],
    ['choices[0].delta.reasoning_text', choice({ delta: { reasoning_text: 5 } })],
    ['choices[0].delta.reasoning_details', choice({ delta: { reasoning_details: 'x' } })],
    ['choices[0].delta.reasoning_details', choice({ delta: { reasoning_details: {} } })],
    ['choices[0].delta.reasoning_details[0]', choice({ delta: { reasoning_details: [null] } })],
    [
      'choices[0].delta.reasoning_details[0].type',
      choice({ delta: { reasoning_details: [{ text: 'a' }] } }),
    ],
    ...['text', 'summary', 'data', 'signature', 'format'].map((field) => [
      `choices[0].delta.reasoning_details[0].${field}`,
      choice({ delta: { reasoning_details: [{ type: 'reasoning.text', [field]: 5 }] } }),
    ]),
    [
      'choices[0].delta.reasoning_details[0].index',
      choice({ delta: { reasoning_details: [{ type: 'reasoning.text', index: 0.5 }] } }),
    ],
    ['choices[0].delta.tool_calls', choice({ delta: { tool_calls: {} } })],
    ['choices[0].delta.tool_calls[0].index', choice({ delta: { tool_calls: [{ index: 'x' }] } })],
    ['choices[0].delta.tool_calls[0].id', choice({ delta: { tool_calls: [{ id: 5 }] } })],
    [
      'choices[0].delta.tool_calls[0].function',
      choice({ delta: { tool_calls: [{ function: 'f' }] } }),
    ],
    [
      'choices[0].delta.tool_calls[0].function.name',
      choice({ delta: { tool_calls: [{ function: { name: 5 } }] } }),
    ],
    [
      'choices[0].delta.tool_calls[0].function.arguments',
      choice({ delta: { tool_calls: [{ function: { arguments: {} } }] } }),
    ],
    ['choices[0].usage.prompt_tokens', choice({ delta: {}, usage: { prompt_tokens: 'x' } })],
    ...[
      'prompt_tokens',
      'completion_tokens',
      'total_tokens',
      'cost',
      'prompt_cache_hit_tokens',
      'cached_tokens',
    ].map((field) => [`usage.${field}`, { id: 'r', usage: { [field]: 'x' } }]),
    ['usage.prompt_tokens_details', { id: 'r', usage: { prompt_tokens_details: 1 } }],
    [
      'usage.prompt_tokens_details.cached_tokens',
      { id: 'r', usage: { prompt_tokens_details: { cached_tokens: 'x' } } },
    ],
    [
      'usage.completion_tokens_details.reasoning_tokens',
      { id: 'r', usage: { completion_tokens_details: { reasoning_tokens: 'x' } } },
    ],
    ['x_groq', { id: 'r', x_groq: 1 }],
    ['x_groq.usage.total_tokens', { id: 'r', x_groq: { usage: { total_tokens: 'x' } } }],
    ['error', { error: { code: {} } }],
    ['error', { error: { message: 5 } }],
    ['error', { error: { type: 5 } }],
    ['error', { error: 5 }],
  ] as Array<[string, object]>)('a wrong %s is malformed-event naming it', (path, payload) => {
    const { events, error } = after(payload);
    expect(events).toEqual([]);
    expect(error).toEqual(
      expect.objectContaining({
        code: 'malformed-event',
        provider: 'openai-chat',
        message: expect.stringMatching(
          /^An openai-chat event does not have the shape of a chat\.completion\.chunk: ✖ /,
        ),
      }),
    );
    expect((error as Error).message.endsWith(`→ at ${path}`)).toBe(true);
  });

  it.each([['null'], ['5'], ['[]'], ['"text"']])('the payload %s is malformed-event', (data) => {
    const { events, error } = after(JSON.parse(data));
    expect(events).toEqual([]);
    expect(error).toEqual(
      expect.objectContaining({
        code: 'malformed-event',
        message: expect.stringMatching(
          /^An openai-chat event does not have the shape of a chat\.completion\.chunk: ✖ /,
        ),
      }),
    );
  });
});
