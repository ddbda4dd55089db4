import { chunk, decode, fixture, sse } from './openaiChatHelpers';

const start = (id: string, model: string) => ({
  type: 'response-start',
  provider: 'openai-chat',
  id,
  model,
});

describe('decodeOpenAIChat on the project fixtures', () => {
  it('decodes the report: Qwen3 via OpenRouter, reasoning_details only → content → stop', async () => {
    const id = 'gen-qwen3-0001';
    const usage = {
      inputTokens: 14,
      outputTokens: 21,
      reasoningTokens: 12,
      cachedInputTokens: 0,
      totalTokens: 35,
      cost: 0.00004,
    };
    expect(await decode(fixture('qwen3-reasoning-details.sse'))).toEqual([
      start(id, 'qwen/qwen3-235b-a22b'),
      { type: 'reasoning-start', id: `${id}:reasoning:0`, index: 0 },
      {
        type: 'reasoning-delta',
        id: `${id}:reasoning:0`,
        index: 0,
        delta: 'The user wants 17 × 3.',
        kind: 'text',
      },
      {
        type: 'reasoning-delta',
        id: `${id}:reasoning:0`,
        index: 0,
        delta: ' 17 × 3 = 51.',
        kind: 'text',
      },
      { type: 'reasoning-end', id: `${id}:reasoning:0`, index: 0, format: 'unknown' },
      { type: 'text-start', id: `${id}:text` },
      { type: 'text-delta', id: `${id}:text`, delta: '17 × 3 = ' },
      { type: 'text-delta', id: `${id}:text`, delta: '**51**.' },
      { type: 'text-end', id: `${id}:text` },
      { type: 'finish', reason: 'stop', raw: 'stop' },
      // OpenRouter repeats the finish with usage: one finish, and the usage is still reported.
      { type: 'usage', ...usage },
      { type: 'completed', finishReason: 'stop', usage },
    ]);
  });

  it('acceptance: reasoning_details and finish_reason "stop" in one chunk → reasoning, finish, completed', async () => {
    const id = 'gen-report-0003';
    expect(await decode(fixture('reasoning-and-finish-in-one-chunk.sse'))).toEqual([
      start(id, 'qwen/qwen3-235b-a22b'),
      { type: 'reasoning-start', id: `${id}:reasoning:0`, index: 0 },
      {
        type: 'reasoning-delta',
        id: `${id}:reasoning:0`,
        index: 0,
        delta: 'Let me work through this problem step by step...',
        kind: 'text',
      },
      { type: 'reasoning-end', id: `${id}:reasoning:0`, index: 0, format: 'unknown' },
      { type: 'finish', reason: 'stop', raw: 'stop' },
      { type: 'completed', finishReason: 'stop' },
    ]);
  });

  it('emits reasoning_details indices 2,0,1 of one delta in wire order, each bracketed', async () => {
    const id = 'gen-idx-0002';
    const entry = (index: number, delta: string) => [
      { type: 'reasoning-start', id: `${id}:reasoning:${index}`, index },
      { type: 'reasoning-delta', id: `${id}:reasoning:${index}`, index, delta, kind: 'text' },
    ];
    const end = (index: number) => ({
      type: 'reasoning-end',
      id: `${id}:reasoning:${index}`,
      index,
      format: 'anthropic-claude-v1',
    });
    expect(await decode(fixture('reasoning-indices-out-of-order.sse'))).toEqual([
      start(id, 'anthropic/claude-sonnet-4'),
      ...entry(2, 'third'),
      ...entry(0, 'first'),
      ...entry(1, 'second'),
      // Ended in the order they started, when the text starts.
      end(2),
      end(0),
      end(1),
      { type: 'text-start', id: `${id}:text` },
      { type: 'text-delta', id: `${id}:text`, delta: 'Done.' },
      { type: 'text-end', id: `${id}:text` },
      { type: 'finish', reason: 'stop', raw: 'stop' },
      { type: 'completed', finishReason: 'stop' },
    ]);
  });

  it('decodes a reasoning-only DeepSeek turn; empty and null fields start nothing', async () => {
    const id = 'chatcmpl-ds-0004';
    const usage = {
      inputTokens: 9,
      outputTokens: 5,
      reasoningTokens: 5,
      cachedInputTokens: 0,
      totalTokens: 14,
    };
    const rid = `${id}:reasoning:0`;
    expect(await decode(fixture('reasoning-only-turn.sse'))).toEqual([
      start(id, 'deepseek-reasoner'),
      { type: 'reasoning-start', id: rid, index: 0 },
      { type: 'reasoning-delta', id: rid, index: 0, delta: 'Thinking about', kind: 'text' },
      { type: 'reasoning-delta', id: rid, index: 0, delta: ' the question.', kind: 'text' },
      { type: 'reasoning-end', id: rid, index: 0 },
      { type: 'finish', reason: 'stop', raw: 'stop' },
      { type: 'usage', ...usage },
      { type: 'completed', finishReason: 'stop', usage },
    ]);
  });

  it('turns an error object mid-stream into one failed with the provider code; text kept', async () => {
    const id = 'gen-err-0005';
    expect(await decode(fixture('error-mid-stream.sse'))).toEqual([
      start(id, 'moonshotai/kimi-k2'),
      { type: 'text-start', id: `${id}:text` },
      { type: 'text-delta', id: `${id}:text`, delta: 'The answer' },
      { type: 'text-delta', id: `${id}:text`, delta: ' is' },
      { type: 'text-end', id: `${id}:text` },
      {
        type: 'failed',
        error: {
          code: '502',
          message: 'Provider disconnected unexpectedly',
          provider: 'openai-chat',
          retryable: true,
        },
      },
    ]);
  });

  it('merges parallel tool calls by index; one tool-call each at finish; usage-only chunk', async () => {
    const usage = {
      inputTokens: 80,
      outputTokens: 40,
      reasoningTokens: 0,
      cachedInputTokens: 64,
      totalTokens: 120,
    };
    expect(await decode(fixture('parallel-tool-calls.sse'))).toEqual([
      start('chatcmpl-par-0006', 'gpt-4o-2024-08-06'),
      { type: 'tool-input-start', id: 'call_weather_rome', name: 'weather', index: 0 },
      { type: 'tool-input-start', id: 'call_time_rome', name: 'local_time', index: 1 },
      { type: 'tool-input-delta', id: 'call_weather_rome', delta: '{"city":' },
      { type: 'tool-input-delta', id: 'call_time_rome', delta: '{"tz":"Europe/Rome"}' },
      { type: 'tool-input-delta', id: 'call_weather_rome', delta: ' "Rome"}' },
      {
        type: 'tool-call',
        id: 'call_weather_rome',
        name: 'weather',
        input: { city: 'Rome' },
        inputText: '{"city": "Rome"}',
      },
      {
        type: 'tool-call',
        id: 'call_time_rome',
        name: 'local_time',
        input: { tz: 'Europe/Rome' },
        inputText: '{"tz":"Europe/Rome"}',
      },
      { type: 'finish', reason: 'tool-calls', raw: 'tool_calls' },
      { type: 'usage', ...usage },
      { type: 'completed', finishReason: 'tool-calls', usage },
    ]);
  });
});
