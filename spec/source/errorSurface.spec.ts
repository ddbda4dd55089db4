import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { queueScheduler, throwError, type SchedulerAction, type SchedulerLike } from 'rxjs';
import { LlmRxError } from '../../src/errors';
import type { StreamEvent } from '../../src/events';
import { ensureTerminal } from '../../src/operators/ensureTerminal';
import { retryStream } from '../../src/operators/retryStream';
import { fromNdjson } from '../../src/source/fromNdjson';
import { fromSse } from '../../src/source/fromSse';
import { streamEvents } from '../../src/streamEvents';
import { chunksOf, collect, randomSplits, utf8 } from '../helpers/bytes';

// Issue 13: failures a user can act on. Each body is also fed in 200 random byte splits.

const textChunk = (content: string) =>
  `data: ${JSON.stringify({ id: 'r', model: 'm', choices: [{ index: 0, delta: { content } }] })}\n\n`;
const textOf = (events: StreamEvent[]) =>
  events.map((event) => (event.type === 'text-delta' ? event.delta : '')).join('');

/** A body that yields `chunks`, then rejects the next read with fetch's AbortError. */
function abortedBody(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (index < chunks.length) controller.enqueue(chunks[index++]);
      else controller.error(new DOMException('This operation was aborted', 'AbortError'));
    },
  });
}

/** A Response whose body arrives in the given chunks. */
function chunkedResponse(chunks: Uint8Array[], init: ResponseInit): Response {
  let index = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (index < chunks.length) controller.enqueue(chunks[index++]);
      else controller.close();
    },
  });
  return new Response(body, init);
}

const ABORTED = {
  type: 'incomplete',
  reason: 'aborted',
  message: 'The caller aborted the stream.',
};

describe("aborting through fetch's own signal", () => {
  const body = utf8(textChunk('Hel') + textChunk('lo'));
  const expected: StreamEvent[] = [
    { type: 'response-start', provider: 'openai-chat', id: 'r', model: 'm' },
    { type: 'text-start', id: 'r:text' },
    { type: 'text-delta', id: 'r:text', delta: 'Hel' },
    { type: 'text-delta', id: 'r:text', delta: 'lo' },
    ABORTED as StreamEvent,
  ];

  it('a body read that rejects with AbortError is incomplete aborted, text kept (200 splits)', async () => {
    expect(await collect(streamEvents(abortedBody([body])))).toEqual(expected);
    for (const split of randomSplits(body, 200, 1301)) {
      expect(await collect(streamEvents(abortedBody(split), { provider: 'openai-chat' }))).toEqual(
        expected,
      );
    }
  });

  describe('against a real fetch', () => {
    let server: Server;
    let url: string;
    beforeAll(async () => {
      server = createServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(textChunk('Hel'));
        response.write(textChunk('lo'));
        // Then nothing more: the user presses stop.
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    });
    afterAll(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });

    it.each([
      ['without signal passed to streamEvents', false],
      ['with the same signal passed to streamEvents', true],
    ])('%s: incomplete aborted after "Hello"', async (_name, passSignal) => {
      const controller = new AbortController();
      const response = await fetch(url, { signal: controller.signal });
      const events: StreamEvent[] = [];
      await new Promise<void>((resolve) => {
        streamEvents(response, passSignal ? { signal: controller.signal } : {}).subscribe({
          next(event) {
            events.push(event);
            if (textOf(events) === 'Hello') controller.abort();
          },
          complete: resolve,
        });
      });
      expect(textOf(events)).toBe('Hello');
      expect(events.at(-1)).toEqual(ABORTED);
      expect(events.filter((event) => event.type === 'failed')).toEqual([]);
    });
  });
});

describe('an empty 200 body', () => {
  const EMPTY = {
    type: 'failed',
    error: {
      code: 'stream-closed',
      message:
        'The response body was empty: the provider closed the stream before sending any event. ' +
        'Retrying may help; if it keeps happening, check the model name and that the request asked for a stream.',
      retryable: true,
    },
  };

  it.each([
    ['no provider', {}],
    ['openai-chat', { provider: 'openai-chat' as const }],
    ['anthropic', { provider: 'anthropic' as const }],
    ['openai-responses', { provider: 'openai-responses' as const }],
    ['ollama', { provider: 'ollama' as const }],
  ])('is the same retryable failure: %s', async (_name, options) => {
    expect(await collect(streamEvents(new Response(''), options))).toEqual([EMPTY]);
    expect(await collect(streamEvents(new Response(null), options))).toEqual([EMPTY]);
  });

  it('with an NDJSON content type, and as blank lines and comments in 200 splits', async () => {
    const ndjson = new Response('', { headers: { 'content-type': 'application/x-ndjson' } });
    expect(await collect(streamEvents(ndjson))).toEqual([EMPTY]);
    const keepAlives = utf8(': OPENROUTER PROCESSING\n\n\n: ping\n\n');
    for (const split of randomSplits(keepAlives, 200, 1302)) {
      expect(await collect(streamEvents(chunksOf(split)))).toEqual([EMPTY]);
    }
  });

  it('is retried by retryStream', async () => {
    let calls = 0;
    const events = await collect(
      retryStream(
        () => streamEvents(new Response(calls++ === 0 ? '' : `${textChunk('Hi')}data: [DONE]\n\n`)),
        { backoffMs: 0, scheduler: queueScheduler },
      ),
    );
    expect(calls).toBe(2);
    expect(events.map((event) => event.type)).toEqual([
      'warning',
      'response-start',
      'text-start',
      'text-delta',
      'text-end',
      'completed',
    ]);
    expect(events[0]).toMatchObject({ code: 'retry', detail: { error: EMPTY.error } });
  });
});

describe('http-error: the provider message and Retry-After', () => {
  const failedWith = (status: number, statusText: string, message: string, extra = {}) => ({
    type: 'failed',
    error: {
      code: 'http-error',
      message: `The provider answered HTTP ${status} ${statusText}: ${message}`,
      status,
      retryable: status === 429 || status >= 500,
      ...extra,
    },
  });

  it.each([
    [
      'OpenAI error.message',
      {
        error: {
          message: 'Rate limit reached for gpt-4o.',
          type: 'requests',
          code: 'rate_limit_exceeded',
        },
      },
      'Rate limit reached for gpt-4o.',
    ],
    [
      'Anthropic',
      { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
      'Overloaded',
    ],
    [
      'Gemini [{ error }]',
      [{ error: { code: 429, message: 'Resource exhausted.', status: 'RESOURCE_EXHAUSTED' } }],
      'Resource exhausted.',
    ],
    [
      'Ollama error string',
      { error: 'model "x" not found, try pulling it first' },
      'model "x" not found, try pulling it first',
    ],
    [
      'Mistral message',
      {
        object: 'error',
        message: 'Service tier capacity exceeded',
        type: 'service_tier_capacity_exceeded',
      },
      'Service tier capacity exceeded',
    ],
    ['FastAPI detail', { detail: 'Too many requests' }, 'Too many requests'],
    [
      'FastAPI detail list',
      { detail: [{ loc: ['body', 'model'], msg: 'field required' }, { msg: 'bad value' }] },
      'field required; bad value',
    ],
  ])('%s: states the message (200 splits)', async (_name, json, message) => {
    const bytes = utf8(JSON.stringify(json));
    const init = { status: 429, statusText: 'Too Many Requests', headers: { 'retry-after': '7' } };
    const expected = [failedWith(429, 'Too Many Requests', message, { retryAfterMs: 7000 })];
    expect(await collect(streamEvents(chunkedResponse([bytes], init)))).toEqual(expected);
    for (const split of randomSplits(bytes, 200, 1303)) {
      expect(await collect(streamEvents(chunkedResponse(split, init)))).toEqual(expected);
    }
  });

  it('a body that is not JSON with a message keeps the short excerpt', async () => {
    const init = { status: 502, statusText: 'Bad Gateway' };
    expect(await collect(streamEvents(new Response('upstream connect error', init)))).toEqual([
      failedWith(502, 'Bad Gateway', '"upstream connect error"'),
    ]);
    expect(await collect(streamEvents(new Response('{"ok":false}', init)))).toEqual([
      failedWith(502, 'Bad Gateway', '"{\\"ok\\":false}"'),
    ]);
  });

  it.each([
    ['seconds', { 'retry-after': '30' }, 30_000],
    ['fractional seconds', { 'retry-after': '1.5' }, 1500],
    [
      'an HTTP date, from the Date header',
      { 'retry-after': 'Wed, 21 Oct 2026 07:28:30 GMT', date: 'Wed, 21 Oct 2026 07:28:00 GMT' },
      30_000,
    ],
    [
      'an HTTP date in the past',
      { 'retry-after': 'Wed, 21 Oct 2026 07:27:00 GMT', date: 'Wed, 21 Oct 2026 07:28:00 GMT' },
      0,
    ],
    ['retry-after-ms (OpenAI)', { 'retry-after-ms': '250', 'retry-after': '1' }, 250],
    ['nothing readable', { 'retry-after': 'soon' }, undefined],
  ])('Retry-After as %s → retryAfterMs on a 503', async (_name, headers, retryAfterMs) => {
    const init = { status: 503, statusText: 'Service Unavailable', headers };
    const [event] = await collect(streamEvents(new Response('{"message":"Busy"}', init)));
    const extra = retryAfterMs === undefined ? {} : { retryAfterMs };
    expect(event).toEqual(failedWith(503, 'Service Unavailable', 'Busy', extra));
  });

  it("ensureTerminal carries an LlmRxError's status, provider and retryAfterMs onto failed", async () => {
    const error = new LlmRxError('http-error', 'Slow down', {
      status: 429,
      provider: 'openai-chat',
      retryAfterMs: 1200,
      retryable: true,
    });
    expect(await collect(throwError(() => error).pipe(ensureTerminal()))).toEqual([
      {
        type: 'failed',
        error: {
          code: 'http-error',
          message: 'Slow down',
          status: 429,
          provider: 'openai-chat',
          retryAfterMs: 1200,
          retryable: true,
        },
      },
    ]);
  });

  it('retryStream waits the Retry-After of a real 429 before its next attempt', async () => {
    const delays: Array<number | undefined> = [];
    // Records each wait it is asked for and runs the work at once.
    const recording: SchedulerLike = {
      now: () => 0,
      schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay?: number, state?: T) {
        delays.push(delay);
        return queueScheduler.schedule(work, 0, state);
      },
    };
    let calls = 0;
    const events = await collect(
      retryStream(
        () =>
          streamEvents(
            calls++ === 0
              ? new Response('{"error":{"message":"Slow down"}}', {
                  status: 429,
                  headers: { 'retry-after': '30' },
                })
              : new Response(`${textChunk('Hi')}data: [DONE]\n\n`),
          ),
        { backoffMs: 5, scheduler: recording },
      ),
    );
    expect(delays).toEqual([30_000]);
    expect(events[0]).toMatchObject({ code: 'retry', detail: { delayMs: 30_000 } });
    expect(events.at(-1)).toEqual({ type: 'completed' });
  });
});

describe('bad arguments', () => {
  it.each([undefined, null, 42, 'data: {}\n\n', {}])(
    'streamEvents(%p) throws invalid-options at the call',
    (input) => {
      expect(() => streamEvents(input as unknown as Response)).toThrow(
        expect.objectContaining({ code: 'invalid-options' }),
      );
    },
  );

  it.each([undefined, null, 42, 'data: {}\n\n'])(
    'fromSse(%p) and fromNdjson(%p) throw invalid-options at the call',
    (input) => {
      const invalid = expect.objectContaining({ code: 'invalid-options' });
      expect(() => fromSse(input as unknown as Response)).toThrow(invalid);
      expect(() => fromNdjson(input as unknown as Response)).toThrow(invalid);
    },
  );

  it('names what it got and what it expects', () => {
    expect(() => streamEvents(undefined as unknown as Response)).toThrow(
      'streamEvents: expected a fetch Response, a ReadableStream<Uint8Array> or an AsyncIterable ' +
        'of Uint8Array or string, got undefined. Pass the Response that fetch returned.',
    );
  });
});
