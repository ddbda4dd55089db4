import type { StreamEvent } from '../../src/events';
import { createAnthropicDecoder } from '../../src/providers/anthropic';
import type { Emit } from '../../src/providers/decoder';

// The shapes of Anthropic Messages events the decoder accepts and rejects, and the mappings of
// their fields (error, stop reason, usage), case by case.

/** Runs the pure decoder over payload objects (one SSE message each, named by their type). */
function decode(payloads: object[]): StreamEvent[] {
  const events: StreamEvent[] = [];
  const emit: Emit = (event) => events.push(event);
  const decoder = createAnthropicDecoder();
  for (const payload of payloads)
    decoder.next(
      { event: (payload as { type: string }).type, data: JSON.stringify(payload) },
      emit,
    );
  decoder.complete(emit);
  return events;
}

const messageStart = { type: 'message_start', message: { id: 'msg_1', model: 'claude' } };
const start = { type: 'response-start', provider: 'anthropic', id: 'msg_1', model: 'claude' };

const malformed = (type: string, what: string) =>
  expect.objectContaining({
    code: 'malformed-event',
    provider: 'anthropic',
    message: `anthropic: a "${type}" event does not have the expected shape: ✖ Invalid input: ${what}`,
  });

describe('decodeAnthropic event shapes', () => {
  it.each([
    ['message_start', {}, 'expected object, received undefined\n  → at message'],
    [
      'message_start',
      { message: { id: 5 } },
      'expected string, received number\n  → at message.id',
    ],
    [
      'message_start',
      { message: { model: ['claude'] } },
      'expected string, received array\n  → at message.model',
    ],
    [
      'message_start',
      { message: { usage: { input_tokens: '10' } } },
      'expected number, received string\n  → at message.usage.input_tokens',
    ],
    [
      'message_start',
      { message: { usage: { output_tokens: '1' } } },
      'expected number, received string\n  → at message.usage.output_tokens',
    ],
    [
      'message_start',
      { message: { usage: { cache_read_input_tokens: true } } },
      'expected number, received boolean\n  → at message.usage.cache_read_input_tokens',
    ],
    [
      'content_block_start',
      { content_block: { type: 'text' } },
      'expected number, received undefined\n  → at index',
    ],
    [
      'content_block_start',
      { index: 0 },
      'expected object, received undefined\n  → at content_block',
    ],
    [
      'content_block_start',
      { index: 0, content_block: { text: 'Hi' } },
      'expected string, received undefined\n  → at content_block.type',
    ],
    [
      'content_block_start',
      { index: 0, content_block: { type: 'tool_use', name: 3 } },
      'expected string, received number\n  → at content_block.name',
    ],
    [
      'content_block_delta',
      { index: '0', delta: { type: 'text_delta', text: 'Hi' } },
      'expected number, received string\n  → at index',
    ],
    ['content_block_delta', { index: 0 }, 'expected object, received undefined\n  → at delta'],
    [
      'content_block_delta',
      { index: 0, delta: { text: 'Hi' } },
      'expected string, received undefined\n  → at delta.type',
    ],
    [
      'content_block_delta',
      { index: 0, delta: { type: 'text_delta', text: 1 } },
      'expected string, received number\n  → at delta.text',
    ],
    ['content_block_stop', {}, 'expected number, received undefined\n  → at index'],
    ['content_block_stop', { index: 0.5 }, 'expected int, received number\n  → at index'],
    ['message_delta', { delta: 'end_turn' }, 'expected object, received string\n  → at delta'],
    [
      'message_delta',
      { delta: { stop_reason: 1 } },
      'expected string, received number\n  → at delta.stop_reason',
    ],
    [
      'message_delta',
      { usage: { output_tokens: '5' } },
      'expected number, received string\n  → at usage.output_tokens',
    ],
    ['error', { error: 'Overloaded' }, 'expected object, received string\n  → at error'],
    ['error', { error: { type: 529 } }, 'expected string, received number\n  → at error.type'],
    [
      'error',
      { error: { type: 'api_error', message: { text: 'x' } } },
      'expected string, received object\n  → at error.message',
    ],
  ])('%s %j → malformed-event naming the field', (type, fields, what) => {
    const payloads = type === 'message_start' ? [] : [messageStart];
    expect(() => decode([...payloads, { type, ...fields }])).toThrow(malformed(type, what));
  });

  it('an error event without an error object, or without type and message, is a provider-error', () => {
    const failed = {
      type: 'failed',
      error: {
        code: 'provider-error',
        message: 'The Anthropic stream reported an error without a message.',
        provider: 'anthropic',
        retryable: false,
      },
    };
    expect(decode([messageStart, { type: 'error' }])).toEqual([start, failed]);
    expect(decode([messageStart, { type: 'error', error: { type: null } }])).toEqual([
      start,
      failed,
    ]);
  });

  it.each([
    ['model_context_window_exceeded', 'length'],
    ['a_reason_added_later', 'other'],
    ['toString', 'other'],
    ['constructor', 'other'],
    ['__proto__', 'other'],
  ])('stop_reason %s → finish %s, raw kept', (raw, reason) => {
    expect(
      decode([messageStart, { type: 'message_delta', delta: { stop_reason: raw } }]).at(-1),
    ).toEqual({ type: 'finish', reason, raw });
  });

  it('a message_delta whose usage has no counts emits no usage; the terminal has none', () => {
    expect(
      decode([
        messageStart,
        {
          type: 'message_delta',
          delta: { stop_reason: 'end_turn' },
          usage: { input_tokens: null, output_tokens: null, cache_read_input_tokens: null },
        },
        { type: 'message_delta', usage: {} },
        { type: 'message_stop' },
      ]),
    ).toEqual([
      start,
      { type: 'finish', reason: 'stop', raw: 'end_turn' },
      { type: 'completed', finishReason: 'stop' },
    ]);
  });

  it('usage carries only the counts the wire sent', () => {
    const only = (usage: object) =>
      decode([messageStart, { type: 'message_delta', usage }]).filter((e) => e.type === 'usage');
    expect(only({ input_tokens: 3 })).toStrictEqual([{ type: 'usage', inputTokens: 3 }]);
    expect(only({ output_tokens: 4 })).toStrictEqual([{ type: 'usage', outputTokens: 4 }]);
    expect(only({ cache_read_input_tokens: 5 })).toStrictEqual([
      { type: 'usage', cachedInputTokens: 5 },
    ]);
  });
});
