import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StreamEvent } from '../../src/events';
import { streamEvents } from '../../src/streamEvents';
import { chunksOf, collect, randomSplits, utf8 } from '../helpers/bytes';

// Issue 13: wire shapes real providers send today. Each fixture (see fixtures/*/README.md for
// the documented stream it is modelled on) is decoded whole, then in 200 random byte splits,
// through streamEvents with the provider detected; every run must give exactly these events.

function fixtureText(path: string): string {
  return readFileSync(join(__dirname, '../../fixtures', path), 'utf8');
}

async function expectEveryRechunking(path: string, expected: StreamEvent[]): Promise<void> {
  const text = fixtureText(path);
  const bytes = utf8(text);
  expect(await collect(streamEvents(new Response(text)))).toEqual(expected);
  const splits = randomSplits(bytes, 200, 1313);
  expect(splits).toHaveLength(200);
  for (const split of splits)
    expect(await collect(streamEvents(chunksOf(split)))).toEqual(expected);
}

const chat = (id: string, model: string): StreamEvent => ({
  type: 'response-start',
  provider: 'openai-chat',
  id,
  model,
});

describe('issue 13 wire shapes, exact and under any byte split', () => {
  it('magistral content arrays: thinking parts are reasoning, text parts and strings are text', async () => {
    const id = 'a1b2c3d4magistral';
    const usage = { inputTokens: 9, outputTokens: 52, totalTokens: 61 };
    await expectEveryRechunking('openai-chat/magistral-content-parts.sse', [
      chat(id, 'magistral-medium-2509'),
      { type: 'reasoning-start', id: `${id}:reasoning:0`, index: 0 },
      {
        type: 'reasoning-delta',
        id: `${id}:reasoning:0`,
        index: 0,
        delta: 'The user greets me.',
        kind: 'text',
      },
      {
        type: 'reasoning-delta',
        id: `${id}:reasoning:0`,
        index: 0,
        delta: ' A short, friendly reply fits.',
        kind: 'text',
      },
      { type: 'reasoning-end', id: `${id}:reasoning:0`, index: 0 },
      { type: 'text-start', id: `${id}:text` },
      { type: 'text-delta', id: `${id}:text`, delta: 'Hello' },
      {
        type: 'warning',
        code: 'unknown-field',
        message:
          'The openai-chat decoder does not know the content part type "reference"; it was skipped.',
        detail: { field: 'delta.content', type: 'reference' },
      },
      { type: 'text-delta', id: `${id}:text`, delta: ' there! How can' },
      { type: 'text-delta', id: `${id}:text`, delta: ' I help? 👋' },
      { type: 'text-end', id: `${id}:text` },
      { type: 'finish', reason: 'stop', raw: 'stop' },
      { type: 'usage', ...usage },
      { type: 'completed', finishReason: 'stop', usage },
    ]);
  });

  it('Gemini: whole tool calls without index, each with its own id, stay two calls; the thought_signature is kept', async () => {
    const usage = { inputTokens: 58, outputTokens: 31, totalTokens: 89 };
    const weather = '{"city":"Paris"}';
    const time = '{"city":"Paris","zone":"CET"}';
    await expectEveryRechunking('openai-chat/gemini-tool-calls-without-index.sse', [
      chat('gemini-resp-7f3a', 'gemini-2.5-flash'),
      { type: 'tool-input-start', id: 'function-call-11842', name: 'get_weather', index: 0 },
      { type: 'tool-input-delta', id: 'function-call-11842', delta: weather },
      { type: 'tool-input-start', id: 'function-call-11843', name: 'get_time', index: 1 },
      { type: 'tool-input-delta', id: 'function-call-11843', delta: time },
      {
        type: 'tool-call',
        id: 'function-call-11842',
        name: 'get_weather',
        input: { city: 'Paris' },
        inputText: weather,
        signature: 'CiQBVKhc7g==',
      },
      {
        type: 'tool-call',
        id: 'function-call-11843',
        name: 'get_time',
        input: { city: 'Paris', zone: 'CET' },
        inputText: time,
      },
      { type: 'finish', reason: 'stop', raw: 'stop' },
      { type: 'usage', ...usage },
      { type: 'completed', finishReason: 'stop', usage },
    ]);
  });

  it('Ollama /v1: every call at index 0 with its own id starts a new call', async () => {
    const hello = '{"filePath":"hello.py","content":"print(\\"hello\\")"}';
    const world = '{"filePath":"world.py","content":"print(\\"world\\")"}';
    await expectEveryRechunking('openai-chat/ollama-v1-tool-calls-same-index.sse', [
      chat('chatcmpl-412', 'qwen2.5-coder:7b'),
      { type: 'tool-input-start', id: 'call_hq2w9x1b', name: 'file_write', index: 0 },
      { type: 'tool-input-delta', id: 'call_hq2w9x1b', delta: hello },
      { type: 'tool-input-start', id: 'call_7kd0s3pz', name: 'file_write', index: 1 },
      { type: 'tool-input-delta', id: 'call_7kd0s3pz', delta: world },
      {
        type: 'tool-call',
        id: 'call_hq2w9x1b',
        name: 'file_write',
        input: { filePath: 'hello.py', content: 'print("hello")' },
        inputText: hello,
      },
      {
        type: 'tool-call',
        id: 'call_7kd0s3pz',
        name: 'file_write',
        input: { filePath: 'world.py', content: 'print("world")' },
        inputText: world,
      },
      { type: 'finish', reason: 'tool-calls', raw: 'tool_calls' },
      { type: 'completed', finishReason: 'tool-calls' },
    ]);
  });

  it('Groq: usage from x_groq.usage, reported once though the usage chunk repeats it', async () => {
    const id = 'chatcmpl-5b1e0c2a-groq';
    const usage = { inputTokens: 23, outputTokens: 6, totalTokens: 29 };
    await expectEveryRechunking('openai-chat/groq-x-groq-usage.sse', [
      chat(id, 'llama-3.3-70b-versatile'),
      { type: 'text-start', id: `${id}:text` },
      { type: 'text-delta', id: `${id}:text`, delta: 'Hi' },
      { type: 'text-delta', id: `${id}:text`, delta: ' there.' },
      { type: 'text-end', id: `${id}:text` },
      { type: 'finish', reason: 'stop', raw: 'stop' },
      { type: 'usage', ...usage },
      { type: 'completed', finishReason: 'stop', usage },
    ]);
  });

  it('Moonshot: usage on choices[0].usage of the finish chunk', async () => {
    const id = 'chatcmpl-6750moonshot';
    const usage = { inputTokens: 19, outputTokens: 13, cachedInputTokens: 0, totalTokens: 32 };
    await expectEveryRechunking('openai-chat/moonshot-usage-on-choice.sse', [
      chat(id, 'kimi-k2-0905-preview'),
      { type: 'text-start', id: `${id}:text` },
      { type: 'text-delta', id: `${id}:text`, delta: '你好' },
      { type: 'text-delta', id: `${id}:text`, delta: '！' },
      { type: 'text-end', id: `${id}:text` },
      { type: 'finish', reason: 'stop', raw: 'stop' },
      { type: 'usage', ...usage },
      { type: 'completed', finishReason: 'stop', usage },
    ]);
  });

  it('Responses: refusal.delta / refusal.done are shown as text', async () => {
    const usage = {
      inputTokens: 25,
      outputTokens: 11,
      reasoningTokens: 0,
      cachedInputTokens: 0,
      totalTokens: 36,
    };
    const refusal = "I'm sorry, but I can't help with that.";
    await expectEveryRechunking('openai-responses/refusal.sse', [
      {
        type: 'response-start',
        provider: 'openai-responses',
        id: 'resp_68c0refusal',
        model: 'gpt-4o-2024-08-06',
      },
      { type: 'text-start', id: 'msg_68c0refusal' },
      { type: 'text-delta', id: 'msg_68c0refusal', delta: "I'm sorry," },
      { type: 'text-delta', id: 'msg_68c0refusal', delta: " but I can't help with that." },
      { type: 'text-end', id: 'msg_68c0refusal', text: refusal },
      { type: 'usage', ...usage },
      { type: 'finish', reason: 'stop' },
      { type: 'completed', finishReason: 'stop', usage },
    ]);
  });
});
