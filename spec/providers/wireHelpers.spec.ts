import type { StreamEvent } from '../../src/events';
import { createOllamaDecoder } from '../../src/providers/ollama';
import { createOpenAIResponsesDecoder } from '../../src/providers/openaiResponses';
import { wireTypeOf } from '../../src/providers/wireSchema';
import { chunk, decode, sse } from './openaiChatHelpers';

// The helpers every decoder shares: reading a payload's type, validating a payload's shape,
// turning finished tool-call arguments into `tool-call`, and what a `.done` text adds.

const NOT_TYPED =
  'openai-responses: an event is not an object with a string "type" (SSE event "").';

describe('the type of a wire payload', () => {
  it.each([['null'], ['[]'], ['"text"'], ['{}'], ['{"type":5}'], ['{"type":null}']])(
    'openai-responses payload %s has no string type → malformed-event',
    (data) => {
      const decoder = createOpenAIResponsesDecoder();
      const events: StreamEvent[] = [];
      expect(() => decoder.next({ data }, (event) => events.push(event))).toThrow(
        expect.objectContaining({
          code: 'malformed-event',
          message: NOT_TYPED,
          provider: 'openai-responses',
        }),
      );
      expect(events).toEqual([]);
    },
  );

  it('the SSE event name stands in for a missing type, for objects only', () => {
    expect(wireTypeOf({ type: 'a' }, 'p', 'named')).toBe('a');
    expect(wireTypeOf({}, 'p', 'named')).toBe('named');
    const failure = (fallback: string) =>
      expect.objectContaining({
        code: 'malformed-event',
        message: `p: an event is not an object with a string "type" (SSE event "${fallback}").`,
        provider: 'p',
      });
    expect(() => wireTypeOf({ type: 5 }, 'p', 'named')).toThrow(failure('named'));
    expect(() => wireTypeOf([], 'p', 'named')).toThrow(failure('named'));
    expect(() => wireTypeOf(null, 'p', 'named')).toThrow(failure('named'));
    expect(() => wireTypeOf('text', 'p', 'named')).toThrow(failure('named'));
    expect(() => wireTypeOf({}, 'p')).toThrow(failure(''));
  });
});

describe('the shape of a wire payload', () => {
  it('names the provider, the event and what was wrong', () => {
    const lines = [42, { message: { content: 5 } }];
    for (const line of lines) {
      expect(() => createOllamaDecoder().next(line as never, () => undefined)).toThrow(
        expect.objectContaining({
          code: 'malformed-event',
          provider: 'ollama',
          message: expect.stringMatching(
            /^ollama: a "chat" event does not have the expected shape: \S/,
          ),
        }),
      );
    }
    expect(() =>
      createOllamaDecoder().next({ message: { content: 5 } } as never, () => undefined),
    ).toThrow(/expected string, received number\n {2}→ at message\.content$/);
  });
});

describe('tool-call arguments', () => {
  it('whitespace-only arguments are a call without parameters: input {}', async () => {
    const events = await decode(
      sse(
        chunk({
          delta: { tool_calls: [{ index: 0, id: 'c', function: { name: 'f', arguments: ' \n' } }] },
        }),
        '[DONE]',
      ),
    );
    expect(events.filter((e) => e.type === 'tool-call')).toEqual([
      { type: 'tool-call', id: 'c', name: 'f', input: {}, inputText: ' \n' },
    ]);
  });
});

describe('a .done text against what was streamed', () => {
  const created = { type: 'response.created', response: { id: 'resp_1', model: 'm' } };
  const run = (streamed: string, full: string) => {
    const decoder = createOpenAIResponsesDecoder();
    const events: StreamEvent[] = [];
    const emit = (event: StreamEvent) => events.push(event);
    const payloads = [
      created,
      { type: 'response.output_text.delta', item_id: 'msg', content_index: 0, delta: streamed },
      { type: 'response.output_text.done', item_id: 'msg', content_index: 0, text: full },
    ];
    for (const payload of payloads) decoder.next({ data: JSON.stringify(payload) }, emit);
    return events.filter((e) => e.type === 'text-delta' || e.type === 'text-end');
  };

  it('sends only the missing end when the full text extends the deltas', () => {
    expect(run('xy', 'xyz')).toEqual([
      { type: 'text-delta', id: 'msg', delta: 'xy' },
      { type: 'text-delta', id: 'msg', delta: 'z' },
      { type: 'text-end', id: 'msg', text: 'xyz' },
    ]);
  });

  it.each([
    ['a longer text that does not extend them', 'xy', 'abcd'],
    ['a shorter text', 'xyz', 'ab'],
    ['the same text', 'xy', 'xy'],
  ])('sends nothing more for %s', (_case, streamed, full) => {
    expect(run(streamed, full)).toEqual([
      { type: 'text-delta', id: 'msg', delta: streamed },
      { type: 'text-end', id: 'msg', text: full },
    ]);
  });
});
