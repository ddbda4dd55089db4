import type { ProviderId } from '../../src/events';
import { detectWireFormat, isNdjsonContentType, PROVIDER_NAMES } from '../../src/providers/detect';
import { streamEvents } from '../../src/streamEvents';
import { collect } from '../helpers/bytes';

/** What `detectWireFormat` says of one message (data given as an object is sent as JSON). */
const detect = (event: string | undefined, data: object | string) =>
  detectWireFormat({ event, data: typeof data === 'string' ? data : JSON.stringify(data) });

describe('detectWireFormat, rule by rule', () => {
  it('every Anthropic event type tells the wire, as the event name or as the data type', () => {
    const types = [
      'message_start',
      'message_delta',
      'message_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
    ];
    expect(types.map((type) => [type, detect(type, {})])).toEqual(
      types.map((type) => [type, 'anthropic']),
    );
    expect(types.map((type) => [type, detect(undefined, { type })])).toEqual(
      types.map((type) => [type, 'anthropic']),
    );
  });

  it('the event name decides even when the data carries no type', () => {
    expect(detect('message_start', { message: { id: 'm' } })).toBe('anthropic');
    expect(detect('response.created', { response: { id: 'r' } })).toBe('openai-responses');
    // The name wins over a data shape that would say otherwise.
    expect(detect('message_delta', { choices: [] })).toBe('anthropic');
  });

  it("Gemini's payloads tell the gemini wire: candidates, usageMetadata, promptFeedback, Google's error", () => {
    const cases: Array<[object, ProviderId | undefined]> = [
      [{ candidates: [{ content: { parts: [{ text: 'Hi' }] } }] }, 'gemini'],
      [{ candidates: [] }, 'gemini'],
      [{ usageMetadata: { promptTokenCount: 3 } }, 'gemini'],
      [{ promptFeedback: { blockReason: 'SAFETY' } }, 'gemini'],
      [{ error: { code: 429, message: 'quota', status: 'RESOURCE_EXHAUSTED' } }, 'gemini'],
      // An OpenAI-style error (string code, no status) stays openai-chat; so do chat chunks.
      [{ error: { code: 'rate_limit_exceeded', message: 'x' } }, 'openai-chat'],
      [{ error: { code: 429, message: 'x' } }, 'openai-chat'],
      [{ choices: [], usageMetadata: {} }, 'openai-chat'],
      [{ candidates: 'no' }, undefined],
    ];
    expect(cases.map(([data]) => [data, detect(undefined, data)])).toEqual(cases);
  });

  it('a valid llm-rx event without an event name is the llm-rx wire', () => {
    expect(detect(undefined, { type: 'text-delta', id: 't', delta: 'Hi' })).toBe('llm-rx');
    expect(detect(undefined, { type: 'completed' })).toBe('llm-rx');
  });

  it('data that is JSON but not an object tells nothing, and never throws', () => {
    const cases: Array<[string, ProviderId | undefined]> = [
      ['null', undefined],
      ['42', undefined],
      ['"chat.completion.chunk"', undefined],
      ['true', undefined],
      ['[]', undefined],
    ];
    expect(cases.map(([data]) => [data, detect(undefined, data)])).toEqual(cases);
  });

  it('a type that is not a string is read as a shape, never as an event type', () => {
    expect(detect(undefined, { type: 5, choices: [] })).toBe('openai-chat');
    expect(detect(undefined, { type: 5 })).toBeUndefined();
  });

  it('a type of no known wire still lets the shape decide', () => {
    expect(detect(undefined, { type: 'chunk', object: 'chat.completion.chunk' })).toBe(
      'openai-chat',
    );
    expect(detect(undefined, { type: 'ping' })).toBeUndefined();
  });

  it('either `object: "chat.completion.chunk"` or a `choices` array alone is openai-chat', () => {
    expect(detect(undefined, { object: 'chat.completion.chunk' })).toBe('openai-chat');
    expect(detect(undefined, { choices: [{ index: 0, delta: { content: 'Hi' } }] })).toBe(
      'openai-chat',
    );
    expect(detect(undefined, { object: 'chat.completion' })).toBeUndefined();
    expect(detect(undefined, { choices: {} })).toBeUndefined();
  });

  it('a bare `{ error }` (an OpenAI-compatible server failing in a 200 stream) is openai-chat', () => {
    expect(detect(undefined, { error: { message: 'Upstream failed', code: 502 } })).toBe(
      'openai-chat',
    );
  });

  it('`type: "error"`: Anthropic only with a typed nested error and no sequence_number', () => {
    const cases: Array<[object, ProviderId]> = [
      [{ type: 'error', error: { type: 'overloaded_error', message: 'x' } }, 'anthropic'],
      // Responses numbers every event, nested error object or not.
      [
        { type: 'error', error: { type: 'server_error', message: 'x' }, sequence_number: 3 },
        'openai-responses',
      ],
      [
        { type: 'error', code: 'server_error', message: 'x', sequence_number: 2 },
        'openai-responses',
      ],
      // Flat, without a sequence number (a Responses-compatible server): not Anthropic's shape.
      [{ type: 'error', code: 'server_error', message: 'x' }, 'openai-responses'],
      [{ type: 'error', error: { code: 'server_error', message: 'x' } }, 'openai-responses'],
    ];
    expect(cases.map(([data]) => [data, detect(undefined, data)])).toEqual(cases);
  });
});

describe('isNdjsonContentType', () => {
  it('accepts application/ndjson and application/x-ndjson, any case, parameters and padding', () => {
    const cases: Array<[string | null | undefined, boolean]> = [
      ['application/x-ndjson', true],
      ['application/ndjson', true],
      ['Application/NDJSON; charset=utf-8', true],
      ['  application/x-ndjson  ', true],
      ['application/ndjsonx', false],
      ['application/y-ndjson', false],
      ['text/plain; note=application/ndjson', false],
      ['text/event-stream', false],
      ['', false],
      [null, false],
      [undefined, false],
    ];
    expect(cases.map(([type]) => [type, isNdjsonContentType(type)])).toEqual(cases);
  });

  it('an NDJSON content type with padding and parameters is read as ollama by streamEvents', async () => {
    const response = new Response('{"model":"m","message":{"content":"Hi"},"done":true}\n', {
      headers: { 'content-type': ' application/ndjson; charset=utf-8' },
    });
    expect((await collect(streamEvents(response)))[0]).toEqual({
      type: 'response-start',
      provider: 'ollama',
      model: 'm',
    });
  });
});

describe('PROVIDER_NAMES', () => {
  it('is every wire format once, plus openrouter', () => {
    expect([...PROVIDER_NAMES].sort()).toEqual([
      'anthropic',
      'bedrock',
      'cohere',
      'gemini',
      'llm-rx',
      'ollama',
      'openai-chat',
      'openai-responses',
      'openrouter',
    ]);
  });

  it('streamEvents accepts openrouter as a provider and decodes it as openai-chat', async () => {
    const body =
      'data: {"id":"c1","model":"m","choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\n';
    const events = await collect(streamEvents(new Response(body), { provider: 'openrouter' }));
    expect(events[0]).toEqual({
      type: 'response-start',
      provider: 'openai-chat',
      id: 'c1',
      model: 'm',
    });
  });
});
