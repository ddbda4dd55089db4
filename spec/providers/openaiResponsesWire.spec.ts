import type { StreamEvent } from '../../src/events';
import type { Emit } from '../../src/providers/decoder';
import { createOpenAIResponsesDecoder } from '../../src/providers/openaiResponses';
import { responsesFailed } from '../../src/providers/openaiResponsesWire';

/** Runs the pure decoder over payload objects (one SSE message each) and returns what it emitted. */
function decode(payloads: object[]): StreamEvent[] {
  const events: StreamEvent[] = [];
  const emit: Emit = (event) => events.push(event);
  const decoder = createOpenAIResponsesDecoder();
  for (const payload of payloads) decoder.next({ data: JSON.stringify(payload) }, emit);
  decoder.complete(emit);
  return events;
}

/** What decoding `payload` after a `response.created` throws, or undefined. */
function thrownBy(payload: object): unknown {
  try {
    decode([{ type: 'response.created', response: { id: 'r' } }, payload]);
  } catch (error) {
    return error;
  }
  return undefined;
}

const start = { type: 'response-start', provider: 'openai-responses', id: 'r' };
const created = { type: 'response.created', response: { id: 'r' } };

describe('Responses wire schemas: a known event of the wrong shape is malformed-event', () => {
  const call = { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f' };
  // [event payload, the field the message must name]
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ type: 'response.completed' }, 'response'],
    [{ type: 'response.completed', response: { id: 5 } }, 'response.id'],
    [{ type: 'response.completed', response: { model: ['m'] } }, 'response.model'],
    [
      { type: 'response.completed', response: { usage: { input_tokens: '10' } } },
      'response.usage.input_tokens',
    ],
    [
      {
        type: 'response.completed',
        response: { usage: { input_tokens_details: { cached_tokens: '8' } } },
      },
      'response.usage.input_tokens_details.cached_tokens',
    ],
    [
      {
        type: 'response.completed',
        response: { usage: { output_tokens_details: { reasoning_tokens: '2' } } },
      },
      'response.usage.output_tokens_details.reasoning_tokens',
    ],
    [
      { type: 'response.incomplete', response: { incomplete_details: { reason: 3 } } },
      'response.incomplete_details.reason',
    ],
    [{ type: 'response.failed', response: { error: { code: 500 } } }, 'response.error.code'],
    [
      { type: 'response.failed', response: { error: { message: { text: 'x' } } } },
      'response.error.message',
    ],
    [{ type: 'error', code: 500, message: 'Boom.' }, 'code'],
    [{ type: 'error', error: { code: 500, message: 'Boom.' } }, 'error.code'],
    [{ type: 'response.output_item.added' }, 'item'],
    [{ type: 'response.output_item.added', item: { id: 'x' } }, 'item.type'],
    [{ type: 'response.output_item.done', item: { ...call, arguments: {} } }, 'item.arguments'],
    [{ type: 'response.output_text.done', item_id: 'm', text: 5 }, 'text'],
    [{ type: 'response.reasoning_text.done', item_id: 'rs', content_index: 0 }, 'text'],
    [{ type: 'response.refusal.done', item_id: 'm' }, 'refusal'],
    [{ type: 'response.reasoning_summary_text.delta', item_id: 'rs', delta: 'x' }, 'summary_index'],
    [{ type: 'response.reasoning_summary_text.done', item_id: 'rs', summary_index: 0 }, 'text'],
    [{ type: 'response.function_call_arguments.done', item_id: 'fc_1' }, 'arguments'],
  ];

  it.each(cases.map(([payload, field]) => [payload.type, field, payload] as const))(
    '%s naming %s',
    (type, field, payload) => {
      const thrown = thrownBy(payload) as { code?: string; provider?: string; message?: string };
      expect([thrown?.code, thrown?.provider]).toEqual(['malformed-event', 'openai-responses']);
      expect(thrown.message).toMatch(
        new RegExp(
          `^openai-responses: a "${type}" event does not have the expected shape: .*→ at ${field.replace(/\./g, '\\.')}$`,
          's',
        ),
      );
    },
  );

  it('null stands for absent wherever the wire may send it', () => {
    expect(
      decode([
        { type: 'response.created', response: { id: 'r', model: null, usage: null, error: null } },
        {
          type: 'response.completed',
          response: {
            usage: {
              input_tokens: 3,
              output_tokens: null,
              total_tokens: null,
              input_tokens_details: null,
              output_tokens_details: { reasoning_tokens: null },
            },
            incomplete_details: null,
            error: null,
          },
        },
      ]),
    ).toStrictEqual([
      start,
      { type: 'usage', inputTokens: 3 },
      { type: 'finish', reason: 'stop' },
      { type: 'completed', finishReason: 'stop', usage: { inputTokens: 3 } },
    ]);
  });
});

describe('Responses usage', () => {
  it('a usage object without one count is no usage event', () => {
    const empty = { type: 'response.completed', response: { usage: {} } };
    const nulls = {
      type: 'response.completed',
      response: {
        usage: {
          input_tokens: null,
          output_tokens: null,
          total_tokens: null,
          input_tokens_details: { cached_tokens: null },
          output_tokens_details: { reasoning_tokens: null },
        },
      },
    };
    const stop = [
      { type: 'finish', reason: 'stop' },
      { type: 'completed', finishReason: 'stop' },
    ];
    expect(decode([created, empty])).toStrictEqual([start, ...stop]);
    expect(decode([created, nulls])).toStrictEqual([start, ...stop]);
  });

  it('each count maps to its own field, and only the counts sent appear', () => {
    const usageOf = (usage: object) =>
      decode([created, { type: 'response.completed', response: { usage } }])[1];
    expect([
      usageOf({ output_tokens: 4 }),
      usageOf({ total_tokens: 9 }),
      usageOf({ input_tokens_details: { cached_tokens: 2 } }),
      usageOf({ output_tokens_details: { reasoning_tokens: 1 } }),
      usageOf({ input_tokens: 0 }),
    ]).toStrictEqual([
      { type: 'usage', outputTokens: 4 },
      { type: 'usage', totalTokens: 9 },
      { type: 'usage', cachedInputTokens: 2 },
      { type: 'usage', reasoningTokens: 1 },
      { type: 'usage', inputTokens: 0 },
    ]);
  });

  it('response.failed reports the usage it carries before the failed', () => {
    const failed = {
      type: 'response.failed',
      response: { usage: { input_tokens: 7, output_tokens: 1 }, error: { code: 'server_error' } },
    };
    expect(decode([created, failed]).slice(1)).toStrictEqual([
      { type: 'usage', inputTokens: 7, outputTokens: 1 },
      {
        type: 'failed',
        error: {
          code: 'server_error',
          message: 'The OpenAI Responses stream reported an error without a message.',
          provider: 'openai-responses',
          retryable: true,
        },
      },
    ]);
  });
});

describe('Responses errors', () => {
  it('response.failed without an error object → provider-error with a message of its own', () => {
    expect(decode([created, { type: 'response.failed', response: {} }])).toEqual([
      start,
      {
        type: 'failed',
        error: {
          code: 'provider-error',
          message: 'The OpenAI Responses stream reported an error without a message.',
          provider: 'openai-responses',
          retryable: false,
        },
      },
    ]);
  });

  it('retryable for server_error and rate_limit_exceeded only', () => {
    const codes = ['server_error', 'rate_limit_exceeded', 'insufficient_quota', 'invalid_prompt'];
    expect(codes.map((code) => [code, responsesFailed(code, 'm').error.retryable])).toEqual([
      ['server_error', true],
      ['rate_limit_exceeded', true],
      ['insufficient_quota', false],
      ['invalid_prompt', false],
    ]);
    expect(responsesFailed(null, null).error.retryable).toBe(false);
  });
});
