import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Subscription } from 'rxjs';
import {
  followLog,
  memoryEventLog,
  recordTo,
  streamEvents,
  toUIMessageStreamResponse,
} from '../../../src/index';
import { loadBundledCaptures } from '../../web/server/captures';
import { createGate, pacedBody, type Gate } from './answers';

/** The answers, in turn: the n-th question of a chat gets `ANSWERS[(n - 1) % length]`. */
export const ANSWERS = [
  'openai-chat/magistral-content-parts',
  'demo/openrouter-reasoning-markdown',
  'demo/openrouter-reasoning-markdown',
];

/** Options of {@link startUseChatServer}. */
export interface UseChatServerOptions {
  /** The port to listen on. @defaultValue 0 (a free one) */
  port?: number;
  /** The pause before each wire message of an answer. @defaultValue 20 */
  gapMs?: number;
}

/** A running useChat example server. */
export interface UseChatServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Holds the next answer after `after` wire messages until the gate opens. */
  holdNextAnswer(after: number): Gate;
  /** Stops the answers, closes connections and the event log. */
  close(): Promise<void>;
}

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>llm-rx · useChat</title>
    <link rel="stylesheet" href="/app.css" />
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/app.js"></script>
  </body>
</html>`;

/** The page's script: examples/use-chat/page/main.ts with React and @ai-sdk/react, by esbuild. */
async function buildPage(): Promise<{ js: string; css: string }> {
  const result = await build({
    entryPoints: [join(__dirname, '../page/main.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  return {
    js: result.outputFiles[0].text,
    css: readFileSync(join(__dirname, '../page/page.css'), 'utf8'),
  };
}

/**
 * The useChat example's server, on 127.0.0.1. A chat (the id `useChat` sends) has one response
 * per question, each recorded into the event log under its own id; the resume route serves
 * the chat's latest response from its start, as `useChat({ resume: true })` expects.
 * - `POST /api/chat`: plays the next answer (a bundled capture, paced) through
 *   `streamEvents → recordTo(log, responseId)` and answers with `followLog(responseId)` as a
 *   UI message stream;
 * - `GET /api/chat/<chatId>/stream`: the latest response of the chat, or 204 when it has none;
 * - `GET /api/chat/<chatId>/messages`: the messages the page last sent (what a real app would
 *   load from its database), so that a reload shows the chat again.
 */
export async function startUseChatServer(
  options: UseChatServerOptions = {},
): Promise<UseChatServer> {
  const captures = loadBundledCaptures();
  const page = await buildPage();
  const log = memoryEventLog();
  const recordings = new Set<Subscription>();
  const messagesOfChat = new Map<string, unknown[]>();
  const latestOfChat = new Map<string, string>();
  let nextGate: Gate | undefined;

  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    const body = JSON.parse(await textOf(req)) as { id: string; messages: Array<{ role: string }> };
    messagesOfChat.set(body.id, body.messages);
    const turn = body.messages.filter((message) => message.role === 'user').length;
    const { capture, provider } = captures.get(ANSWERS[(turn - 1) % ANSWERS.length])!;
    const responseId = `${body.id}-answer-${turn}`;
    const gate = nextGate;
    nextGate = undefined;
    // Recorded on its own: no client connection owns the answer (a reload or Stop leaves it).
    const recording = streamEvents(pacedBody(capture, options.gapMs ?? 20, gate), { provider })
      .pipe(recordTo(log, responseId))
      .subscribe({ complete: () => recordings.delete(recording) });
    if (!recording.closed) recordings.add(recording);
    latestOfChat.set(body.id, responseId);
    await send(
      toUIMessageStreamResponse(followLog(log, responseId), { messageId: responseId }),
      res,
    );
  };

  const resume = async (chatId: string, res: ServerResponse) => {
    const latest = latestOfChat.get(chatId);
    if (latest === undefined) return void res.writeHead(204).end();
    await send(toUIMessageStreamResponse(followLog(log, latest), { messageId: latest }), res);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const chatRoute = /^\/api\/chat\/([\w-]+)\/(stream|messages)$/.exec(url.pathname);
    if (req.method === 'GET' && url.pathname === '/') return plain(res, 'text/html', PAGE);
    if (req.method === 'GET' && url.pathname === '/app.js') {
      return plain(res, 'text/javascript', page.js);
    }
    if (req.method === 'GET' && url.pathname === '/app.css')
      return plain(res, 'text/css', page.css);
    if (req.method === 'POST' && url.pathname === '/api/chat') return answer(req, res);
    if (req.method === 'GET' && chatRoute?.[2] === 'stream') return resume(chatRoute[1], res);
    if (req.method === 'GET' && chatRoute?.[2] === 'messages') {
      const messages = messagesOfChat.get(chatRoute[1]) ?? [];
      return plain(res, 'application/json', JSON.stringify(messages));
    }
    res.writeHead(404).end();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => (res.headersSent ? res.destroy() : res.writeHead(500).end()));
  });
  await new Promise<void>((done) => server.listen(options.port ?? 0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    holdNextAnswer(after) {
      nextGate = createGate(after);
      return nextGate;
    },
    async close() {
      for (const recording of recordings) recording.unsubscribe();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await log.close();
    },
  };
}

/** Writes a fetch `Response` to a Node response; the client going away cancels the body. */
async function send(response: Response, res: ServerResponse): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  const reader = response.body!.getReader();
  res.on('close', () => void reader.cancel().catch(() => undefined));
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
    if (done || res.destroyed) break;
    res.write(value);
  }
  res.end();
}

function plain(res: ServerResponse, type: string, body: string): void {
  res.writeHead(200, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' });
  res.end(body);
}

async function textOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
