import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Settings of {@link startFakeModelServer}. */
export interface FakeModelServerOptions {
  /** The answer's text pieces, one OpenAI chat chunk each. */
  pieces: string[];
  /** Milliseconds between two pieces. @defaultValue 20 */
  intervalMs?: number;
}

/**
 * A model on 127.0.0.1 (a free port) that streams `pieces` as OpenAI chat completion chunks, one
 * every `intervalMs`, then `finish_reason: 'stop'` and `[DONE]`. It notes how many pieces each
 * request got before its client went away: a stopped answer costs only those.
 */
export async function startFakeModelServer(options: FakeModelServerOptions) {
  const { pieces, intervalMs = 20 } = options;
  const requests: Array<{ sent: number; aborted: boolean; done: boolean }> = [];
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const record = { sent: 0, aborted: false, done: false };
    requests.push(record);
    open.add(res);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const chunk = (delta: object, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-stop', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const timer = setInterval(() => {
      if (record.sent < pieces.length) {
        res.write(chunk({ content: pieces[record.sent++] }));
        return;
      }
      clearInterval(timer);
      record.done = true;
      res.end(`${chunk({}, 'stop')}data: [DONE]\n\n`);
    }, intervalMs);
    res.on('close', () => {
      clearInterval(timer);
      open.delete(res);
      if (!record.done) record.aborted = true;
    });
    req.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/chat/completions`,
    /** Each request: pieces sent, whether the client left before the end, whether it ended. */
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** What {@link startFakeModelServer} gives a spec. */
export type FakeModelServer = Awaited<ReturnType<typeof startFakeModelServer>>;
