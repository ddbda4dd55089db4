import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { memoryEventLog, pipeToNodeResponse } from '../../../src/index';
import { bundlePageScript } from '../../web/server/buildPage';
import { loadBundledCaptures } from '../../web/server/captures';
import { chatRoutes } from '../../web/server/chatRoutes';
import { createGate, startCaptureModel, type Gate } from './answers';

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
  /** How many answers the model saw closed before their end (a Stop that reached it). */
  modelAborted(): number;
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
  const js = await bundlePageScript(join(__dirname, '../page/main.ts'), {
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  return { js, css: readFileSync(join(__dirname, '../page/page.css'), 'utf8') };
}

/**
 * The useChat example's server, on 127.0.0.1. A chat (the id `useChat` sends) has one response
 * per question, each recorded into the event log under its own id; the resume route serves
 * the chat's latest response from its start, as `useChat({ resume: true })` expects.
 * - `POST /api/chat`: the guide's `chatRoutes` POST, the model being the next bundled capture
 *   (paced): `streamEvents → recordTo(log, responseId, { chatId })`, answered with
 *   `followLog(responseId)` as a UI message stream;
 * - `GET /api/chat/<chatId>/stream`: `chatRoutes`' resume: `log.latest(chatId)` from its
 *   start, or 204 when the chat has none;
 * - `POST /api/chat/<chatId>/stop`: `chatRoutes`' stop: `log.stop` of the chat's latest
 *   response, which aborts its model request and ends it `incomplete` `aborted`;
 * - `GET /api/chat/<chatId>/messages`: the messages the page last sent (what a real app would
 *   load from its database), so that a reload shows the chat again.
 */
export async function startUseChatServer(
  options: UseChatServerOptions = {},
): Promise<UseChatServer> {
  const captures = loadBundledCaptures();
  const page = await buildPage();
  const log = memoryEventLog();
  const messagesOfChat = new Map<string, unknown[]>();
  let nextGate: Gate | undefined;
  const model = await startCaptureModel(captures, () => {
    const gate = nextGate;
    nextGate = undefined;
    return gate;
  });

  // The guide's useChat routes (examples/web/server/chatRoutes.ts), with a model on 127.0.0.1
  // that plays the bundled captures: each response recorded under its own id, the chat's latest
  // resumed, and the stop signal given to the model's fetch, so that Stop closes its request.
  const routes = chatRoutes(log, async (messages, signal) => {
    const turn = (messages as Array<{ role: string }>).filter((m) => m.role === 'user').length;
    const capture = ANSWERS[(turn - 1) % ANSWERS.length];
    const body = JSON.stringify({ capture, gapMs: options.gapMs ?? 20 });
    return fetch(model.url, { method: 'POST', body, signal });
  });

  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    const text = await textOf(req);
    const { id, messages } = JSON.parse(text) as { id: string; messages: unknown[] };
    messagesOfChat.set(id, messages);
    const request = new Request('http://127.0.0.1/api/chat', { method: 'POST', body: text });
    await pipeToNodeResponse(await routes.POST(request), res);
  };

  const resume = async (chatId: string, res: ServerResponse) =>
    pipeToNodeResponse(await routes.resume(chatId), res);

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const chatRoute = /^\/api\/chat\/([\w-]+)\/(stream|messages|stop)$/.exec(url.pathname);
    if (req.method === 'GET' && url.pathname === '/') return plain(res, 'text/html', PAGE);
    if (req.method === 'GET' && url.pathname === '/app.js') {
      return plain(res, 'text/javascript', page.js);
    }
    if (req.method === 'GET' && url.pathname === '/app.css')
      return plain(res, 'text/css', page.css);
    if (req.method === 'POST' && url.pathname === '/api/chat') return answer(req, res);
    if (req.method === 'GET' && chatRoute?.[2] === 'stream') return resume(chatRoute[1], res);
    if (req.method === 'POST' && chatRoute?.[2] === 'stop') {
      return pipeToNodeResponse(await routes.stop(chatRoute[1]), res);
    }
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
    modelAborted: () => model.aborted(),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await model.close();
      await log.close();
    },
  };
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
