import {
  createServer,
  get,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { concat, finalize, from, NEVER } from 'rxjs';
import type { StreamEvent } from '../../src/events';
import { pipeToNodeResponse } from '../../src/relay/sse/pipeToNodeResponse';
import { toSseResponse } from '../../src/relay/sse/toSseStream';
import { countingScheduler } from '../reliability/leakCheck';

const delta = (text: string): StreamEvent => ({ type: 'text-delta', id: 't', delta: text });

/** Polls (bounded, 10 ms apart) until `probe()` holds; false when it never did. */
async function eventually(probe: () => boolean, tries = 300): Promise<boolean> {
  for (let i = 0; i < tries && !probe(); i++) await new Promise((r) => setTimeout(r, 10));
  return probe();
}

describe('pipeToNodeResponse', () => {
  let server: Server;
  let url: string;
  let respond: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  const settled: Promise<void>[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => void settled.push(respond(req, res)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await Promise.all(settled);
  });

  it('copies the status, the headers (several set-cookie kept several) and the body', async () => {
    respond = (_req, res) => {
      const headers = new Headers({ 'content-type': 'text/plain', 'x-one': '1' });
      headers.append('set-cookie', 'a=1');
      headers.append('set-cookie', 'b=2');
      return pipeToNodeResponse(new Response('Hello, world', { status: 201, headers }), res);
    };
    const response = await fetch(url);
    expect([response.status, await response.text()]).toEqual([201, 'Hello, world']);
    expect([
      response.headers.get('content-type'),
      response.headers.get('x-one'),
      response.headers.getSetCookie(),
    ]).toEqual(['text/plain', '1', ['a=1', 'b=2']]);
  });

  it('a response without a body: its status and nothing else (204)', async () => {
    respond = (_req, res) => pipeToNodeResponse(new Response(null, { status: 204 }), res);
    const response = await fetch(url);
    expect([response.status, await response.text()]).toEqual([204, '']);
  });

  it('a client that goes away cancels the body: the follower is unsubscribed, no timer left', async () => {
    const scheduler = countingScheduler();
    // Promises, not polls with a bound: each step waits for the one thing it needs, however
    // loaded the machine (the jest timeout is the only clock).
    let markUnsubscribed!: () => void;
    const unsubscribed = new Promise<void>((resolve) => (markUnsubscribed = resolve));
    let markPiped!: (piped: Promise<void>) => void;
    const piped = new Promise<Promise<void>>((resolve) => (markPiped = resolve));
    respond = (_req, res) => {
      const events$ = concat(from([delta('Hel')]), NEVER).pipe(finalize(markUnsubscribed));
      // A heartbeat far beyond the spec's length: its timer is pending when the client goes away,
      // and no ping can land in what the client reads first.
      const pipe = pipeToNodeResponse(
        toSseResponse(events$, { heartbeatMs: 60_000, scheduler }),
        res,
      );
      markPiped(pipe);
      return pipe;
    };
    const controller = new AbortController();
    const response = await fetch(url, { signal: controller.signal });
    expect(response.headers.get('x-llm-rx-stream')).toBe('1');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const expected = `retry: 1000\n\nid: 0\ndata: ${JSON.stringify(delta('Hel'))}\n\n`;
    // However the bytes are cut into chunks, read until the whole first event is in.
    let first = '';
    while (first.length < expected.length) {
      const { done, value } = await reader.read();
      if (done) break;
      first += decoder.decode(value, { stream: true });
    }
    expect(first).toBe(expected);
    // The event was sent, so the heartbeat was re-armed before the client could read it.
    expect(scheduler.pending()).toBe(1);
    controller.abort();
    await await piped;
    await unsubscribed;
    expect(scheduler.pending()).toBe(0);
  });

  it('backpressure: a client that stops reading stops the reads of the body', async () => {
    const chunk = new Uint8Array(64 * 1024).fill(120);
    const total = 400; // 25 MiB: far beyond what the socket buffers hold
    let pulled = 0;
    let cancelled = false;
    respond = (_req, res) =>
      pipeToNodeResponse(
        new Response(
          new ReadableStream<Uint8Array>(
            {
              pull(controller) {
                if (++pulled > total) return controller.close();
                controller.enqueue(chunk);
              },
              cancel: () => void (cancelled = true),
            },
            { highWaterMark: 0 },
          ),
        ),
        res,
      );
    const message = await new Promise<IncomingMessage>((resolve) => get(url, resolve));
    message.pause(); // the client reads nothing more
    // Wait until the pulls stop (bounded), then check they stopped well before the end.
    let before = -1;
    for (let i = 0; i < 100 && before !== pulled; i++) {
      before = pulled;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(pulled).toBeLessThan(total / 2);
    message.destroy();
    expect(await eventually(() => cancelled)).toBe(true);
  });

  it('a body that errors midway destroys the connection: the client sees the answer cut', async () => {
    respond = (_req, res) => {
      let sent = false;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent) return controller.error(new Error('upstream broke'));
          sent = true;
          controller.enqueue(new TextEncoder().encode('partial'));
        },
      });
      return pipeToNodeResponse(new Response(body), res);
    };
    const response = await fetch(url);
    await expect(response.text()).rejects.toThrow();
  });
});
