import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { take, type Subscription } from 'rxjs';
import {
  channel,
  followLog,
  memoryEventLog,
  parseLastEventId,
  recordTo,
  streamEvents,
  toSseResponse,
} from '../../../src/index';
import { buildPage } from './buildPage';
import {
  DEFAULT_CAPTURE,
  DEFAULT_GAP_MS,
  loadBundledCaptures,
  replayBody,
  type BundledCapture,
} from './captures';

/** Options of {@link startDemoServer}. */
export interface DemoServerOptions {
  /** The port to listen on. @defaultValue 0 (a free one) */
  port?: number;
  /** The pause before each wire message of a replay, when the page asks for none. @defaultValue 20 */
  gapMs?: number;
}

/** A running demo server. */
export interface DemoServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The bundled captures it can replay, by name. */
  captures: Map<string, BundledCapture>;
  /** Stops the replays, closes connections and the event log. */
  close(): Promise<void>;
}

/** The most a page may ask for with `?gap=`, so that a typo cannot stall a test for minutes. */
const MAX_GAP_MS = 1000;

/**
 * The web example's server, on 127.0.0.1:
 * - `GET /` the page, `GET /app.js` its script (bundled from `examples/web/page` by esbuild,
 *   llm-rx itself from `src/`), `GET /api/captures` the capture names;
 * - `POST /api/turns?capture=<name>&gap=<ms>` replays a bundled capture, one wire message every
 *   `gap` ms, through `streamEvents → channel('web') → recordTo(memoryEventLog())`, and answers
 *   `{ id }`;
 * - `GET /api/turns/<id>/events?drop=<k>` serves it with `followLog` + `toSseResponse`, from the
 *   position after `Last-Event-ID` when the request has one. With `drop=k` the first connection
 *   to that turn is cut (the socket destroyed) after k events, once, to show resuming;
 * - `POST /api/turns/<id>/stop` the page's Stop: `log.stop(id)`, so the recording (and the
 *   capture's replay) ends `incomplete` `aborted` for every reader.
 */
export async function startDemoServer(options: DemoServerOptions = {}): Promise<DemoServer> {
  const captures = loadBundledCaptures();
  const script = await buildPage();
  const html = readFileSync(join(__dirname, '../index.html'));
  const log = memoryEventLog();
  const recordings = new Set<Subscription>();
  const dropped = new Set<string>();
  let turns = 0;

  const startTurn = (url: URL, res: ServerResponse) => {
    const name = url.searchParams.get('capture') || DEFAULT_CAPTURE;
    const bundled = captures.get(name);
    if (!bundled) {
      return sendJson(res, 404, {
        error: `No bundled capture "${name}". Known: ${[...captures.keys()].join(', ')}`,
      });
    }
    const gap = url.searchParams.get('gap');
    const gapMs = gap === null ? (options.gapMs ?? DEFAULT_GAP_MS) : Number(gap);
    if (!Number.isInteger(gapMs) || gapMs < 0 || gapMs > MAX_GAP_MS) {
      return sendJson(res, 400, { error: `gap must be a whole number of ms, 0 to ${MAX_GAP_MS}` });
    }
    const id = `turn-${++turns}`;
    const recording = streamEvents(replayBody(bundled.capture, gapMs), {
      provider: bundled.provider,
    })
      .pipe(channel('web'), recordTo(log, id))
      .subscribe({ complete: () => recordings.delete(recording) });
    if (!recording.closed) recordings.add(recording);
    sendJson(res, 201, { id, capture: name });
  };

  const serveTurn = async (id: string, url: URL, req: IncomingMessage, res: ServerResponse) => {
    let after: number;
    try {
      after = parseLastEventId(req.headers['last-event-id']?.toString());
    } catch (error) {
      return sendJson(res, 400, { error: (error as Error).message });
    }
    const drop = Number(url.searchParams.get('drop') ?? NaN);
    const dropAfter = Number.isInteger(drop) && drop >= 0 && !dropped.has(id) ? drop : undefined;
    if (dropAfter !== undefined) dropped.add(id);

    let events$ = followLog(log, id, { after });
    if (dropAfter !== undefined) events$ = events$.pipe(take(dropAfter));
    const response = toSseResponse(events$, { startAt: after + 1 });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.flushHeaders();
    const reader = response.body!.getReader();
    const closed = new Promise<void>((resolve) =>
      res.on('close', () => {
        void reader.cancel().catch(() => undefined);
        resolve();
      }),
    );
    let flushed = Promise.resolve();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      flushed = new Promise((resolve) => res.write(value, () => resolve()));
    }
    if (dropAfter === undefined) return void res.end();
    // A dropped connection ends without the closing chunk, as a lost network would; but only
    // once the k events are on the wire (destroy() discards what is still buffered).
    await Promise.race([flushed, closed]);
    res.destroy();
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const turn = /^\/api\/turns\/([\w-]+)\/(events|stop)$/.exec(url.pathname);
    if (req.method === 'GET' && url.pathname === '/') return send(res, 200, 'text/html', html);
    if (req.method === 'GET' && url.pathname === '/app.js') {
      return send(res, 200, 'text/javascript', script);
    }
    if (req.method === 'GET' && url.pathname === '/api/captures') {
      return sendJson(res, 200, { captures: [...captures.keys()], default: DEFAULT_CAPTURE });
    }
    if (req.method === 'POST' && url.pathname === '/api/turns') return startTurn(url, res);
    if (req.method === 'GET' && turn?.[2] === 'events') return serveTurn(turn[1], url, req, res);
    if (req.method === 'POST' && turn?.[2] === 'stop') {
      await log.stop(turn[1], 'the user pressed Stop'); // the recording ends incomplete aborted
      return void res.writeHead(204).end();
    }
    sendJson(res, 404, { error: `Nothing at ${req.method} ${url.pathname}` });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: String(error) });
      else res.destroy();
    });
  });
  await new Promise<void>((done) => server.listen(options.port ?? 0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    captures,
    async close() {
      for (const recording of recordings) recording.unsubscribe();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await log.close();
    },
  };
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer) {
  res.writeHead(status, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  send(res, status, 'application/json', JSON.stringify(body));
}
