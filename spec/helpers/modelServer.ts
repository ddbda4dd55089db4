import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A streaming model on 127.0.0.1 for the Stop specs: each POST is answered with an OpenAI Chat
 * Completions SSE stream whose deltas the test sends one by one, and the test learns when the
 * client closed the request's socket before the answer ended (a stop that reached the provider).
 */
export interface ModelRequest {
  /** Sends one text delta as a `chat.completion.chunk`; resolves once it is written. */
  send(text: string): Promise<void>;
  /** Ends the answer (`finish_reason: stop`, `[DONE]`). */
  finish(): void;
  /** The text sent so far. */
  readonly sent: string;
  /** Resolves when the client closed the connection before the answer ended. */
  readonly aborted: Promise<void>;
  /** Whether it was. */
  readonly wasAborted: boolean;
}

/** A running model server. */
export interface ModelServer {
  /** `http://127.0.0.1:<port>/v1/chat/completions` */
  readonly url: string;
  /** The next request (already received, or the next to come). */
  nextRequest(): Promise<ModelRequest>;
  close(): Promise<void>;
}

/** At most this many requests are answered (a runaway loop cannot spin); later ones get 503. */
const MAX_REQUESTS = 200;

function chunk(delta: object, finishReason: string | null = null): string {
  const choice = { index: 0, delta, finish_reason: finishReason };
  const body = { id: 'chatcmpl-stop', object: 'chat.completion.chunk', choices: [choice] };
  return `data: ${JSON.stringify(body)}\n\n`;
}

/** Starts the model server on a free port. */
export async function startModelServer(): Promise<ModelServer> {
  const arrived: ModelRequest[] = [];
  const waiting: Array<(request: ModelRequest) => void> = [];
  let count = 0;
  const answer = (res: ServerResponse): ModelRequest => {
    let sent = '';
    let ended = false;
    let wasAborted = false;
    let markAborted!: () => void;
    const aborted = new Promise<void>((resolve) => (markAborted = resolve));
    res.on('close', () => {
      if (ended) return;
      wasAborted = true;
      markAborted();
    });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(chunk({ role: 'assistant', content: '' }));
    return {
      send: (text) =>
        new Promise<void>((resolve) => {
          sent += text;
          res.write(chunk({ content: text }), () => resolve());
        }),
      finish() {
        ended = true;
        res.end(chunk({}, 'stop') + 'data: [DONE]\n\n');
      },
      get sent() {
        return sent;
      },
      aborted,
      get wasAborted() {
        return wasAborted;
      },
    };
  };
  const server = createServer((req, res) => {
    req.resume();
    if (++count > MAX_REQUESTS || req.method !== 'POST') return void res.writeHead(503).end();
    const request = answer(res);
    const taker = waiting.shift();
    if (taker) taker(request);
    else arrived.push(request);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/chat/completions`,
    nextRequest: () => {
      const request = arrived.shift();
      return request ? Promise.resolve(request) : new Promise((resolve) => waiting.push(resolve));
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
