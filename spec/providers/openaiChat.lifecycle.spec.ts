import type { StreamEvent } from '../../src/events';
import { createOpenAIChatDecoder } from '../../src/providers/openaiChat';

// The openai-chat decoder from its first message to its last: where the response starts, what
// a stream without chunks gives, blank data, and that nothing follows a `failed`.

/** The events of raw `data:` payloads fed to the pure decoder, then `complete`. */
function run(...data: string[]): StreamEvent[] {
  const decoder = createOpenAIChatDecoder();
  const events: StreamEvent[] = [];
  const emit = (event: StreamEvent) => events.push(event);
  for (const payload of data) decoder.next({ data: payload }, emit);
  decoder.complete(emit);
  return events;
}
const json = (value: object) => JSON.stringify(value);
const text = (content: string, more: object = {}) =>
  json({ id: 'r', choices: [{ index: 0, delta: { content } }], ...more });
const BOOM = {
  type: 'failed',
  error: { code: 'provider-error', message: 'boom', provider: 'openai-chat', retryable: true },
};

describe('createOpenAIChatDecoder start and end', () => {
  it('[DONE] alone is completed; no message at all is nothing', () => {
    expect(run('[DONE]')).toStrictEqual([{ type: 'completed' }]);
    expect(run()).toStrictEqual([]);
  });

  it('a chunk without id or model starts a response without them; ids derive from "response"', () => {
    const expected = [
      { type: 'response-start', provider: 'openai-chat' },
      { type: 'text-start', id: 'response:text' },
      { type: 'text-delta', id: 'response:text', delta: 'x' },
      { type: 'text-end', id: 'response:text' },
      { type: 'completed' },
    ];
    expect(run(json({ choices: [{ delta: { content: 'x' } }] }), '[DONE]')).toStrictEqual(expected);
    expect(
      run(json({ id: '', model: '', choices: [{ delta: { content: 'x' } }] }), '[DONE]'),
    ).toStrictEqual(expected);
  });

  it('an error chunk with an empty choices list still starts the response', () => {
    expect(run(json({ id: 'r', model: 'm', error: 'boom', choices: [] }))).toStrictEqual([
      { type: 'response-start', provider: 'openai-chat', id: 'r', model: 'm' },
      BOOM,
    ]);
  });

  it('a choice without a delta still finishes', () => {
    const choice = { index: 0, finish_reason: 'stop' };
    expect(run(json({ id: 'r', choices: [choice] }), '[DONE]')).toStrictEqual([
      { type: 'response-start', provider: 'openai-chat', id: 'r' },
      { type: 'finish', reason: 'stop', raw: 'stop' },
      { type: 'completed', finishReason: 'stop' },
    ]);
  });

  it('at the end of the source, without [DONE], pending tool calls are still emitted', () => {
    const call = { index: 0, id: 'c', function: { name: 'f', arguments: '{}' } };
    expect(run(json({ id: 'r', choices: [{ index: 0, delta: { tool_calls: [call] } }] }))).toEqual([
      { type: 'response-start', provider: 'openai-chat', id: 'r' },
      { type: 'tool-input-start', id: 'c', name: 'f', index: 0 },
      { type: 'tool-input-delta', id: 'c', delta: '{}' },
      { type: 'tool-call', id: 'c', name: 'f', input: {}, inputText: '{}' },
    ]);
  });

  it('blank data is skipped', () => {
    expect(run(text('x'), ' ', '\n', '', '[DONE]')).toEqual([
      { type: 'response-start', provider: 'openai-chat', id: 'r' },
      { type: 'text-start', id: 'r:text' },
      { type: 'text-delta', id: 'r:text', delta: 'x' },
      { type: 'text-end', id: 'r:text' },
      { type: 'completed' },
    ]);
  });
});

describe('createOpenAIChatDecoder after an error', () => {
  it('a finish beside an error object is not a finish', () => {
    const events = run(
      json({
        id: 'r',
        choices: [{ index: 0, delta: { content: 'x' }, finish_reason: 'stop' }],
        error: 'boom',
      }),
    );
    expect(events.slice(1)).toEqual([
      { type: 'text-start', id: 'r:text' },
      { type: 'text-delta', id: 'r:text', delta: 'x' },
      { type: 'text-end', id: 'r:text' },
      BOOM,
    ]);
  });

  it('nothing follows failed: no later text, no [DONE] terminal, no pending tool call', () => {
    const call = json({
      id: 'r',
      choices: [
        { index: 0, delta: { tool_calls: [{ index: 0, id: 'c', function: { name: 'f' } }] } },
      ],
    });
    expect(run(text('x'), json({ error: 'boom' }), text('y'), '[DONE]').slice(1)).toEqual([
      { type: 'text-start', id: 'r:text' },
      { type: 'text-delta', id: 'r:text', delta: 'x' },
      { type: 'text-end', id: 'r:text' },
      BOOM,
    ]);
    expect(run(call, json({ error: 'boom' })).slice(1)).toEqual([
      { type: 'tool-input-start', id: 'c', name: 'f', index: 0 },
      BOOM,
    ]);
    expect(
      run(call, json({ id: 'r', choices: [{ index: 0, delta: {}, finish_reason: 'error' }] })),
    ).toEqual([
      { type: 'response-start', provider: 'openai-chat', id: 'r' },
      { type: 'tool-input-start', id: 'c', name: 'f', index: 0 },
      {
        type: 'failed',
        error: {
          code: 'provider-error',
          message: 'The provider reported an error inside the stream.',
          provider: 'openai-chat',
          retryable: true,
        },
      },
    ]);
  });
});
