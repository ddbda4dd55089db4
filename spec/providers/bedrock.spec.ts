import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StreamEvent } from '../../src/events';
import { createBedrockDecoder } from '../../src/providers/bedrock';
import { streamEvents } from '../../src/streamEvents';
import { collect } from '../helpers/bytes';
import { bedrockBody, eventStreamFrame } from '../helpers/eventStreamFrames';

const fixture = (name: string): Array<Record<string, unknown>> =>
  readFileSync(join(__dirname, '../../fixtures/bedrock', name), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));

/** The events for AWS SDK-shaped objects, straight through the pure decoder. */
function decodeObjects(objects: Array<Record<string, unknown>>): StreamEvent[] {
  const events: StreamEvent[] = [];
  const decoder = createBedrockDecoder();
  for (const object of objects) decoder.next(object, (e) => events.push(e));
  decoder.complete((e) => events.push(e));
  return events;
}

const eventStreamResponse = (body: Uint8Array) =>
  new Response(Uint8Array.from(body), {
    headers: { 'content-type': 'application/vnd.amazon.eventstream' },
  });

const textBlock = { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'Hi' } } };

describe('decodeBedrock', () => {
  it('decodes redacted reasoning, a streamed tool call, tool_use and usage with cache reads', () => {
    expect(decodeObjects(fixture('tool-use-redacted.chunks.jsonl'))).toEqual([
      { type: 'response-start', provider: 'bedrock' },
      { type: 'reasoning-start', id: 'bedrock:reasoning:0', index: 0 },
      { type: 'reasoning-end', id: 'bedrock:reasoning:0', index: 0, redacted: ['RW5jcnlwdGVk'] },
      { type: 'tool-input-start', id: 'tooluse_1', name: 'weather', index: 1 },
      { type: 'tool-input-delta', id: 'tooluse_1', delta: '{"city":' },
      { type: 'tool-input-delta', id: 'tooluse_1', delta: '"Oslo"}' },
      {
        type: 'tool-call',
        id: 'tooluse_1',
        name: 'weather',
        input: { city: 'Oslo' },
        inputText: '{"city":"Oslo"}',
      },
      { type: 'finish', reason: 'tool-calls', raw: 'tool_use' },
      { type: 'usage', inputTokens: 30, outputTokens: 12, cachedInputTokens: 20, totalTokens: 42 },
      {
        type: 'completed',
        finishReason: 'tool-calls',
        usage: { inputTokens: 30, outputTokens: 12, cachedInputTokens: 20, totalTokens: 42 },
      },
    ]);
  });

  it('gives the same events from real event stream frames as from the SDK objects', async () => {
    const objects = fixture('tool-use-redacted.chunks.jsonl');
    const framed = await collect(streamEvents(eventStreamResponse(bedrockBody(objects))));
    expect(framed).toEqual(decodeObjects(objects));
  });

  it.each([
    ['end_turn', 'stop', 'completed'],
    ['stop_sequence', 'stop', 'completed'],
    ['max_tokens', 'length', 'incomplete'],
    ['guardrail_intervened', 'content-filter', 'incomplete'],
    ['content_filtered', 'content-filter', 'incomplete'],
    ['something_else', 'other', 'completed'],
  ])('stopReason %s → finish %s, then %s at metadata', (raw, reason, terminal) => {
    const events = decodeObjects([
      textBlock,
      { messageStop: { stopReason: raw } },
      { metadata: { usage: { inputTokens: 1, outputTokens: 2 } } },
    ]);
    expect(events.find((e) => e.type === 'finish')).toEqual({ type: 'finish', reason, raw });
    expect(events.at(-1)?.type).toBe(terminal);
  });

  it.each([
    ['internalServerException', 500, true],
    ['modelStreamErrorException', 424, true],
    ['throttlingException', 429, true],
    ['serviceUnavailableException', 503, true],
    ['validationException', 400, false],
  ])(
    '%s in the stream → failed with that code, status %d, retryable %s',
    async (name, status, retryable) => {
      const body = bedrockBody([textBlock, { [name]: { message: `${name} happened` } }]);
      const events = await collect(streamEvents(eventStreamResponse(body)));
      expect(events.slice(-2)).toEqual([
        { type: 'text-end', id: 'bedrock:text:0' },
        {
          type: 'failed',
          error: {
            code: name,
            message: `${name} happened`,
            provider: 'bedrock',
            status,
            retryable,
          },
        },
      ]);
    },
  );

  it('an :message-type error frame → failed with its :error-code and :error-message', async () => {
    const frame = eventStreamFrame({
      ':message-type': 'error',
      ':error-code': 'InternalFailure',
      ':error-message': 'try again',
    });
    const events = await collect(streamEvents(eventStreamResponse(frame)));
    expect(events.at(-1)).toEqual({
      type: 'failed',
      error: {
        code: 'InternalFailure',
        message: 'try again',
        provider: 'bedrock',
        retryable: true,
      },
    });
  });

  it('reports an unknown event and an unknown delta field once each, and decodes the rest', () => {
    const citation = {
      contentBlockDelta: { contentBlockIndex: 0, delta: { citation: { x: 1 }, text: 'a' } },
    };
    const events = decodeObjects([{ newThing: {} }, { newThing: {} }, citation, citation]);
    expect(events.filter((e) => e.type === 'warning')).toEqual([
      expect.objectContaining({
        code: 'unknown-event',
        message: expect.stringContaining('"newThing"'),
      }),
      expect.objectContaining({
        code: 'unknown-field',
        message: expect.stringContaining('"citation"'),
      }),
    ]);
    expect(
      events.filter((e) => e.type === 'text-delta').map((e) => e.type === 'text-delta' && e.delta),
    ).toEqual(['a', 'a']);
  });

  it('joins signature pieces onto reasoning-end, never into the text', () => {
    const events = decodeObjects([
      {
        contentBlockDelta: { contentBlockIndex: 0, delta: { reasoningContent: { text: 'think' } } },
      },
      {
        contentBlockDelta: {
          contentBlockIndex: 0,
          delta: { reasoningContent: { signature: 'ab' } },
        },
      },
      {
        contentBlockDelta: {
          contentBlockIndex: 0,
          delta: { reasoningContent: { signature: 'cd' } },
        },
      },
      { contentBlockStop: { contentBlockIndex: 0 } },
    ]);
    expect(events.find((e) => e.type === 'reasoning-end')).toEqual({
      type: 'reasoning-end',
      id: 'bedrock:reasoning:0',
      index: 0,
      signature: 'abcd',
    });
  });

  it('redacted reasoning from the AWS SDK (bytes) is kept as the base64 the wire sends', () => {
    const bytes = new TextEncoder().encode('Encrypted');
    const events = decodeObjects([
      {
        contentBlockDelta: {
          contentBlockIndex: 0,
          delta: { reasoningContent: { redactedContent: bytes } },
        },
      },
      { contentBlockStop: { contentBlockIndex: 0 } },
    ]);
    expect(events.find((e) => e.type === 'reasoning-end')).toEqual(
      expect.objectContaining({ redacted: ['RW5jcnlwdGVk'] }),
    );
  });

  it('an input of no known shape throws malformed-event', () => {
    const decoder = createBedrockDecoder();
    expect(() => decoder.next({ a: 1, b: 2 }, () => undefined)).toThrow(
      expect.objectContaining({ code: 'malformed-event' }),
    );
  });

  it('with provider "bedrock" an eventstream body decodes without its content type; an empty body is stream-closed', async () => {
    const body = bedrockBody([textBlock, { messageStop: { stopReason: 'end_turn' } }]);
    const events = await collect(
      streamEvents(new Response(Uint8Array.from(body)), { provider: 'bedrock' }),
    );
    expect(events.map((e) => e.type)).toEqual([
      'response-start',
      'text-start',
      'text-delta',
      'text-end',
      'finish',
      'completed',
    ]);
    const empty = await collect(streamEvents(eventStreamResponse(new Uint8Array(0))));
    expect(empty).toEqual([
      expect.objectContaining({
        type: 'failed',
        error: expect.objectContaining({ code: 'stream-closed' }),
      }),
    ]);
  });
});
