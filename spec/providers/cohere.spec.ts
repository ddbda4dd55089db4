import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCohereDecoder } from '../../src/providers/cohere';
import { streamEvents } from '../../src/streamEvents';
import { chunksOf, collect, utf8 } from '../helpers/bytes';
import { decodePayloads } from './decoderSupport';

const fixture = (name: string): object[] =>
  readFileSync(join(__dirname, '../../fixtures/cohere', name), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));

const decode = (payloads: object[], options?: { complete?: boolean }) =>
  decodePayloads(createCohereDecoder(), payloads, options);

const start = { id: 'r', type: 'message-start', delta: { message: { role: 'assistant' } } };
const end = (finish_reason: string, extra: object = {}) => ({
  type: 'message-end',
  delta: { finish_reason, ...extra },
});

describe('decodeCohere', () => {
  it('decodes text, a citation per source and MAX_TOKENS → incomplete length, usage from tokens (not billed units)', () => {
    expect(decode(fixture('citations-max-tokens.chunks.jsonl'))).toEqual([
      { type: 'response-start', provider: 'cohere', id: 'co-1' },
      { type: 'text-start', id: 'co-1:text:0' },
      { type: 'text-delta', id: 'co-1:text:0', delta: 'Emperor penguins are the tallest.' },
      {
        type: 'citation',
        id: 'doc:0',
        url: 'https://example.org/penguins',
        title: 'Tall penguins',
        text: 'Emperor penguins are the tallest',
        start: 0,
        end: 32,
      },
      { type: 'text-end', id: 'co-1:text:0' },
      { type: 'usage', inputTokens: 120, outputTokens: 7, totalTokens: 127 },
      { type: 'finish', reason: 'length', raw: 'MAX_TOKENS' },
      {
        type: 'incomplete',
        reason: 'length',
        message: 'The model stopped at its output token limit.',
      },
    ]);
  });

  it.each([
    ['COMPLETE', 'stop'],
    ['STOP_SEQUENCE', 'stop'],
    ['TOOL_CALL', 'tool-calls'],
    ['SOMETHING_NEW', 'other'],
  ])('finish_reason %s → completed with finish %s', (raw, reason) => {
    const events = decode([start, end(raw)]);
    expect(events.slice(-2)).toEqual([
      { type: 'finish', reason, raw },
      { type: 'completed', finishReason: reason },
    ]);
  });

  it.each(['ERROR', 'TIMEOUT'])(
    'finish_reason %s → failed provider-error, retryable, with Cohere’s error text',
    (raw) => {
      const events = decode([start, end(raw, { error: 'upstream model crashed' })]);
      expect(events.at(-1)).toEqual({
        type: 'failed',
        error: {
          code: 'provider-error',
          message: `Cohere ended the response with ${raw}: upstream model crashed`,
          provider: 'cohere',
          retryable: true,
        },
      });
    },
  );

  it('the tool plan is reasoning, never text, and ends when a tool call starts', () => {
    const events = decode([
      start,
      { type: 'tool-plan-delta', delta: { message: { tool_plan: 'I will look.' } } },
      {
        type: 'tool-call-start',
        index: 0,
        delta: { message: { tool_calls: { id: 'c1', function: { name: 'look', arguments: '' } } } },
      },
      {
        type: 'tool-call-delta',
        index: 0,
        delta: { message: { tool_calls: { function: { arguments: '{"a":' } } } },
      },
      {
        type: 'tool-call-delta',
        index: 0,
        delta: { message: { tool_calls: { function: { arguments: '1' } } } },
      },
      { type: 'tool-call-end', index: 0 },
      end('TOOL_CALL'),
    ]);
    expect(events.slice(1, 8)).toEqual([
      { type: 'reasoning-start', id: 'r:tool-plan', index: 0 },
      { type: 'reasoning-delta', id: 'r:tool-plan', index: 0, delta: 'I will look.', kind: 'text' },
      { type: 'reasoning-end', id: 'r:tool-plan', index: 0 },
      { type: 'tool-input-start', id: 'c1', name: 'look', index: 0 },
      { type: 'tool-input-delta', id: 'c1', delta: '{"a":' },
      { type: 'tool-input-delta', id: 'c1', delta: '1' },
      expect.objectContaining({ type: 'tool-call', id: 'c1', input: null, inputText: '{"a":1' }),
    ]);
    expect(events.some((e) => e.type === 'text-delta')).toBe(false);
  });

  it('reports an unknown event type and an unknown content type once each', () => {
    const odd = {
      type: 'content-start',
      index: 0,
      delta: { message: { content: { type: 'image' } } },
    };
    const events = decode([
      start,
      { type: 'shiny-new' },
      { type: 'shiny-new' },
      odd,
      odd,
      end('COMPLETE'),
    ]);
    expect(events.filter((e) => e.type === 'warning')).toEqual([
      expect.objectContaining({
        code: 'unknown-event',
        message: expect.stringContaining('"shiny-new"'),
      }),
      expect.objectContaining({
        code: 'unknown-field',
        message: expect.stringContaining('"image"'),
      }),
    ]);
  });

  it('a payload that is not JSON throws malformed-event', () => {
    const decoder = createCohereDecoder();
    expect(() => decoder.next({ data: '{nope' }, () => undefined)).toThrow(
      expect.objectContaining({ code: 'malformed-event' }),
    );
  });

  it('EOF without message-end closes open parts and leaves the terminal to ensureTerminal', async () => {
    const body = [
      start,
      { type: 'content-delta', index: 0, delta: { message: { content: { text: 'Hi' } } } },
    ]
      .map((p) => `event: ${(p as { type: string }).type}\ndata: ${JSON.stringify(p)}\n\n`)
      .join('');
    const events = await collect(streamEvents(chunksOf([utf8(body)])));
    expect(events.map((e) => e.type)).toEqual([
      'response-start',
      'text-start',
      'text-delta',
      'text-end',
      'failed',
    ]);
    expect(events.at(-1)).toEqual(
      expect.objectContaining({ error: expect.objectContaining({ code: 'stream-closed' }) }),
    );
  });
});
