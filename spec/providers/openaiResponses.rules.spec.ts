import type { StreamEvent } from '../../src/events';
import { createOpenAIResponsesDecoder } from '../../src/providers/openaiResponses';
import { decodePayloads } from './decoderSupport';

/** Runs the pure decoder over payload objects (one SSE message each) and returns what it emitted. */
const decode = (payloads: object[], options?: { complete?: boolean }): StreamEvent[] =>
  decodePayloads(createOpenAIResponsesDecoder(), payloads, options);

const created = { type: 'response.created', response: { id: 'resp_1', model: 'm' } };
const start = { type: 'response-start', provider: 'openai-responses', id: 'resp_1', model: 'm' };
const callItem = { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'add' };
/** A function call announced and half streamed: neither `.done` event came. */
const openCall = [
  { type: 'response.output_item.added', output_index: 0, item: callItem },
  { type: 'response.function_call_arguments.delta', item_id: 'fc_1', delta: '{"a":1}' },
];
const openCallEvents = [
  { type: 'tool-input-start', id: 'call_1', name: 'add', index: 0 },
  { type: 'tool-input-delta', id: 'call_1', delta: '{"a":1}' },
];
const toolCall = {
  type: 'tool-call',
  id: 'call_1',
  name: 'add',
  input: { a: 1 },
  inputText: '{"a":1}',
};

describe('decodeOpenAIResponses: the response lifecycle', () => {
  it('response.queued starts the response; the created and in_progress after it add nothing', () => {
    const queued = { type: 'response.queued', response: { id: 'resp_q', model: 'gpt-5' } };
    expect(
      decode([
        queued,
        { ...created, response: { id: 'resp_q', model: 'gpt-5' } },
        { type: 'response.in_progress', response: { id: 'resp_q', model: 'gpt-5' } },
      ]),
    ).toEqual([
      { type: 'response-start', provider: 'openai-responses', id: 'resp_q', model: 'gpt-5' },
    ]);
  });

  it('a response without an id or model (null on the wire) starts without them', () => {
    const [first] = decode([{ type: 'response.created', response: { id: null, model: null } }]);
    expect(first).toStrictEqual({ type: 'response-start', provider: 'openai-responses' });
    const [empty] = decode([{ type: 'response.created', response: { id: '', model: '' } }]);
    expect(empty).toStrictEqual({ type: 'response-start', provider: 'openai-responses' });
  });

  it('response.completed turns a call that never got its .done events into a tool-call', () => {
    expect(decode([created, ...openCall, { type: 'response.completed', response: {} }])).toEqual([
      start,
      ...openCallEvents,
      toolCall,
      { type: 'finish', reason: 'tool-calls' },
      { type: 'completed', finishReason: 'tool-calls' },
    ]);
  });

  it('response.incomplete also finishes such a call before its finish', () => {
    const incomplete = {
      type: 'response.incomplete',
      response: { incomplete_details: { reason: 'max_output_tokens' } },
    };
    expect(decode([created, ...openCall, incomplete])).toEqual([
      start,
      ...openCallEvents,
      toolCall,
      { type: 'finish', reason: 'length', raw: 'max_output_tokens' },
      {
        type: 'incomplete',
        reason: 'length',
        message: 'The model stopped at its output token limit.',
      },
    ]);
  });

  it('response.failed and the error event drop a half-streamed call: half a call must not run', () => {
    const failed = {
      type: 'response.failed',
      response: { error: { code: 'server_error', message: 'Boom.' } },
    };
    const error = { type: 'error', code: 'server_error', message: 'Boom.' };
    const failure = {
      type: 'failed',
      error: {
        code: 'server_error',
        message: 'Boom.',
        provider: 'openai-responses',
        retryable: true,
      },
    };
    expect(decode([created, ...openCall, failed])).toEqual([start, ...openCallEvents, failure]);
    expect(decode([created, ...openCall, error])).toEqual([start, ...openCallEvents, failure]);
  });

  it('response.incomplete without incomplete_details ends incomplete with reason unknown', () => {
    expect(decode([created, { type: 'response.incomplete', response: {} }])).toEqual([
      start,
      { type: 'finish', reason: 'other', raw: 'unknown' },
      {
        type: 'incomplete',
        reason: 'unknown',
        message: 'The response ended incomplete (unknown).',
      },
    ]);
  });

  it('an incomplete reason it does not map is kept as the incomplete reason, raw on finish', () => {
    const incomplete = {
      type: 'response.incomplete',
      response: {
        incomplete_details: { reason: 'a_future_reason' },
        usage: { input_tokens: 5, output_tokens: 2 },
      },
    };
    expect(decode([created, incomplete])).toEqual([
      start,
      { type: 'usage', inputTokens: 5, outputTokens: 2 },
      { type: 'finish', reason: 'other', raw: 'a_future_reason' },
      {
        type: 'incomplete',
        reason: 'a_future_reason',
        message: 'The response ended incomplete (a_future_reason).',
      },
    ]);
  });
});

describe('decodeOpenAIResponses: the error event', () => {
  const failedWith = (code: string, message: string, retryable = false) => ({
    type: 'failed',
    error: { code, message, provider: 'openai-responses', retryable },
  });

  it('the nested code wins over the nested type, which wins over a flat code', () => {
    const cases: Array<[object, ReturnType<typeof failedWith>]> = [
      [
        {
          type: 'error',
          error: {
            type: 'invalid_request_error',
            code: 'context_length_exceeded',
            message: 'Too long.',
          },
        },
        failedWith('context_length_exceeded', 'Too long.'),
      ],
      [
        { type: 'error', error: { type: 'rate_limit_exceeded', message: 'Slow down.' } },
        failedWith('rate_limit_exceeded', 'Slow down.', true),
      ],
      [
        { type: 'error', code: 'flat_code', message: 'Flat.', error: { message: 'Nested.' } },
        failedWith('flat_code', 'Nested.'),
      ],
    ];
    expect(cases.map(([error]) => decode([created, error]).at(-1))).toEqual(
      cases.map(([, failed]) => failed),
    );
  });
});

describe('decodeOpenAIResponses: text', () => {
  it('refusal.done alone still delivers the refusal as text', () => {
    const refusal = { type: 'response.refusal.done', item_id: 'msg_1', refusal: 'I cannot.' };
    expect(decode([created, refusal])).toEqual([
      start,
      { type: 'text-start', id: 'msg_1' },
      { type: 'text-delta', id: 'msg_1', delta: 'I cannot.' },
      { type: 'text-end', id: 'msg_1', text: 'I cannot.' },
    ]);
  });

  it('refusal deltas then refusal.done: the done adds only what the deltas missed', () => {
    expect(
      decode([
        created,
        { type: 'response.refusal.delta', item_id: 'msg_1', content_index: 0, delta: 'I ' },
        { type: 'response.refusal.done', item_id: 'msg_1', content_index: 0, refusal: 'I cannot.' },
      ]),
    ).toEqual([
      start,
      { type: 'text-start', id: 'msg_1' },
      { type: 'text-delta', id: 'msg_1', delta: 'I ' },
      { type: 'text-delta', id: 'msg_1', delta: 'cannot.' },
      { type: 'text-end', id: 'msg_1', text: 'I cannot.' },
    ]);
  });

  it('a second content part of one message is a text part of its own, `item:content_index`', () => {
    expect(
      decode([
        created,
        { type: 'response.output_text.delta', item_id: 'msg_1', content_index: 0, delta: 'A' },
        { type: 'response.output_text.delta', item_id: 'msg_1', content_index: 1, delta: 'B' },
        { type: 'response.output_text.done', item_id: 'msg_1', content_index: 1, text: 'B' },
      ]),
    ).toEqual([
      start,
      { type: 'text-start', id: 'msg_1' },
      { type: 'text-delta', id: 'msg_1', delta: 'A' },
      { type: 'text-end', id: 'msg_1' },
      { type: 'text-start', id: 'msg_1:1' },
      { type: 'text-delta', id: 'msg_1:1', delta: 'B' },
      { type: 'text-end', id: 'msg_1:1', text: 'B' },
    ]);
  });
});

describe('decodeOpenAIResponses: sequence numbers', () => {
  it('a message without a sequence number does not reset the count', () => {
    const text = { type: 'response.output_text.delta', item_id: 'm', delta: 'x' };
    expect(
      decode([{ ...created, sequence_number: 0 }, text, { ...text, sequence_number: 2 }]).filter(
        (event) => event.type === 'warning',
      ),
    ).toEqual([
      {
        type: 'warning',
        code: 'sequence-gap',
        message: 'OpenAI Responses skipped from sequence number 1 to 2; events may be missing.',
        detail: { expected: 1, received: 2 },
      },
    ]);
  });

  it('numbers in order, or the first one above 0, warn nothing', () => {
    const text = { type: 'response.output_text.delta', item_id: 'm', delta: 'x' };
    expect(
      decode([
        { ...created, sequence_number: 7 },
        { ...text, sequence_number: 8 },
        { ...text, sequence_number: 9 },
      ]).filter((event) => event.type === 'warning'),
    ).toEqual([]);
  });
});
