import type { StreamEvent } from '../../src/events';
import { chunk, decode, sse } from './openaiChatHelpers';

// How the usage an OpenAI-compatible server reports becomes `usage` events and the terminal's
// `usage`: which fields, from where, and when a repeat is dropped.

const ofType = (events: StreamEvent[], ...types: string[]) =>
  events.filter((event) => types.includes(event.type));
const usageChunk = (usage: object) => chunk(null, { usage });

describe('decodeOpenAIChat usage fields', () => {
  it('leaves out absent and null counts: no key at all, not an undefined one', async () => {
    const events = await decode(
      sse(
        usageChunk({
          prompt_tokens: 3,
          completion_tokens: null,
          total_tokens: null,
          cost: null,
          prompt_tokens_details: { cached_tokens: null },
          completion_tokens_details: { reasoning_tokens: null },
        }),
        usageChunk({ completion_tokens: 4 }),
        '[DONE]',
      ),
    );
    expect(ofType(events, 'usage', 'completed')).toStrictEqual([
      { type: 'usage', inputTokens: 3 },
      { type: 'usage', outputTokens: 4 },
      { type: 'completed', usage: { outputTokens: 4 } },
    ]);
  });

  it('maps every count it knows; each one alone gives one key', async () => {
    const events = await decode(
      sse(
        usageChunk({ completion_tokens_details: { reasoning_tokens: 5 } }),
        usageChunk({ prompt_tokens_details: { cached_tokens: 6 } }),
        usageChunk({ total_tokens: 7 }),
        usageChunk({ cost: 0.5 }),
        usageChunk({ prompt_cache_hit_tokens: 8 }),
        usageChunk({ cached_tokens: 9 }),
        '[DONE]',
      ),
    );
    expect(ofType(events, 'usage')).toStrictEqual([
      { type: 'usage', reasoningTokens: 5 },
      { type: 'usage', cachedInputTokens: 6 },
      { type: 'usage', totalTokens: 7 },
      { type: 'usage', cost: 0.5 },
      { type: 'usage', cachedInputTokens: 8 },
      { type: 'usage', cachedInputTokens: 9 },
    ]);
  });

  it('the OpenAI cache field wins over DeepSeek’s, which wins over Moonshot’s', async () => {
    const events = await decode(
      sse(
        usageChunk({
          prompt_tokens_details: { cached_tokens: 1 },
          prompt_cache_hit_tokens: 2,
          cached_tokens: 3,
        }),
        usageChunk({ prompt_cache_hit_tokens: 2, cached_tokens: 3 }),
        '[DONE]',
      ),
    );
    expect(ofType(events, 'usage')).toStrictEqual([
      { type: 'usage', cachedInputTokens: 1 },
      { type: 'usage', cachedInputTokens: 2 },
    ]);
  });
});

describe('decodeOpenAIChat usage repeats and sources', () => {
  it('a usage that adds a count to the last one is reported again', async () => {
    const events = await decode(
      sse(
        usageChunk({ prompt_tokens: 1 }),
        usageChunk({ prompt_tokens: 1 }),
        usageChunk({ prompt_tokens: 1, completion_tokens: 2 }),
        usageChunk({ prompt_tokens: 1 }),
        '[DONE]',
      ),
    );
    expect(ofType(events, 'usage')).toEqual([
      { type: 'usage', inputTokens: 1 },
      { type: 'usage', inputTokens: 1, outputTokens: 2 },
      { type: 'usage', inputTokens: 1 },
    ]);
  });

  it('[DONE] without a finish carries the usage on completed', async () => {
    const events = await decode(
      sse(chunk({ delta: { content: 'x' } }), usageChunk({ prompt_tokens: 2 }), '[DONE]'),
    );
    expect(events.at(-1)).toStrictEqual({ type: 'completed', usage: { inputTokens: 2 } });
  });

  it('reads usage from a chunk that has no choices field at all', async () => {
    const events = await decode(
      sse({ id: 'r', model: 'm', usage: { prompt_tokens: 2, completion_tokens: 3 } }, '[DONE]'),
    );
    expect(events).toEqual([
      { type: 'response-start', provider: 'openai-chat', id: 'r', model: 'm' },
      { type: 'usage', inputTokens: 2, outputTokens: 3 },
      { type: 'completed', usage: { inputTokens: 2, outputTokens: 3 } },
    ]);
  });

  it('takes the choice usage of choice 0 only, index given or not', async () => {
    const events = await decode(
      sse(
        {
          id: 'r',
          choices: [
            { index: 1, delta: {}, usage: { prompt_tokens: 10 } },
            { index: 0, delta: {}, usage: { prompt_tokens: 1 } },
          ],
        },
        { id: 'r', choices: [{ index: 1, delta: {}, usage: { prompt_tokens: 20 } }] },
        { id: 'r', choices: [{ delta: {}, usage: { prompt_tokens: 2 } }] },
        '[DONE]',
      ),
    );
    expect(ofType(events, 'usage')).toEqual([
      { type: 'usage', inputTokens: 1 },
      { type: 'usage', inputTokens: 2 },
    ]);
  });
});
