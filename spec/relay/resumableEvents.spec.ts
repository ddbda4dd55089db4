import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { from, lastValueFrom, Subject, take, toArray } from 'rxjs';
import type { StreamEvent } from '../../src/events';
import { followLog } from '../../src/relay/log/followLog';
import { parseLastEventId } from '../../src/relay/sse/lastEventId';
import { memoryEventLog } from '../../src/relay/log/memoryEventLog';
import { recordTo } from '../../src/relay/log/recordTo';
import { resumableEvents } from '../../src/relay/sse/resumableEvents';
import { toSseResponse } from '../../src/relay/sse/toSseStream';
import type { EventLog } from '../../src/relay/log/eventLog';

// resumableEvents against a real HTTP server on 127.0.0.1 that serves a recorded stream with
// followLog + toSseResponse and cuts the connection (socket destroyed, no closing chunk) after
// a few events, several times: every event must arrive once, in order, and the stream end once.

const events: StreamEvent[] = [
  { type: 'response-start', provider: 'openai-chat', model: 'm' },
  { type: 'text-start', id: 't' },
  ...Array.from({ length: 40 }, (_, i): StreamEvent => ({
    type: 'text-delta',
    id: 't',
    delta: `word${i} `,
  })),
  { type: 'text-end', id: 't' },
  { type: 'finish', reason: 'stop' },
  { type: 'completed', finishReason: 'stop' },
];

interface CuttingServer {
  url: string;
  /** The Last-Event-ID of each request, as received (undefined: none). */
  lastEventIds: Array<string | undefined>;
  close(): Promise<void>;
}

/** Serves stream "s" of `log`; the first `cuts.length` connections are cut after cuts[i] events. */
async function cuttingServer(log: EventLog, cuts: number[]): Promise<CuttingServer> {
  const lastEventIds: Array<string | undefined> = [];
  let connections = 0;
  const server: Server = createServer((req, res) => {
    const header = req.headers['last-event-id'];
    lastEventIds.push(typeof header === 'string' ? header : undefined);
    const after = parseLastEventId(typeof header === 'string' ? header : undefined);
    const cutAfter = cuts[connections++];
    let events$ = followLog(log, 's', { after, startTimeoutMs: 50 });
    if (cutAfter !== undefined) events$ = events$.pipe(take(cutAfter));
    const response = toSseResponse(events$, { startAt: after + 1 });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    const reader = response.body!.getReader();
    res.on('close', () => void reader.cancel().catch(() => undefined));
    void (async () => {
      let written = Promise.resolve();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        written = new Promise((resolve) => res.write(value, () => resolve()));
      }
      if (cutAfter === undefined) return void res.end();
      await written; // the k events are on the wire; then the connection goes, unterminated
      res.destroy();
    })();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/events`,
    lastEventIds,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

const fetchAfter = (url: string) => (lastEventId: number | undefined, signal: AbortSignal) =>
  fetch(url, {
    headers: lastEventId === undefined ? {} : { 'last-event-id': String(lastEventId) },
    signal,
  });

describe('resumableEvents against a server that cuts the connection', () => {
  let log: EventLog;
  let server: CuttingServer | undefined;

  beforeEach(async () => {
    log = memoryEventLog();
    await lastValueFrom(from(events).pipe(recordTo(log, 's'), toArray()));
  });

  afterEach(async () => {
    await server?.close();
    server = undefined;
    await log.close();
  });

  it('cut four times (after 3, 7, 1 and 10 events): each event once, in order, one terminal', async () => {
    server = await cuttingServer(log, [3, 7, 1, 10]);
    const received = await lastValueFrom(
      resumableEvents(fetchAfter(server.url), { backoffMs: 1 }).pipe(toArray()),
    );
    const retries = received.filter((e) => e.type === 'warning' && e.code === 'retry');
    expect(retries).toHaveLength(4);
    expect(received.filter((e) => !(e.type === 'warning' && e.code === 'retry'))).toEqual(events);
    // Each reconnect asked after the last position received: 3 - 1, then 3 + 7 - 1, …
    expect(server.lastEventIds).toEqual([undefined, '2', '9', '10', '20']);
  });

  it('a stream still being recorded: cut, resumed, the live rest follows', async () => {
    const live = memoryEventLog();
    const source = new Subject<StreamEvent>();
    source.pipe(recordTo(live, 's')).subscribe();
    events.slice(0, 5).forEach((event) => source.next(event));
    server = await cuttingServer(live, [2]);
    const received: StreamEvent[] = [];
    await new Promise<void>((resolve) =>
      resumableEvents(fetchAfter(server!.url), { backoffMs: 1 }).subscribe({
        next: (event) => {
          received.push(event);
          // The resumed reader caught up with what is recorded: the rest is appended live.
          if (received.filter((e) => e.type !== 'warning').length === 5) {
            events.slice(5).forEach((next) => source.next(next));
          }
        },
        complete: resolve,
      }),
    );
    await live.close();
    expect(received.filter((e) => e.type !== 'warning')).toEqual(events);
    expect(server.lastEventIds).toEqual([undefined, '1']);
  });

  it('gives up after maxAttempts when the server is gone, with the last failure', async () => {
    server = await cuttingServer(log, []);
    const url = server.url;
    await server.close();
    server = undefined;
    const received = await lastValueFrom(
      resumableEvents(fetchAfter(url), { maxAttempts: 3, backoffMs: 1 }).pipe(toArray()),
    );
    expect(received.map((e) => e.type)).toEqual(['warning', 'warning', 'failed']);
    expect(received[2]).toMatchObject({
      type: 'failed',
      error: { code: 'stream-error', retryable: true },
    });
  });

  it('an unknown stream (the server sends failed stream-not-found) ends at once, no reconnect', async () => {
    const empty = memoryEventLog();
    server = await cuttingServer(empty, []);
    const received = await lastValueFrom(
      resumableEvents(fetchAfter(server.url), { backoffMs: 1 }).pipe(toArray()),
    );
    await empty.close();
    expect(received).toEqual([
      expect.objectContaining({
        type: 'failed',
        error: expect.objectContaining({ code: 'stream-not-found' }),
      }),
    ]);
    expect(server.lastEventIds).toEqual([undefined]);
  });

  it('rejects bad options at once', () => {
    expect(() => resumableEvents(fetchAfter('http://127.0.0.1:9'), { maxAttempts: 0 })).toThrow(
      /resumableEvents: invalid options/,
    );
    expect(() => resumableEvents('nope' as never)).toThrow(/request must be a function/);
  });
});
