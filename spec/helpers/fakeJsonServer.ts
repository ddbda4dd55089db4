import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake received: method, path, headers and the parsed JSON body. */
export interface FakeRequest {
  /** `POST` unless the client said otherwise. */
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
  /** `performance.now()` when the whole request had arrived (before `latencyMs`). */
  receivedAt: number;
}

/** What the fake answers. */
export interface FakeAnswer {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

/** Settings shared by the fake chat APIs. */
export interface FakeServerOptions {
  /** Milliseconds before each request is handled (network and server time). @defaultValue 0 */
  latencyMs?: () => number;
  /** Requests answered at most; later ones get 503, so a runaway loop cannot spin. @defaultValue 5000 */
  maxRequests?: number;
  /**
   * How long an idle keep-alive connection stays open (the server's `Keep-Alive: timeout`
   * hint). Short in specs so that `close()` is quick; the gateway bench keeps connections
   * as a real API's front does, so a client that calls often reuses them. @defaultValue 1000
   */
  keepAliveTimeoutMs?: number;
}

/** A running fake: its base URL and `close()`. */
export interface FakeServer {
  base: string;
  /** Requests received so far. */
  requestCount(): number;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1 << 20;

/**
 * An HTTP server on 127.0.0.1 (a free port) that parses JSON POST bodies and answers with
 * `handle`, after `latencyMs()`. `close()` clears pending latency timers and drops connections.
 */
export async function startFakeJsonServer(
  handle: (request: FakeRequest) => FakeAnswer,
  options: FakeServerOptions = {},
): Promise<FakeServer> {
  const { latencyMs = () => 0, maxRequests = 5000, keepAliveTimeoutMs = 1000 } = options;
  const timers = new Set<NodeJS.Timeout>();
  let requests = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      const receivedAt = performance.now();
      const reply = ({ status, headers = {}, body }: FakeAnswer) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
      };
      if (++requests > maxRequests) return reply({ status: 503, body: { ok: false } });
      if (size > MAX_BODY_BYTES) return reply({ status: 413, body: { ok: false } });
      let body: unknown;
      try {
        // A request without a body (DELETE) has `undefined` for one.
        const raw = Buffer.concat(chunks).toString('utf8');
        // Slack's Web API also takes form bodies (what @slack/web-api's WebClient sends); its
        // fields are strings, "true" / "false" read as booleans.
        body =
          size === 0
            ? undefined
            : /x-www-form-urlencoded/.test(req.headers['content-type'] ?? '')
              ? formFields(raw)
              : JSON.parse(raw);
      } catch {
        return reply({ status: 400, body: { ok: false, description: 'Bad Request: not JSON' } });
      }
      const timer = setTimeout(() => {
        timers.delete(timer);
        reply(
          handle({
            method: req.method ?? 'POST',
            path: req.url ?? '/',
            headers: req.headers,
            body,
            receivedAt,
          }),
        );
      }, latencyMs());
      timers.add(timer);
    });
  });
  server.keepAliveTimeout = keepAliveTimeoutMs;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    requestCount: () => requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** A form body's fields, "true" / "false" as booleans (as Slack reads them). */
function formFields(raw: string): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    fields[key] = value === 'true' ? true : value === 'false' ? false : value;
  }
  return fields;
}
