import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the proxy forwarded: its number (0-based), path and parsed JSON body. */
export interface ProxiedRequest {
  n: number;
  path: string;
  body: any;
}

/**
 * What the proxy does with the fake's answer to a request it already forwarded (the platform
 * acted): `pass` it on, `hold` it (the caller's request stays in flight until `close()`),
 * answer `server-error` instead, or `reset` the connection (after the platform acted: both
 * ambiguous outcomes).
 */
export type Interception = 'pass' | 'hold' | 'server-error' | 'reset';

/**
 * An HTTP proxy on 127.0.0.1 (a free port) in front of a fake chat API (`target`): every JSON
 * POST is forwarded as it is, and `intercept` decides what its caller gets back. `held()`
 * resolves with the first request held; `close()` drops held requests and connections.
 */
export async function startInterceptingProxy(
  target: string,
  intercept: (request: ProxiedRequest) => Interception,
) {
  const holding: ServerResponse[] = [];
  let wakeHeld: (request: ProxiedRequest) => void = () => undefined;
  const firstHeld = new Promise<ProxiedRequest>((resolve) => (wakeHeld = resolve));
  let requests = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const n = requests++;
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      void fetch(`${target}${path}`, {
        method: 'POST',
        headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
        body: raw,
      })
        .then(async (answer) => {
          const text = await answer.text();
          const request = { n, path, body: JSON.parse(raw) };
          const decision = intercept(request);
          if (decision === 'hold') {
            holding.push(res);
            return wakeHeld(request);
          }
          if (decision === 'reset') return res.socket?.destroy();
          if (decision === 'server-error') {
            res.writeHead(500, { 'content-type': 'application/json' });
            return res.end(
              JSON.stringify({ ok: false, error_code: 500, description: 'Internal Server Error' }),
            );
          }
          res.writeHead(answer.status, { 'content-type': 'application/json' });
          res.end(text);
        })
        .catch(() => res.destroy());
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    /** The first request whose answer was held. */
    held: () => firstHeld,
    requestCount: () => requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const res of holding.splice(0)) res.destroy();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
