import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { interval, map, take, concat, of } from 'rxjs';
import { relayRoutes } from '../../examples/web/server/relayRoutes';
import type { StreamEvent } from '../../src/events';
import { memoryEventLog } from '../../src/relay/log/memoryEventLog';
import { recordTo } from '../../src/relay/log/recordTo';

/** One request the relay route answered: the Last-Event-ID it came with and the status. */
export interface RouteRequest {
  lastEventId: string | undefined;
  status: number;
  /** The ids of the events sent on it before it ended or was cut. */
  sentIds: number[];
}

/** The guide's relay route (examples/web/server/relayRoutes.ts) on Node's http, cutting on cue. */
export interface CuttingRelayServer {
  /** `http://127.0.0.1:<port>`; `/` is an empty page, `/api/chat?responseId=…` the route. */
  readonly url: string;
  /** Records `count` text deltas `gapMs` apart, then `completed`, under `responseId`. */
  record(responseId: string, count: number, gapMs: number): StreamEvent[];
  /** The connections to `responseId` are cut after `cuts[i]` events (i-th connection), once each. */
  cutPlan(responseId: string, cuts: number[]): void;
  requests(responseId: string): RouteRequest[];
  close(): Promise<void>;
}

/** Starts it on a free port of 127.0.0.1, over a memoryEventLog of its own. */
export async function startCuttingRelayServer(): Promise<CuttingRelayServer> {
  const log = memoryEventLog();
  const routes = relayRoutes(log, () => Promise.reject(new Error('no model in this spec')));
  const plans = new Map<string, number[]>();
  const seen = new Map<string, RouteRequest[]>();

  // Writes the body frame by frame (a frame ends with a blank line); after `cutAfter` event
  // frames are on the wire, the socket is destroyed: a lost connection, without a clean end.
  const send = async (
    body: ReadableStream<Uint8Array>,
    res: ServerResponse,
    request: RouteRequest,
    cutAfter?: number,
  ) => {
    const reader = body.getReader();
    res.on('close', () => void reader.cancel().catch(() => undefined));
    const decoder = new TextDecoder();
    let pending = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return void res.end();
      pending += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = pending.indexOf('\n\n')) >= 0) {
        const frame = pending.slice(0, end + 2);
        pending = pending.slice(end + 2);
        const id = /^id: (\d+)$/m.exec(frame);
        await new Promise<void>((written) => res.write(frame, () => written()));
        if (!id) continue;
        request.sentIds.push(Number(id[1]));
        if (cutAfter !== undefined && request.sentIds.length >= cutAfter) {
          void reader.cancel().catch(() => undefined);
          return void res.destroy();
        }
      }
    }
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/') {
      return void res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>relay</title>');
    }
    const responseId = url.searchParams.get('responseId') ?? '';
    const header = req.headers['last-event-id'];
    const lastEventId = typeof header === 'string' ? header : undefined;
    const list = seen.get(responseId) ?? [];
    seen.set(responseId, list);
    const cutAfter = plans.get(responseId)?.[list.length];
    const headers = lastEventId === undefined ? undefined : { 'last-event-id': lastEventId };
    void routes.GET(new Request(url, { headers })).then((response) => {
      const request: RouteRequest = { lastEventId, status: response.status, sentIds: [] };
      list.push(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (!response.body) return void res.end();
      res.flushHeaders();
      return send(response.body, res, request, cutAfter);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    record(responseId, count, gapMs) {
      const events: StreamEvent[] = [
        ...Array.from({ length: count }, (_, i): StreamEvent => ({
          type: 'text-delta',
          id: 't',
          delta: `w${i} `,
        })),
        { type: 'completed', finishReason: 'stop' },
      ];
      concat(
        interval(gapMs).pipe(
          take(count),
          map((i) => events[i]),
        ),
        of(events[count]),
      )
        .pipe(recordTo(log, responseId))
        .subscribe();
      return events;
    },
    cutPlan: (responseId, cuts) => void plans.set(responseId, cuts),
    requests: (responseId) => seen.get(responseId) ?? [],
    async close() {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await log.close();
    },
  };
}
