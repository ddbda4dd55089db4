import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { from } from 'rxjs';
import type { StreamEvent } from '../../src/events';
import type { Emit } from '../../src/providers/decoder';
import { createOllamaDecoder, decodeOllama } from '../../src/providers/ollama';
import { streamEvents } from '../../src/streamEvents';
import { collect } from '../helpers/bytes';

// Served as Ollama serves /api/chat: application/x-ndjson, so streamEvents picks the decoder.
const eventsOf = (name: string) =>
  collect(
    streamEvents(
      new Response(readFileSync(join(__dirname, '../../fixtures/ollama', name)), {
        headers: { 'content-type': 'application/x-ndjson; charset=utf-8' },
      }),
    ),
  );

function decode(lines: unknown[]): StreamEvent[] {
  const events: StreamEvent[] = [];
  const emit: Emit = (event) => events.push(event);
  const decoder = createOllamaDecoder();
  for (const line of lines) decoder.next(line, emit);
  decoder.complete(emit);
  return events;
}

const line = (message: object, more: object = {}) => ({
  model: 'llama3.2',
  message: { role: 'assistant', content: '', ...message },
  done: false,
  ...more,
});
const start = { type: 'response-start', provider: 'ollama', model: 'llama3.2' };

describe('decodeOllama', () => {
  it('decodes thinking, text and a whole tool call; done + eval counts → usage and tool-calls', async () => {
    const usage = { inputTokens: 26, outputTokens: 12, totalTokens: 38 };
    expect(await eventsOf('thinking-text-tool.ndjson')).toEqual([
      { type: 'response-start', provider: 'ollama', model: 'qwen3:8b' },
      { type: 'reasoning-start', id: 'ollama:reasoning:0', index: 0 },
      {
        type: 'reasoning-delta',
        id: 'ollama:reasoning:0',
        index: 0,
        delta: 'The user asks',
        kind: 'text',
      },
      {
        type: 'reasoning-delta',
        id: 'ollama:reasoning:0',
        index: 0,
        delta: ' for the weather.',
        kind: 'text',
      },
      { type: 'reasoning-end', id: 'ollama:reasoning:0', index: 0 },
      { type: 'text-start', id: 'ollama:text:0' },
      { type: 'text-delta', id: 'ollama:text:0', delta: 'Checking' },
      { type: 'text-delta', id: 'ollama:text:0', delta: ' now.' },
      { type: 'text-end', id: 'ollama:text:0' },
      { type: 'tool-input-start', id: 'ollama:call:0', name: 'get_weather', index: 0 },
      {
        type: 'tool-call',
        id: 'ollama:call:0',
        name: 'get_weather',
        input: { city: 'Toronto' },
        inputText: '{"city":"Toronto"}',
      },
      { type: 'usage', ...usage },
      { type: 'finish', reason: 'tool-calls', raw: 'stop' },
      { type: 'completed', finishReason: 'tool-calls', usage },
    ]);
  });

  it('{"error": …} mid-stream → the text so far, then one failed', async () => {
    expect(await eventsOf('error-mid-stream.ndjson')).toEqual([
      { type: 'response-start', provider: 'ollama', model: 'qwen3:8b' },
      { type: 'text-start', id: 'ollama:text:0' },
      { type: 'text-delta', id: 'ollama:text:0', delta: 'Hel' },
      { type: 'text-end', id: 'ollama:text:0' },
      {
        type: 'failed',
        error: {
          code: 'provider-error',
          message:
            'model runner has unexpectedly stopped, this may be due to resource limitations or an internal error',
          provider: 'ollama',
          retryable: false,
        },
      },
    ]);
  });

  it('EOF without done → failed stream-closed, retryable', async () => {
    expect((await eventsOf('ends-without-done.ndjson')).slice(-2)).toEqual([
      { type: 'text-end', id: 'ollama:text:0' },
      {
        type: 'failed',
        error: {
          code: 'stream-closed',
          message:
            'The stream ended before the provider sent a finish reason or a terminal event (5 events received).',
          retryable: true,
        },
      },
    ]);
  });

  it('done_reason length → incomplete; load → completed with finish other', async () => {
    expect((await eventsOf('length.ndjson')).slice(-3)).toEqual([
      { type: 'usage', inputTokens: 5, outputTokens: 3, totalTokens: 8 },
      { type: 'finish', reason: 'length', raw: 'length' },
      {
        type: 'incomplete',
        reason: 'length',
        message: 'The model stopped at its output token limit.',
      },
    ]);
    expect(decode([line({}, { done: true, done_reason: 'load' })])).toEqual([
      start,
      { type: 'finish', reason: 'other', raw: 'load' },
      { type: 'completed', finishReason: 'other' },
    ]);
  });

  it('thinking after text is a new reasoning entry; a wire tool id and index are kept; string arguments parse', () => {
    const call = { id: 'call_9', function: { index: 3, name: 'f', arguments: '{"x":1}' } };
    expect(
      decode([
        line({ content: 'A' }),
        line({ thinking: 'B' }),
        line({ tool_calls: [call] }),
        line({ content: '' }, { done: true, done_reason: 'stop' }),
      ]),
    ).toEqual([
      start,
      { type: 'text-start', id: 'ollama:text:0' },
      { type: 'text-delta', id: 'ollama:text:0', delta: 'A' },
      { type: 'reasoning-start', id: 'ollama:reasoning:0', index: 0 },
      { type: 'reasoning-delta', id: 'ollama:reasoning:0', index: 0, delta: 'B', kind: 'text' },
      { type: 'reasoning-end', id: 'ollama:reasoning:0', index: 0 },
      { type: 'text-end', id: 'ollama:text:0' },
      { type: 'tool-input-start', id: 'call_9', name: 'f', index: 3 },
      { type: 'tool-call', id: 'call_9', name: 'f', input: { x: 1 }, inputText: '{"x":1}' },
      { type: 'finish', reason: 'tool-calls', raw: 'stop' },
      { type: 'completed', finishReason: 'tool-calls' },
    ]);
  });

  it('an unknown message field warns once per name; a non-object line throws malformed-event', () => {
    expect(decode([line({ content: 'x', audio: 'a' }), line({ audio: 'b' })])).toEqual([
      start,
      {
        type: 'warning',
        code: 'unknown-field',
        message: 'Ollama message field "audio" is not decoded; it was skipped.',
      },
      { type: 'text-start', id: 'ollama:text:0' },
      { type: 'text-delta', id: 'ollama:text:0', delta: 'x' },
      { type: 'text-end', id: 'ollama:text:0' },
    ]);
    expect(() => decode([42])).toThrow(
      expect.objectContaining({ code: 'malformed-event', provider: 'ollama' }),
    );
  });

  it('the operator form decodes parsed NDJSON values', async () => {
    const values = [
      line({ content: 'Hi' }),
      line({}, { done: true, done_reason: 'stop', eval_count: 1 }),
    ];
    expect(await collect(from(values).pipe(decodeOllama()))).toEqual([
      start,
      { type: 'text-start', id: 'ollama:text:0' },
      { type: 'text-delta', id: 'ollama:text:0', delta: 'Hi' },
      { type: 'text-end', id: 'ollama:text:0' },
      { type: 'usage', outputTokens: 1 },
      { type: 'finish', reason: 'stop', raw: 'stop' },
      { type: 'completed', finishReason: 'stop', usage: { outputTokens: 1 } },
    ]);
  });
});
