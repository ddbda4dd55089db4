import { createServer, type IncomingMessage } from 'node:http';
import { pipeToNodeResponse } from '../../../src/index';
import type { chatRoutes } from './chatRoutes.js';

/** The useChat routes on Node's `http`: requests become fetch Requests, answers go out piped. */
export function chatServer(routes: ReturnType<typeof chatRoutes>) {
  return createServer((req, res) => {
    answer(routes, req)
      .catch((error: unknown) => new Response(String(error), { status: 500 }))
      // Status, headers, body; backpressure; a client that goes away cancels its follower.
      .then((response) => pipeToNodeResponse(response, res));
  });
}

async function answer(routes: ReturnType<typeof chatRoutes>, req: IncomingMessage) {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const chat = /^\/api\/chat\/([^/]+)\/(stream|stop)$/.exec(url.pathname);
  if (req.method === 'POST' && url.pathname === '/api/chat') {
    let body = '';
    for await (const chunk of req) body += chunk;
    return routes.POST(new Request(url, { method: 'POST', body }));
  }
  const chatId = chat ? decodeURIComponent(chat[1]) : '';
  if (req.method === 'GET' && chat?.[2] === 'stream') return routes.resume(chatId);
  if (req.method === 'POST' && chat?.[2] === 'stop') return routes.stop(chatId);
  return new Response('Not found', { status: 404 });
}
