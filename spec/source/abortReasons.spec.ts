import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lastValueFrom, toArray } from 'rxjs';
import type { StreamEvent } from '../../src/events';
import { fromSse } from '../../src/source/fromSse';
import { streamEvents } from '../../src/streamEvents';

// Stopping a request through fetch's own signal, whatever the reason it was aborted with: a
// real fetch against a server on 127.0.0.1 that sends two deltas, then holds the stream open.

const textChunk = (content: string) =>
  `data: ${JSON.stringify({ id: 'r', model: 'm', choices: [{ index: 0, delta: { content } }] })}\n\n`;

const TEXT_SO_FAR: StreamEvent[] = [
  { type: 'response-start', provider: 'openai-chat', id: 'r', model: 'm' },
  { type: 'text-start', id: 'r:text' },
  { type: 'text-delta', id: 'r:text', delta: 'Hel' },
  { type: 'text-delta', id: 'r:text', delta: 'lo' },
];
const ABORTED: StreamEvent = {
  type: 'incomplete',
  reason: 'aborted',
  message: 'The caller aborted the stream.',
};
const DEADLINE: StreamEvent = {
  type: 'failed',
  error: {
    code: 'deadline',
    message: "The request's AbortSignal.timeout() fired.",
    retryable: true,
  },
};

let server: Server;
let url: string;
const open = new Set<ServerResponse>();

beforeAll(async () => {
  server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write(textChunk('Hel'));
    response.write(textChunk('lo'));
    open.add(response);
    // Then nothing more until the client goes (or /reset drops the connection).
    if (request.url === '/reset') setImmediate(() => response.socket?.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const response of open) response.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Runs streamEvents on a real fetch and calls `stop` once the text so far has arrived. */
async function eventsUntilStopped(
  signal: AbortSignal,
  stop: () => void,
  path = '/',
): Promise<StreamEvent[]> {
  const response = await fetch(url + path, { signal });
  const events: StreamEvent[] = [];
  await new Promise<void>((resolve) => {
    streamEvents(response).subscribe({
      next(event) {
        events.push(event);
        if (event.type === 'text-delta' && event.delta === 'lo') stop();
      },
      complete: resolve,
    });
  });
  return events;
}

describe("aborting through fetch's own signal, with any reason", () => {
  it('ac.abort(): incomplete aborted, text so far kept', async () => {
    const controller = new AbortController();
    const events = await eventsUntilStopped(controller.signal, () => controller.abort());
    expect(events).toEqual([...TEXT_SO_FAR, ABORTED]);
  });

  it("ac.abort(new Error('stop')): incomplete aborted (was failed stream-error, retryable)", async () => {
    const controller = new AbortController();
    const stop = () => controller.abort(new Error('stop'));
    expect(await eventsUntilStopped(controller.signal, stop)).toEqual([...TEXT_SO_FAR, ABORTED]);
  });

  it("ac.abort('stop'): incomplete aborted", async () => {
    const controller = new AbortController();
    const stop = () => controller.abort('stop');
    expect(await eventsUntilStopped(controller.signal, stop)).toEqual([...TEXT_SO_FAR, ABORTED]);
  });

  it('ac.abort({ reason object }): incomplete aborted', async () => {
    const controller = new AbortController();
    const stop = () => controller.abort({ why: 'user pressed stop' });
    expect(await eventsUntilStopped(controller.signal, stop)).toEqual([...TEXT_SO_FAR, ABORTED]);
  });

  it('AbortSignal.timeout(): failed deadline, retryable, text so far kept', async () => {
    // The server holds the stream open after two deltas: only the timeout ends it.
    const events = await eventsUntilStopped(AbortSignal.timeout(400), () => undefined);
    expect(events).toEqual([...TEXT_SO_FAR, DEADLINE]);
  });

  it('a connection the server drops is still failed stream-error, retryable', async () => {
    const events = await eventsUntilStopped(
      new AbortController().signal,
      () => undefined,
      '/reset',
    );
    expect(events.slice(0, -1)).toEqual(TEXT_SO_FAR);
    expect(events.at(-1)).toEqual({
      type: 'failed',
      error: {
        code: 'stream-error',
        message: 'Reading the response body failed: terminated',
        retryable: true,
      },
    });
  });

  it('fromSse alone errors with code aborted / deadline', async () => {
    const controller = new AbortController();
    const response = await fetch(`${url}/`, { signal: controller.signal });
    const errors: unknown[] = [];
    await new Promise<void>((resolve) => {
      fromSse(response).subscribe({
        next: (message) => {
          if (message.data.includes('"lo"')) controller.abort(new Error('stop'));
        },
        error: (error) => resolve(void errors.push(error)),
      });
    });
    expect(errors).toMatchObject([{ code: 'aborted', retryable: false }]);

    const timedOut = await fetch(`${url}/`, { signal: AbortSignal.timeout(300) });
    await expect(lastValueFrom(fromSse(timedOut).pipe(toArray()))).rejects.toMatchObject({
      code: 'deadline',
      retryable: true,
    });
  });
});

describe("streamEvents' own signal option, with any reason", () => {
  /** A body that sends the two deltas and never ends (no fetch involved). */
  function heldBody(): ReadableStream<Uint8Array> {
    const encoder = new TextEncoder();
    return new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(textChunk('Hel') + textChunk('lo')));
      },
    });
  }

  async function eventsWithSignal(signal: AbortSignal, stop: () => void): Promise<StreamEvent[]> {
    const events: StreamEvent[] = [];
    await new Promise<void>((resolve) => {
      streamEvents(heldBody(), { signal }).subscribe({
        next(event) {
          events.push(event);
          if (event.type === 'text-delta' && event.delta === 'lo') stop();
        },
        complete: resolve,
      });
    });
    return events;
  }

  it("abort(new Error('stop')) and abort('stop'): incomplete aborted", async () => {
    for (const reason of [new Error('stop'), 'stop', undefined]) {
      const controller = new AbortController();
      const events = await eventsWithSignal(controller.signal, () => controller.abort(reason));
      expect(events).toEqual([...TEXT_SO_FAR, ABORTED]);
    }
  });

  it('AbortSignal.timeout(): failed deadline, retryable', async () => {
    const events = await eventsWithSignal(AbortSignal.timeout(200), () => undefined);
    expect(events).toEqual([...TEXT_SO_FAR, DEADLINE]);
  });

  it('a signal already timed out: failed deadline at once, nothing read', async () => {
    const signal = AbortSignal.timeout(1);
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
    const events = await lastValueFrom(streamEvents(heldBody(), { signal }).pipe(toArray()));
    expect(events).toEqual([DEADLINE]);
  });
});
