import { EventSource } from 'eventsource';
import fc from 'fast-check';
import { startCuttingRelayServer, type CuttingRelayServer } from '../helpers/cuttingRelayServer';

// A standard EventSource (the `eventsource` package, v4: the WHATWG algorithm in Node) on the
// guide's relay route, the connection cut at random events: it resumes with Last-Event-ID,
// gets every event once, and after the terminal makes at most one more request — answered 204,
// after which it stops instead of reconnecting forever.

interface Received {
  ids: string[];
  data: unknown[];
}

/** Reads `url` until the EventSource gives up (readyState CLOSED), bounded by `limitMs`. */
function readUntilClosed(url: string, limitMs: number): Promise<Received> {
  return new Promise((resolve, reject) => {
    const source = new EventSource(url);
    const received: Received = { ids: [], data: [] };
    const limit = setTimeout(() => {
      source.close();
      reject(new Error(`still open after ${limitMs} ms; received ids ${received.ids.join(',')}`));
    }, limitMs);
    source.onmessage = (message) => {
      received.ids.push(message.lastEventId);
      received.data.push(JSON.parse(message.data));
    };
    source.onerror = () => {
      if (source.readyState !== EventSource.CLOSED) return; // it reconnects by itself
      clearTimeout(limit);
      resolve(received);
    };
  });
}

describe('a standard EventSource on the relay route (eventsource v4)', () => {
  let server: CuttingRelayServer;
  let run = 0;
  beforeAll(async () => {
    server = await startCuttingRelayServer();
  });
  afterAll(() => server.close());

  it('a connection cut at random events: every event once, then one request answered 204, then closed', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 0, maxLength: 2 }),
        async (cuts) => {
          const responseId = `es-${++run}`;
          const events = server.record(responseId, 24, 25);
          server.cutPlan(responseId, cuts);
          const received = await readUntilClosed(
            `${server.url}/api/chat?responseId=${responseId}`,
            20_000,
          );
          expect(received.data).toEqual(events);
          expect(received.ids).toEqual(events.map((_, i) => String(i)));
          const requests = server.requests(responseId);
          const last = events.length - 1;
          const terminalAt = requests.findIndex((r) => r.sentIds.includes(last));
          // Each reconnect asked after the last id it had; after the terminal, one 204.
          expect(requests.map((r) => r.lastEventId)).toEqual([
            undefined,
            ...requests
              .slice(0, -1)
              .map((r, i) => String(r.sentIds.at(-1) ?? requests[i].lastEventId)),
          ]);
          expect(requests.slice(terminalAt + 1)).toEqual([
            { lastEventId: String(last), status: 204, sentIds: [] },
          ]);
          expect(requests.slice(0, terminalAt + 1).every((r) => r.status === 200)).toBe(true);
        },
      ),
      { numRuns: 3, seed: 37 },
    );
  });

  it('an unknown id: one request, 204, closed; a malformed Last-Event-ID is a 400', async () => {
    const received = await readUntilClosed(`${server.url}/api/chat?responseId=never`, 5_000);
    expect(received).toEqual({ ids: [], data: [] });
    expect(server.requests('never')).toEqual([
      { lastEventId: undefined, status: 204, sentIds: [] },
    ]);
    const bad = await fetch(`${server.url}/api/chat?responseId=never`, {
      headers: { 'last-event-id': 'abc' },
    });
    expect(bad.status).toBe(400);
  });

  it('every stream opens with retry: 1000', async () => {
    const responseId = `es-retry`;
    server.record(responseId, 1, 1);
    const response = await fetch(`${server.url}/api/chat?responseId=${responseId}`);
    expect((await response.text()).startsWith('retry: 1000\n\nid: 0\n')).toBe(true);
  });
});
