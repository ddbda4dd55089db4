import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NEVER, Subject, concat, finalize, from } from 'rxjs';
import type { StreamEvent } from '../../src/events';
import { followLog } from '../../src/relay/log/followLog';
import { parseLastEventId } from '../../src/relay/sse/lastEventId';
import { memoryEventLog } from '../../src/relay/log/memoryEventLog';
import { recordTo } from '../../src/relay/log/recordTo';
import { toSseResponse, toSseStream } from '../../src/relay/sse/toSseStream';
import { streamEvents } from '../../src/streamEvents';
import { collect } from '../helpers/bytes';
import { countingScheduler } from '../reliability/leakCheck';

const delta = (text: string): StreamEvent => ({ type: 'text-delta', id: 't', delta: text });
const done: StreamEvent = { type: 'completed', finishReason: 'stop' };

/** Writes a web body to a Node response; a client going away cancels the body. */
async function pipeBody(body: ReadableStream<Uint8Array>, res: import('node:http').ServerResponse) {
  const reader = body.getReader();
  res.on('close', () => void reader.cancel().catch(() => undefined));
  for (;;) {
    const { done: finished, value } = await reader
      .read()
      .catch(() => ({ done: true, value: undefined }));
    if (finished || res.destroyed) break;
    res.write(value);
  }
  res.end();
}

describe('relaying over Node http', () => {
  let server: Server;
  let url: string;
  let handler: (
    req: import('node:http').IncomingMessage,
    res: import('node:http').ServerResponse,
  ) => void;
  beforeAll(async () => {
    server = createServer((req, res) => handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('a client that disconnects mid-stream leaves no subscription and no timer', async () => {
    const scheduler = countingScheduler();
    let released!: () => void;
    const unsubscribed = new Promise<void>((resolve) => (released = resolve));
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const events$ = concat(from([delta('Hel'), delta('lo')]), NEVER).pipe(finalize(released));
      void pipeBody(toSseStream(events$, { heartbeatMs: 50, scheduler }), res);
    };
    const controller = new AbortController();
    const response = await fetch(url, { signal: controller.signal });
    const seen: StreamEvent[] = [];
    await new Promise<void>((resolve) => {
      const subscription = streamEvents(response, { provider: 'llm-rx' }).subscribe((event) => {
        seen.push(event);
        if (seen.length === 2) {
          subscription.unsubscribe();
          controller.abort();
          resolve();
        }
      });
    });
    await unsubscribed;
    expect(seen).toEqual([delta('Hel'), delta('lo')]);
    expect(scheduler.pending()).toBe(0);
  });

  it('resume with Last-Event-ID: the rest of the stream, ids continuing, nothing twice', async () => {
    const log = memoryEventLog();
    const source = new Subject<StreamEvent>();
    source.pipe(recordTo(log, 'chat-1')).subscribe();
    handler = (req, res) => {
      let after: number;
      try {
        after = parseLastEventId(req.headers['last-event-id'] as string | undefined);
      } catch (error) {
        res.writeHead(400).end((error as Error).message);
        return;
      }
      const response = toSseResponse(followLog(log, 'chat-1', { after }), { startAt: after + 1 });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      void pipeBody(response.body!, res);
    };
    source.next(delta('a'));
    source.next(delta('b'));
    source.next(delta('c'));
    const resumed = fetch(url, { headers: { 'last-event-id': '1' } });
    setTimeout(() => source.next(done), 20);
    const response = await resumed;
    expect(response.headers.get('x-llm-rx-stream')).toBe('1');
    const text = await response.text();
    expect(text).toBe(
      `retry: 1000\n\nid: 2\ndata: ${JSON.stringify(delta('c'))}\n\nid: 3\ndata: ${JSON.stringify(done)}\n\n`,
    );
    const bad = await fetch(url, { headers: { 'last-event-id': 'abc' } });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toBe(
      'Last-Event-ID "abc" is not a position in the stream: expected a whole number ≥ 0 (the id: of the last event received).',
    );
    const past = await collect(
      streamEvents(await fetch(url, { headers: { 'last-event-id': '9' } })),
    );
    expect(past).toEqual([
      {
        type: 'failed',
        error: {
          code: 'invalid-last-event-id',
          message:
            'Cannot resume stream "chat-1" after position 9: it is at or past the end of the stream (its terminal is position 3).',
          status: 400,
          retryable: false,
        },
      },
    ]);
    await log.close();
  });
});

describe('parseLastEventId', () => {
  it.each([
    [null, -1],
    [undefined, -1],
    ['', -1],
    ['0', 0],
    [' 41 ', 41],
  ])('%p → %p', (value, after) => expect(parseLastEventId(value)).toBe(after));

  it.each(['-1', '1.5', 'abc', '1e3', '12345678901234567'])(
    '%p → invalid-last-event-id, status 400',
    (value) => {
      expect(() => parseLastEventId(value)).toThrow(
        expect.objectContaining({ code: 'invalid-last-event-id', status: 400 }),
      );
    },
  );
});

describe("streamEvents of llm-rx's wire", () => {
  it('an event the schema rejects: failed malformed-event naming the problem, events before it kept', async () => {
    const body = `id: 0\ndata: ${JSON.stringify(delta('Hi'))}\n\nid: 1\ndata: {"type":"text-delta","id":"t"}\n\n`;
    const events = await collect(
      streamEvents(new Response(body, { headers: { 'x-llm-rx-stream': '1' } })),
    );
    expect(events[0]).toEqual(delta('Hi'));
    expect(events[1]).toMatchObject({
      type: 'failed',
      error: { code: 'malformed-event', provider: 'llm-rx', retryable: false },
    });
    expect(events).toHaveLength(2);
    expect((events[1] as { error: { message: string } }).error.message).toContain('delta');
  });

  it('heartbeats are not events', async () => {
    const body = `: ping\n\nid: 0\ndata: ${JSON.stringify(delta('Hi'))}\n\n: ping\n\nid: 1\ndata: ${JSON.stringify(done)}\n\n`;
    expect(await collect(streamEvents(new Response(body)))).toEqual([delta('Hi'), done]);
  });
});
