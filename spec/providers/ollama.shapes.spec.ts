import type { StreamEvent } from '../../src/events';
import type { Emit } from '../../src/providers/decoder';
import { createOllamaDecoder } from '../../src/providers/ollama';

// The shapes of an Ollama /api/chat line the decoder accepts and rejects, case by case.

function decode(lines: unknown[]): StreamEvent[] {
  const events: StreamEvent[] = [];
  const emit: Emit = (event) => events.push(event);
  const decoder = createOllamaDecoder();
  for (const line of lines) decoder.next(line, emit);
  decoder.complete(emit);
  return events;
}

const malformed = (what: string) =>
  expect.objectContaining({
    code: 'malformed-event',
    provider: 'ollama',
    message: `ollama: a "chat" event does not have the expected shape: ✖ Invalid input: ${what}`,
  });

describe('decodeOllama line shapes', () => {
  it.each([
    [
      'done that is not a boolean',
      { done: 'yes' },
      'expected boolean, received string\n  → at done',
    ],
    [
      'a model that is not a string',
      { model: 3 },
      'expected string, received number\n  → at model',
    ],
    [
      'message content that is not a string',
      { message: { content: 5 } },
      'expected string, received number\n  → at message.content',
    ],
    [
      'message thinking that is not a string',
      { message: { thinking: ['a'] } },
      'expected string, received array\n  → at message.thinking',
    ],
    [
      'tool_calls that is not an array',
      { message: { tool_calls: { id: 'a' } } },
      'expected array, received object\n  → at message.tool_calls',
    ],
    [
      'a tool call without function',
      { message: { tool_calls: [{ id: 'a' }] } },
      'expected object, received undefined\n  → at message.tool_calls[0].function',
    ],
    [
      'a tool call id that is not a string',
      { message: { tool_calls: [{ id: 7, function: { name: 'f' } }] } },
      'expected string, received number\n  → at message.tool_calls[0].id',
    ],
    [
      'a tool call function without name',
      { message: { tool_calls: [{ function: { arguments: {} } }] } },
      'expected string, received undefined\n  → at message.tool_calls[0].function.name',
    ],
    [
      'a tool call index that is not an integer',
      { message: { tool_calls: [{ function: { name: 'f', index: 1.5 } }] } },
      'expected int, received number\n  → at message.tool_calls[0].function.index',
    ],
    [
      'a done_reason that is not a string',
      { done: true, done_reason: 1 },
      'expected string, received number\n  → at done_reason',
    ],
    [
      'an eval_count that is not a number',
      { done: true, eval_count: '3' },
      'expected number, received string\n  → at eval_count',
    ],
    [
      'a prompt_eval_count that is not a number',
      { done: true, prompt_eval_count: '3' },
      'expected number, received string\n  → at prompt_eval_count',
    ],
  ])('rejects %s with malformed-event naming the field', (_, line, what) => {
    expect(() => decode([line])).toThrow(malformed(what));
  });

  it('accepts null for every optional field; no done_reason finishes stop without raw', () => {
    expect(
      decode([
        {
          model: null,
          message: { content: null, thinking: null, tool_calls: null },
          done: null,
          done_reason: null,
          prompt_eval_count: null,
          eval_count: null,
        },
        { message: null, done: true },
      ]),
    ).toStrictEqual([
      { type: 'response-start', provider: 'ollama' },
      { type: 'finish', reason: 'stop' },
      { type: 'completed', finishReason: 'stop' },
    ]);
  });

  it('role, images and tool_name are known message fields: no warning', () => {
    expect(
      decode([
        {
          model: 'm',
          message: { role: 'assistant', content: 'x', images: null, tool_name: 'f' },
          done: true,
          done_reason: 'stop',
        },
      ]),
    ).toEqual([
      { type: 'response-start', provider: 'ollama', model: 'm' },
      { type: 'text-start', id: 'ollama:text:0' },
      { type: 'text-delta', id: 'ollama:text:0', delta: 'x' },
      { type: 'text-end', id: 'ollama:text:0' },
      { type: 'finish', reason: 'stop', raw: 'stop' },
      { type: 'completed', finishReason: 'stop' },
    ]);
  });

  it('an empty done_reason is finish other, without raw', () => {
    expect(decode([{ done: true, done_reason: '' }])).toStrictEqual([
      { type: 'response-start', provider: 'ollama' },
      { type: 'finish', reason: 'other' },
      { type: 'completed', finishReason: 'other' },
    ]);
  });

  it('one eval count alone is usage without a total', () => {
    expect(decode([{ done: true, done_reason: 'stop', prompt_eval_count: 7 }])).toStrictEqual([
      { type: 'response-start', provider: 'ollama' },
      { type: 'usage', inputTokens: 7 },
      { type: 'finish', reason: 'stop', raw: 'stop' },
      { type: 'completed', finishReason: 'stop', usage: { inputTokens: 7 } },
    ]);
  });

  it('two unknown message fields warn once each', () => {
    expect(decode([{ message: { audio: 'a', video: 'v' } }, { message: { video: 'w' } }])).toEqual([
      { type: 'response-start', provider: 'ollama' },
      {
        type: 'warning',
        code: 'unknown-field',
        message: 'Ollama message field "audio" is not decoded; it was skipped.',
      },
      {
        type: 'warning',
        code: 'unknown-field',
        message: 'Ollama message field "video" is not decoded; it was skipped.',
      },
    ]);
  });

  it('nothing is decoded after done', () => {
    expect(
      decode([
        { done: true, done_reason: 'stop' },
        { message: { content: 'late' } },
        { error: 'late' },
        { done: true, done_reason: 'length' },
      ]),
    ).toEqual([
      { type: 'response-start', provider: 'ollama' },
      { type: 'finish', reason: 'stop', raw: 'stop' },
      { type: 'completed', finishReason: 'stop' },
    ]);
  });

  it('an error object is failed with its JSON; nothing is decoded after it', () => {
    expect(
      decode([
        { message: { thinking: 'hm' } },
        { error: { status: 500, reason: 'oom' } },
        { message: { content: 'late' } },
        { done: true, done_reason: 'stop' },
      ]),
    ).toEqual([
      { type: 'response-start', provider: 'ollama' },
      { type: 'reasoning-start', id: 'ollama:reasoning:0', index: 0 },
      { type: 'reasoning-delta', id: 'ollama:reasoning:0', index: 0, delta: 'hm', kind: 'text' },
      { type: 'reasoning-end', id: 'ollama:reasoning:0', index: 0 },
      {
        type: 'failed',
        error: {
          code: 'provider-error',
          message: 'Ollama reported an error: "{\\"status\\":500,\\"reason\\":\\"oom\\"}"',
          provider: 'ollama',
          retryable: false,
        },
      },
    ]);
  });
});
