import * as ai6 from 'ai';
import * as ai6Test from 'ai/test';
import { z } from 'zod';

// Set by jest.config.js: node22/ is installed and Node is 22 or newer (the AI SDK 7's floor).
declare const LLMRX_AI_SDK_7: boolean | undefined;

/** Whether the AI SDK 7 specs run here (on Node 20 they are left out: jest.config.js). */
export const aiSdk7Runs = typeof LLMRX_AI_SDK_7 === 'boolean' && LLMRX_AI_SDK_7;

/**
 * What the specs use of the AI SDK 7 (`ai7`, installed in node22/), typed here so that the type
 * check needs no package whose floor is Node 22.
 */
interface AISdk7 {
  streamText(options: Record<string, unknown>): { stream: AsyncIterable<{ type: string }> };
  toUIMessageStream(options: { stream: AsyncIterable<{ type: string }> }): ReadableStream<unknown>;
  tool(options: { inputSchema: unknown; execute?: unknown }): unknown;
  stepCountIs(count: number): unknown;
  readUIMessageStream: unknown;
  uiMessageChunkSchema: unknown;
  parseJsonEventStream: unknown;
}

interface AISdk7Test {
  MockLanguageModelV4: new (options: {
    doStream(options: { abortSignal?: AbortSignal }): Promise<{ stream: never }>;
  }) => unknown;
}

// Required only where it runs: on Node 20 nothing of the AI SDK 7 is loaded.
const ai7 = (aiSdk7Runs ? require('ai7') : undefined) as AISdk7;
const ai7Test = (aiSdk7Runs ? require('ai7/test') : undefined) as AISdk7Test;

/**
 * The two majors of the AI SDK side by side (`ai` 6 and `ai` 7, installed as the alias `ai7`),
 * each run as a user runs it: `streamText` over its own test model (`MockLanguageModelV3` for
 * ai 6, `MockLanguageModelV4` for ai 7), read from `fullStream` (ai 6) or `stream` (ai 7).
 */
export interface AISdkMajor {
  name: 'ai 6' | 'ai 7';
  /**
   * The parts of a `streamText` run whose model streams `steps[n]` (the language model
   * protocol's chunks, `stream-start` first) at its n-th call. `hold` keeps the model's
   * stream open after the chunks (nothing more comes), for aborts.
   */
  run(steps: unknown[][], options?: RunOptions): AsyncIterable<{ type: string }>;
  /** The major's `readUIMessageStream`. */
  readUIMessageStream: typeof ai6.readUIMessageStream;
  /** The major's `uiMessageChunkSchema`. */
  uiMessageChunkSchema: typeof ai6.uiMessageChunkSchema;
  /** The major's `parseJsonEventStream` (how DefaultChatTransport reads a response body). */
  parseJsonEventStream: typeof ai6.parseJsonEventStream;
  /** The parts of the same run as the AI SDK's own UI message stream (`toUIMessageStream`). */
  ownUIMessageStream(steps: unknown[][], options?: RunOptions): ReadableStream<unknown>;
}

/** What a run may add to the prompt. */
export interface RunOptions {
  abortSignal?: AbortSignal;
  hold?: boolean;
  /** A `weather` tool the SDK runs (`stopWhen` allows a second step); `'declared'`: not run. */
  weather?: ((input: { city: string }) => Promise<unknown>) | 'declared';
  /** How `doStream` fails instead of streaming. */
  doStreamError?: Error;
}

const weatherInput = z.object({ city: z.string() });

/**
 * The model's stream: the chunks, then closed, or held open; an abort of the call's signal
 * errors it with the signal's reason, as a provider's fetch body does.
 */
function streamOf(chunks: unknown[], hold: boolean, signal?: AbortSignal): ReadableStream<unknown> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      if (!hold) return controller.close();
      signal?.addEventListener('abort', () => controller.error(signal.reason), { once: true });
    },
  });
}

const allMajors: AISdkMajor[] = [
  {
    name: 'ai 6',
    run: (steps, options) => ai6Result(steps, options).fullStream,
    ownUIMessageStream: (steps, options) => ai6Result(steps, options).toUIMessageStream(),
    readUIMessageStream: ai6.readUIMessageStream,
    uiMessageChunkSchema: ai6.uiMessageChunkSchema,
    parseJsonEventStream: ai6.parseJsonEventStream,
  },
  {
    name: 'ai 7',
    run: (steps, options) => ai7Result(steps, options).stream,
    ownUIMessageStream: (steps, options) =>
      ai7.toUIMessageStream({ stream: ai7Result(steps, options).stream }),
    readUIMessageStream: ai7?.readUIMessageStream as unknown as typeof ai6.readUIMessageStream,
    uiMessageChunkSchema: ai7?.uiMessageChunkSchema as unknown as typeof ai6.uiMessageChunkSchema,
    parseJsonEventStream: ai7?.parseJsonEventStream as unknown as typeof ai6.parseJsonEventStream,
  },
];

/** The majors that run on this Node: both on Node >= 22 with node22/ installed, else ai 6. */
export const aiSdkMajors: AISdkMajor[] = allMajors.filter(
  (major) => major.name !== 'ai 7' || aiSdk7Runs,
);

function ai6Result(steps: unknown[][], options: RunOptions = {}) {
  let call = 0;
  const model = new ai6Test.MockLanguageModelV3({
    doStream: async ({ abortSignal }) => {
      if (options.doStreamError) throw options.doStreamError;
      return { stream: streamOf(steps[call++], options.hold ?? false, abortSignal) as never };
    },
  });
  const weather = options.weather;
  const result = ai6.streamText({
    model,
    prompt: 'Hi',
    abortSignal: options.abortSignal,
    maxRetries: 0,
    onError: () => undefined,
    ...(weather === 'declared'
      ? { tools: { weather: ai6.tool({ inputSchema: weatherInput }) } }
      : weather
        ? {
            tools: { weather: ai6.tool({ inputSchema: weatherInput, execute: weather }) },
            stopWhen: ai6.stepCountIs(3),
          }
        : {}),
  });
  return result;
}

function ai7Result(steps: unknown[][], options: RunOptions = {}) {
  let call = 0;
  const model = new ai7Test.MockLanguageModelV4({
    doStream: async ({ abortSignal }) => {
      if (options.doStreamError) throw options.doStreamError;
      return { stream: streamOf(steps[call++], options.hold ?? false, abortSignal) as never };
    },
  });
  const weather = options.weather;
  const result = ai7.streamText({
    model,
    prompt: 'Hi',
    abortSignal: options.abortSignal,
    maxRetries: 0,
    onError: () => undefined,
    ...(weather === 'declared'
      ? { tools: { weather: ai7.tool({ inputSchema: weatherInput }) } }
      : weather
        ? {
            tools: { weather: ai7.tool({ inputSchema: weatherInput, execute: weather }) },
            stopWhen: ai7.stepCountIs(3),
          }
        : {}),
  });
  return result;
}

/** The language model protocol's `finish` chunk (both majors' models speak it). */
export function finishChunk(
  reason: string,
  usage = { input: 12, cacheRead: 8, output: 30, reasoning: 20 },
): unknown {
  return {
    type: 'finish',
    finishReason: { unified: reason, raw: reason },
    usage: {
      inputTokens: {
        total: usage.input,
        noCache: usage.input - usage.cacheRead,
        cacheRead: usage.cacheRead,
        cacheWrite: 0,
      },
      outputTokens: {
        total: usage.output,
        text: usage.output - usage.reasoning,
        reasoning: usage.reasoning,
      },
    },
  };
}
