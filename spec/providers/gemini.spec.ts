import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { from } from 'rxjs';
import type { StreamEvent } from '../../src/events';
import { createGeminiDecoder, decodeGemini } from '../../src/providers/gemini';
import { streamEvents } from '../../src/streamEvents';
import { chunksOf, collect, utf8 } from '../helpers/bytes';
import { decodePayloads } from './decoderSupport';

// decodeGemini on the project's own fixtures (fixtures/gemini, the provider detected as a user
// without `provider` would) and on payloads written here for one rule each.

const fixture = (name: string) =>
  collect(
    streamEvents(
      chunksOf([utf8(readFileSync(join(__dirname, '../../fixtures/gemini', name), 'utf8'))]),
    ),
  );
const decode = (...payloads: object[]) => decodePayloads(createGeminiDecoder(), payloads);
const textPart = (text: string, more: object = {}) => ({ text, ...more });
const chunk = (parts: object[], more: object = {}) => ({
  candidates: [{ content: { role: 'model', parts }, ...more }],
});

describe('decodeGemini', () => {
  it('thought parts → reasoning (kind text); the signature on a thought ends that entry; MAX_TOKENS → incomplete length; cached tokens', async () => {
    const usage = {
      inputTokens: 1200,
      outputTokens: 8,
      reasoningTokens: 30,
      cachedInputTokens: 1024,
      totalTokens: 1238,
    };
    const reasoning = { id: 'gemini:reasoning:0', index: 0 };
    expect(await fixture('max-tokens-cached.sse')).toEqual([
      { type: 'response-start', provider: 'gemini', id: 'fx-resp-1', model: 'gemini-2.5-flash' },
      { type: 'reasoning-start', ...reasoning },
      { type: 'reasoning-delta', ...reasoning, delta: 'Weighing the ', kind: 'text' },
      { type: 'reasoning-delta', ...reasoning, delta: 'options.', kind: 'text' },
      { type: 'reasoning-end', ...reasoning, signature: 'c2lnLXRob3VnaHQ=' },
      { type: 'text-start', id: 'gemini:text:0' },
      { type: 'text-delta', id: 'gemini:text:0', delta: 'The answer is cut' },
      { type: 'text-delta', id: 'gemini:text:0', delta: ' short' },
      { type: 'text-end', id: 'gemini:text:0' },
      { type: 'usage', ...usage },
      { type: 'finish', reason: 'length', raw: 'MAX_TOKENS' },
      {
        type: 'incomplete',
        reason: 'length',
        message: 'The model stopped at its output token limit.',
      },
    ]);
  });

  it('Vertex streamed arguments (strings continued, numbers, booleans, null, nested arrays) → one call; ids without responseId; two whole calls in one chunk', async () => {
    const events = await fixture('vertex-streamed-args-values.sse');
    const input = {
      guest: { name: 'Zoë Ødegård' },
      nights: 3,
      breakfast: true,
      note: null,
      rooms: [{ beds: 2 }, { beds: 1 }],
    };
    const deltas = [
      '{"guest":{"name":"Zoë',
      ' Ødegård',
      '"},"nights":3',
      ',"breakfast":true',
      ',"note":null',
      ',"rooms":[{"beds":2',
      '},{"beds":1',
      '}]}',
    ];
    expect(deltas.join('')).toBe(JSON.stringify(input));
    expect(events.filter((e) => e.type.startsWith('tool-'))).toEqual([
      { type: 'tool-input-start', id: 'gemini:call:0', name: 'book', index: 0 },
      ...deltas.map((delta) => ({ type: 'tool-input-delta', id: 'gemini:call:0', delta })),
      {
        type: 'tool-call',
        id: 'gemini:call:0',
        name: 'book',
        input,
        inputText: JSON.stringify(input),
      },
      { type: 'tool-input-start', id: 'gemini:call:1', name: 'pay', index: 1 },
      { type: 'tool-input-delta', id: 'gemini:call:1', delta: '{"amount":120.5}' },
      {
        type: 'tool-call',
        id: 'gemini:call:1',
        name: 'pay',
        input: { amount: 120.5 },
        inputText: '{"amount":120.5}',
      },
      { type: 'tool-input-start', id: 'gemini:call:2', name: 'notify', index: 2 },
      { type: 'tool-input-delta', id: 'gemini:call:2', delta: '{}' },
      { type: 'tool-call', id: 'gemini:call:2', name: 'notify', input: {}, inputText: '{}' },
    ]);
    expect(events.slice(-2)).toEqual([
      { type: 'finish', reason: 'tool-calls', raw: 'STOP' },
      {
        type: 'completed',
        finishReason: 'tool-calls',
        usage: { inputTokens: 40, outputTokens: 20, totalTokens: 60 },
      },
    ]);
  });

  it('streamed pieces out of document order: the call is still whole and right, its inputText the value as JSON', () => {
    const piece = (jsonPath: string, stringValue: string) => ({
      functionCall: { partialArgs: [{ jsonPath, stringValue }], willContinue: true },
    });
    const events = decode(
      chunk([{ functionCall: { name: 'f', willContinue: true } }]),
      chunk([piece('$.a', 'x')]),
      chunk([piece('$.b', 'y')]),
      chunk([{ functionCall: { partialArgs: [{ jsonPath: '$.a', numberValue: 2 }] } }]),
    );
    expect(events.filter((e) => e.type === 'tool-input-delta').map((e) => e.delta)).toEqual([
      '{"a":"x',
      '","b":"y',
    ]);
    expect(events.find((e) => e.type === 'tool-call')).toEqual({
      type: 'tool-call',
      id: 'gemini:call:0',
      name: 'f',
      input: { a: 2, b: 'y' },
      inputText: '{"a":2,"b":"y"}',
    });
  });

  it('ids: the wire id when there is one, else gemini:<responseId>:call:<n> — the same on every run', () => {
    const payloads = [
      { ...chunk([{ functionCall: { name: 'a', args: {} } }]), responseId: 'r1' },
      chunk([{ functionCall: { name: 'b', args: {}, id: 'wire-id' } }]),
      chunk([{ functionCall: { name: 'c', args: { x: 1 } } }], { finishReason: 'STOP' }),
    ];
    const ids = (events: StreamEvent[]) =>
      events.flatMap((e) => (e.type === 'tool-call' ? [e.id] : []));
    expect(ids(decode(...payloads))).toEqual(['gemini:r1:call:0', 'wire-id', 'gemini:r1:call:2']);
    expect(decode(...payloads)).toEqual(decode(...payloads));
  });

  it('a signature is never dropped: on a call → tool-call.signature; on text → the reasoning-end before it; alone on a trailing empty part → an entry of its own', () => {
    const events = decode(
      chunk([textPart('plan', { thought: true })]),
      chunk([textPart('Hello', { thoughtSignature: 'on-text' })]),
      chunk([{ functionCall: { name: 'f', args: {} }, thoughtSignature: 'on-call' }]),
      chunk([textPart('', { thoughtSignature: 'trailing' })], { finishReason: 'STOP' }),
    );
    expect(events.filter((e) => e.type.startsWith('reasoning-') || e.type === 'tool-call')).toEqual(
      [
        { type: 'reasoning-start', id: 'gemini:reasoning:0', index: 0 },
        {
          type: 'reasoning-delta',
          id: 'gemini:reasoning:0',
          index: 0,
          delta: 'plan',
          kind: 'text',
        },
        { type: 'reasoning-end', id: 'gemini:reasoning:0', index: 0, signature: 'on-text' },
        {
          type: 'tool-call',
          id: 'gemini:call:0',
          name: 'f',
          input: {},
          inputText: '{}',
          signature: 'on-call',
        },
        { type: 'reasoning-start', id: 'gemini:reasoning:1', index: 1 },
        { type: 'reasoning-end', id: 'gemini:reasoning:1', index: 1, signature: 'trailing' },
      ],
    );
  });

  it.each([
    ['STOP', 'stop', 'completed'],
    ['MAX_TOKENS', 'length', 'incomplete'],
    ['SAFETY', 'content-filter', 'incomplete'],
    ['RECITATION', 'content-filter', 'incomplete'],
    ['BLOCKLIST', 'content-filter', 'incomplete'],
    ['PROHIBITED_CONTENT', 'content-filter', 'incomplete'],
    ['SPII', 'content-filter', 'incomplete'],
    ['IMAGE_SAFETY', 'content-filter', 'incomplete'],
    ['MALFORMED_FUNCTION_CALL', 'error', 'failed'],
    ['LANGUAGE', 'other', 'completed'],
    ['OTHER', 'other', 'completed'],
  ])('finishReason %s → finish %s → %s', async (raw, reason, terminal) => {
    const body = `data: ${JSON.stringify(chunk([textPart('Hi')], { finishReason: raw }))}\n\n`;
    const events = await collect(streamEvents(chunksOf([utf8(body)]), { provider: 'gemini' }));
    expect(events.at(-2)).toEqual({ type: 'finish', reason, raw });
    expect(events.at(-1)!.type).toBe(terminal);
  });

  it('a safety rating with blocked: true is a content filter even without a finishReason', () => {
    const events = decode(
      chunk([textPart('Hi')], {
        safetyRatings: [{ category: 'HARM_CATEGORY_HARASSMENT', blocked: true }],
      }),
    );
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'content-filter', raw: 'blocked' });
  });

  it('a blocked prompt (promptFeedback.blockReason) → incomplete content-filter naming the reason, usage kept', async () => {
    expect(await fixture('blocked-prompt.sse')).toEqual([
      { type: 'response-start', provider: 'gemini', id: 'fx-blocked', model: 'gemini-2.5-flash' },
      { type: 'usage', inputTokens: 7, totalTokens: 7 },
      { type: 'finish', reason: 'content-filter', raw: 'PROHIBITED_CONTENT' },
      {
        type: 'incomplete',
        reason: 'content-filter',
        message:
          "Gemini blocked the prompt (blockReason PROHIBITED_CONTENT): The prompt violates the policy. Change the prompt or the request's safetySettings.",
      },
    ]);
  });

  it('an error object mid-stream → failed with the RPC status as code and the HTTP code as status; text already sent stays', async () => {
    const events = await fixture('error-mid-stream.sse');
    expect(events.filter((e) => e.type === 'text-delta')).toEqual([
      { type: 'text-delta', id: 'gemini:text:0', delta: 'Partial answer' },
    ]);
    expect(events.slice(-2)).toEqual([
      { type: 'text-end', id: 'gemini:text:0' },
      {
        type: 'failed',
        error: {
          code: 'UNAVAILABLE',
          message: 'The model is overloaded. Please try again later.',
          provider: 'gemini',
          status: 503,
          retryable: true,
        },
      },
    ]);
  });

  it.each([
    [429, 'RESOURCE_EXHAUSTED', true],
    [500, 'INTERNAL', true],
    [504, 'DEADLINE_EXCEEDED', true],
    [400, 'INVALID_ARGUMENT', false],
    [403, 'PERMISSION_DENIED', false],
    [404, 'NOT_FOUND', false],
  ])('error %i %s → retryable %s', (code, status, retryable) => {
    expect(decode({ error: { code, message: 'm', status } })).toEqual([
      {
        type: 'failed',
        error: { code: status, message: 'm', provider: 'gemini', status: code, retryable },
      },
    ]);
  });

  it('usage: one event with the finish from the last totals; a later change is reported again', () => {
    const events = decode(
      { ...chunk([textPart('a')]), usageMetadata: { promptTokenCount: 5, totalTokenCount: 5 } },
      {
        ...chunk([textPart('b')], { finishReason: 'STOP' }),
        usageMetadata: {
          promptTokenCount: 5,
          candidatesTokenCount: 2,
          thoughtsTokenCount: 4,
          totalTokenCount: 11,
        },
      },
      { usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 3, totalTokenCount: 12 } },
    );
    expect(events.filter((e) => e.type === 'usage' || e.type === 'finish')).toEqual([
      { type: 'usage', inputTokens: 5, outputTokens: 2, reasoningTokens: 4, totalTokens: 11 },
      { type: 'finish', reason: 'stop', raw: 'STOP' },
      { type: 'usage', inputTokens: 5, outputTokens: 3, totalTokens: 12 },
    ]);
  });

  it('an unknown field → one warning per name per stream; a second candidate is reported, not decoded', () => {
    const events = decode(
      {
        ...chunk([{ text: 'a', inlineData: { mimeType: 'image/png', data: 'AA==' } }]),
        serverHints: 1,
      },
      { ...chunk([{ text: 'b', inlineData: {} }]), serverHints: 2, candidates: [{}, {}] },
    );
    expect(events.filter((e) => e.type === 'warning')).toEqual([
      {
        type: 'warning',
        code: 'unknown-field',
        message: 'Gemini response field "serverHints" is not decoded; it was skipped.',
        detail: { field: 'response.serverHints' },
      },
      {
        type: 'warning',
        code: 'unknown-field',
        message: 'Gemini part field "inlineData" is not decoded; it was skipped.',
        detail: { field: 'part.inlineData' },
      },
      {
        type: 'warning',
        code: 'unknown-field',
        message: 'Gemini sent several candidates; llm-rx decodes the first only.',
        detail: { field: 'candidates[1]' },
      },
    ]);
  });

  it('bad input ends in one failed with a code: a jsonPath it cannot read, a payload that is not JSON', async () => {
    const badPath = chunk([
      { functionCall: { name: 'f', partialArgs: [{ jsonPath: 'recipe.name', stringValue: 'x' }] } },
    ]);
    for (const data of [JSON.stringify(badPath), '{"candidates": [']) {
      const events = await collect(
        streamEvents(chunksOf([utf8(`data: ${data}\n\n`)]), { provider: 'gemini' }),
      );
      expect(events.filter((e) => e.type === 'failed')).toEqual([
        {
          type: 'failed',
          error: expect.objectContaining({ code: 'malformed-event', retryable: false }),
        },
      ]);
      expect(events.at(-1)!.type).toBe('failed');
    }
  });

  it('decodeGemini is the same decoder as an operator, one state per subscription', async () => {
    const messages = [{ data: JSON.stringify(chunk([textPart('Hi')], { finishReason: 'STOP' })) }];
    const once = await collect(from(messages).pipe(decodeGemini()));
    expect(await collect(from(messages).pipe(decodeGemini()))).toEqual(once);
    expect(once.map((e) => e.type)).toEqual([
      'response-start',
      'text-start',
      'text-delta',
      'text-end',
      'finish',
    ]);
  });
});
