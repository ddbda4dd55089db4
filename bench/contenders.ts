// The ways of consuming one OpenAI chat SSE body that the pipeline benchmark compares. Each
// reads a fresh stream to its end and returns the text it saw, so every row is checked against
// the floor. llm-rx is loaded lazily: its decoders may not exist yet while others write them.

import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { streamText } from 'ai';
import { createParser } from 'eventsource-parser';
import OpenAI from 'openai';
import type { Observable, OperatorFunction } from 'rxjs';
import type { StreamEvent } from '../src/events';
import type { streamEvents } from '../src/streamEvents';
import { mockFetch } from './openaiChatBody';

/** One row of the table: how it reads `body()`, resolving to the text it delivered. */
export interface Contender {
  name: string;
  run(body: () => ReadableStream<Uint8Array>): Promise<string>;
  /** How this row's text is compared with the floor's (default: equal). */
  sameText?: (text: string, floorText: string) => boolean;
}

const BASE_URL = 'http://bench.invalid/v1';
const MODEL_ID = 'gpt-4o';

/** The floor: eventsource-parser + JSON.parse per event, one streaming TextDecoder. */
export const floor: Contender = {
  name: 'floor: eventsource-parser + JSON.parse',
  async run(body) {
    let text = '';
    const parser = createParser({
      onEvent(message) {
        if (message.data === '[DONE]') return;
        const chunk = JSON.parse(message.data);
        const content = chunk.choices[0]?.delta?.content;
        if (typeof content === 'string') text += content;
      },
    });
    const reader = body().getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
    parser.feed(decoder.decode());
    return text;
  },
};

/** AI SDK provider level: `doStream` of @ai-sdk/openai-compatible, its stream read to the end. */
export const aiSdkDoStream: Contender = {
  name: 'AI SDK openai-compatible doStream',
  async run(body) {
    const model = aiSdkModel(body);
    const { stream } = await model.doStream({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
    let text = '';
    const reader = stream.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (value.type === 'text-delta') text += value.delta;
      else if (value.type === 'error') throw new Error(`doStream error part: ${value.error}`);
    }
    return text;
  },
};

/** AI SDK core: `streamText().fullStream` over the same provider. */
export const aiSdkStreamText: Contender = {
  name: 'AI SDK streamText().fullStream',
  async run(body) {
    const result = streamText({ model: aiSdkModel(body), prompt: 'hi', maxRetries: 0 });
    let text = '';
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') text += part.text;
      else if (part.type === 'error') throw new Error(`streamText error part: ${part.error}`);
    }
    return text;
  },
};

/** openai-node: `chat.completions.create({ stream: true })`, iterated. */
export const openaiNode: Contender = {
  name: 'openai-node stream: true',
  async run(body) {
    const client = new OpenAI({ apiKey: 'x', baseURL: BASE_URL, fetch: mockFetch(body) });
    const stream = await client.chat.completions.create({
      model: MODEL_ID,
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) {
      const content = chunk.choices[0]?.delta?.content;
      if (typeof content === 'string') text += content;
    }
    return text;
  },
};

function aiSdkModel(body: () => ReadableStream<Uint8Array>) {
  const provider = createOpenAICompatible({
    name: 'bench',
    baseURL: BASE_URL,
    apiKey: 'x',
    fetch: mockFetch(body),
  });
  return provider.chatModel(MODEL_ID);
}

type StreamEventsFunction = typeof streamEvents;

/** Subscribes, collects the text of `text-delta` or `block` events, and fails on `failed`. */
export function textOf(events: Observable<StreamEvent>): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    events.subscribe({
      next(event) {
        if (event.type === 'text-delta') text += event.delta;
        else if (event.type === 'block') text += event.text;
        else if (event.type === 'failed') reject(new Error(`failed: ${event.error.message}`));
      },
      error: reject,
      complete: () => resolve(text),
    });
  });
}

/** llm-rx `streamEvents(body, { provider: 'openai-chat' })`, every event consumed. */
export function llmRxStreamEvents(streamEvents: StreamEventsFunction): Contender {
  return {
    name: "llm-rx streamEvents(body, { provider: 'openai-chat' })",
    run: (body) => textOf(streamEvents(body(), { provider: 'openai-chat' })),
  };
}

/** llm-rx `streamEvents` followed by a channel stage (`channel('telegram')` or a stand-in). */
export function llmRxWithChannel(
  streamEvents: StreamEventsFunction,
  name: string,
  stage: OperatorFunction<StreamEvent, StreamEvent>,
): Contender {
  return {
    name,
    run: (body) => textOf(streamEvents(body(), { provider: 'openai-chat' }).pipe(stage)),
    // Blocks drop the whitespace at their cuts, so compare without whitespace.
    sameText: (text, floorText) => withoutWhitespace(text) === withoutWhitespace(floorText),
  };
}

function withoutWhitespace(text: string): string {
  return text.replace(/\s+/g, '');
}

/** The first line of an error's message, for "not available yet" rows. */
export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0].slice(0, 160);
}
