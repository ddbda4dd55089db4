import { lastValueFrom, toArray } from 'rxjs';
import type { StreamEvent } from '../../src/events';
import { fromEventStream } from '../../src/source/fromEventStream';
import { fromNdjson } from '../../src/source/fromNdjson';
import { fromSse } from '../../src/source/fromSse';
import { streamEvents } from '../../src/streamEvents';
import { bedrockBody } from '../helpers/eventStreamFrames';

// Issue 44: the input of streamEvents is checked once per call, not again by fromSse /
// fromNdjson / fromEventStream and the body reader beneath it. A Proxy around the real input
// counts every property read (`get`) and every `in` test (`has`), the way a user's wrapper
// would see them; each must happen once.

/** `target` behind a Proxy that counts each property read and each `in` test by key. */
function counted<T extends object>(target: T): { input: T; reads: Record<string, number> } {
  const reads: Record<string, number> = {};
  const count = (what: string) => (reads[what] = (reads[what] ?? 0) + 1);
  const input = new Proxy(target, {
    has(object, key) {
      count(`in ${String(key)}`);
      return Reflect.has(object, key);
    },
    get(object, key) {
      count(String(key));
      const value: unknown = Reflect.get(object, key);
      // Methods run on the real object: Response and ReadableStream brand checks refuse a Proxy.
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
  return { input, reads };
}

const events = (events$: ReturnType<typeof streamEvents>) => lastValueFrom(events$.pipe(toArray()));

const sse =
  `data: ${JSON.stringify({ id: 'r', model: 'm', choices: [{ index: 0, delta: { content: 'Hi' } }] })}\n\n` +
  `data: ${JSON.stringify({ id: 'r', model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`;
const sseResponse = () => new Response(sse, { headers: { 'content-type': 'text/event-stream' } });

const ANSWER: StreamEvent[] = [
  { type: 'response-start', provider: 'openai-chat', id: 'r', model: 'm' },
  { type: 'text-start', id: 'r:text' },
  { type: 'text-delta', id: 'r:text', delta: 'Hi' },
  { type: 'text-end', id: 'r:text' },
  { type: 'finish', reason: 'stop', raw: 'stop' },
  { type: 'completed', finishReason: 'stop' },
];

/** What a source takes of a Response: told a Response once, its body opened once. */
const BODY_READ_ONCE = {
  'in body': 1,
  'in status': 1,
  'in headers': 1,
  body: 1,
  bodyUsed: 1,
  type: 1,
};

/** What streamEvents takes of a 200 Response: the same, and its head (`ok`, `headers`) once. */
const RESPONSE_READ_ONCE = { ...BODY_READ_ONCE, ok: 1, headers: 1 };

describe('streamEvents checks its input once (issue 44)', () => {
  it('a 200 SSE Response with provider: each check of the Response once', async () => {
    const { input, reads } = counted(sseResponse());
    expect(await events(streamEvents(input, { provider: 'openai-chat' }))).toEqual(ANSWER);
    expect(reads).toEqual(RESPONSE_READ_ONCE);
  });

  it('a 200 SSE Response, provider detected: the headers read once for both checks', async () => {
    const { input, reads } = counted(sseResponse());
    expect(await events(streamEvents(input))).toEqual(ANSWER);
    expect(reads).toEqual(RESPONSE_READ_ONCE);
  });

  it('a 200 NDJSON Response (ollama by its content type): each check once', async () => {
    const ndjson =
      '{"model":"m","message":{"role":"assistant","content":"Hi"},"done":false}\n' +
      '{"model":"m","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}\n';
    const { input, reads } = counted(
      new Response(ndjson, { headers: { 'content-type': 'application/x-ndjson' } }),
    );
    expect(await events(streamEvents(input))).toEqual([
      { type: 'response-start', provider: 'ollama', model: 'm' },
      { type: 'text-start', id: 'ollama:text:0' },
      { type: 'text-delta', id: 'ollama:text:0', delta: 'Hi' },
      { type: 'text-end', id: 'ollama:text:0' },
      { type: 'finish', reason: 'stop', raw: 'stop' },
      { type: 'completed', finishReason: 'stop' },
    ]);
    expect(reads).toEqual(RESPONSE_READ_ONCE);
  });

  it('a 200 AWS event stream Response (bedrock by its content type): each check once', async () => {
    const body = bedrockBody([
      { messageStart: { role: 'assistant' } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'Hi' } } },
      { contentBlockStop: { contentBlockIndex: 0 } },
      { messageStop: { stopReason: 'end_turn' } },
    ]);
    const { input, reads } = counted(
      new Response(Uint8Array.from(body), {
        headers: { 'content-type': 'application/vnd.amazon.eventstream' },
      }),
    );
    expect(await events(streamEvents(input))).toEqual([
      { type: 'response-start', provider: 'bedrock' },
      { type: 'text-start', id: 'bedrock:text:0' },
      { type: 'text-delta', id: 'bedrock:text:0', delta: 'Hi' },
      { type: 'text-end', id: 'bedrock:text:0' },
      { type: 'finish', reason: 'stop', raw: 'end_turn' },
      { type: 'completed', finishReason: 'stop' },
    ]);
    expect(reads).toEqual(RESPONSE_READ_ONCE);
  });

  it('a 429: the status, the headers and the body each read once for the failed', async () => {
    const { input, reads } = counted(
      new Response('{"error":{"message":"Rate limit reached"}}', {
        status: 429,
        statusText: 'Too Many Requests',
        headers: { 'content-type': 'application/json', 'retry-after': '2' },
      }),
    );
    expect(await events(streamEvents(input, { provider: 'openai-chat' }))).toEqual([
      {
        type: 'failed',
        error: {
          code: 'http-error',
          message: 'The provider answered HTTP 429 Too Many Requests: Rate limit reached',
          status: 429,
          retryAfterMs: 2000,
          retryable: true,
        },
      },
    ]);
    expect(reads).toEqual({ ...RESPONSE_READ_ONCE, status: 1, statusText: 1 });
  });

  it('a ReadableStream: told a stream once (getReader: once to tell, once to call)', async () => {
    const { input, reads } = counted(sseResponse().body!);
    expect(await events(streamEvents(input, { provider: 'openai-chat' }))).toEqual(ANSWER);
    expect(reads).toEqual({ 'in body': 1, getReader: 2, locked: 1 });
  });

  it('the options are read once', async () => {
    // streamEvents hands its sources a new object, so this held before issue 44 too: it keeps
    // the user's options from being handed down and parsed again.
    const { input: options, reads } = counted({ provider: 'openai-chat' as const });
    expect(await events(streamEvents(sseResponse(), options))).toEqual(ANSWER);
    expect(reads.provider).toBe(1);
  });
});

describe('fromSse, fromNdjson and fromEventStream called directly check their input once', () => {
  it('fromSse over a Response: told a Response once, its body read once', async () => {
    const { input, reads } = counted(sseResponse());
    const messages = await lastValueFrom(fromSse(input).pipe(toArray()));
    expect(messages.map((message) => JSON.parse(message.data).choices[0].delta)).toEqual([
      { content: 'Hi' },
      {},
    ]);
    expect(reads).toEqual(BODY_READ_ONCE);
  });

  it('fromNdjson over a Response: the same', async () => {
    const { input, reads } = counted(new Response('{"a":1}\n{"b":2}\n'));
    expect(await lastValueFrom(fromNdjson(input).pipe(toArray()))).toEqual([{ a: 1 }, { b: 2 }]);
    expect(reads).toEqual(BODY_READ_ONCE);
  });

  it('fromEventStream over a Response: the same', async () => {
    const body = bedrockBody([{ messageStart: { role: 'assistant' } }]);
    const { input, reads } = counted(new Response(Uint8Array.from(body)));
    const messages = await lastValueFrom(fromEventStream(input).pipe(toArray()));
    expect(messages.map((message) => message.headers[':event-type'])).toEqual(['messageStart']);
    expect(reads).toEqual(BODY_READ_ONCE);
  });

  it('their options are read once', async () => {
    const { input: options, reads } = counted({ maxBufferSize: 4096 });
    await lastValueFrom(fromSse(sseResponse(), options).pipe(toArray()));
    await lastValueFrom(fromNdjson(new Response('{"a":1}\n'), options).pipe(toArray()));
    expect(reads.maxBufferSize).toBe(2);
  });
});
