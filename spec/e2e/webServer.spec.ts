import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lastValueFrom, toArray } from 'rxjs';
import { replayBody } from '../../examples/web/server/captures';
import { startDemoServer, type DemoServer } from '../../examples/web/server/server';
import {
  channel,
  fromSse,
  resumableEvents,
  streamEvents,
  type SseMessage,
  type StreamEvent,
} from '../../src/index';

/** The page's request: the events URL, with Last-Event-ID once an event arrived. */
const request = (url: string) => (lastEventId: number | undefined, signal: AbortSignal) =>
  fetch(url, {
    headers: lastEventId === undefined ? {} : { 'last-event-id': String(lastEventId) },
    signal,
  });

const isRetry = (event: StreamEvent) => event.type === 'warning' && event.code === 'retry';

// The web example's server at the HTTP level (no browser): turns, resume, the one-time drop.

describe('web example server', () => {
  let server: DemoServer;

  beforeAll(async () => {
    server = await startDemoServer({ gapMs: 0 });
  });

  afterAll(async () => {
    await server.close();
  });

  async function startTurn(query: string): Promise<Response> {
    return fetch(`${server.url}/api/turns?${query}`, { method: 'POST' });
  }

  async function messages(id: string, query = '', lastEventId?: string): Promise<SseMessage[]> {
    const headers: Record<string, string> = {};
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    const response = await fetch(`${server.url}/api/turns/${id}/events${query}`, { headers });
    expect(response.headers.get('x-llm-rx-stream')).toBe('1');
    const received: SseMessage[] = [];
    // A dropped connection errors the body: keep what arrived before it.
    await lastValueFrom(fromSse(response).pipe(toArray())).then(
      (all) => received.push(...all),
      () => undefined,
    );
    return received;
  }

  async function messagesUntilDrop(id: string, query: string): Promise<SseMessage[]> {
    const response = await fetch(`${server.url}/api/turns/${id}/events${query}`);
    const received: SseMessage[] = [];
    let failure: unknown;
    await new Promise<void>((done) =>
      fromSse(response).subscribe({
        next: (message) => received.push(message),
        error: (error: unknown) => ((failure = error), done()),
        complete: done,
      }),
    );
    expect(failure).toBeDefined();
    return received;
  }

  it('answers an unknown capture with 404 and the known names', async () => {
    const response = await startTurn('capture=nope/none');
    expect(response.status).toBe(404);
    const body = (await response.json()) as { error: string };
    expect(body.error).toContain('No bundled capture "nope/none". Known: anthropic/');
    expect(body.error).toContain('demo/openrouter-reasoning-markdown');
  });

  it('answers a Last-Event-ID that is not a position with 400', async () => {
    const { id } = (await (await startTurn('capture=ollama/length')).json()) as { id: string };
    const response = await fetch(`${server.url}/api/turns/${id}/events`, {
      headers: { 'last-event-id': 'seven' },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toContain(
      'Last-Event-ID "seven" is not a position in the stream',
    );
  });

  it('drops the first connection after k events, once; resuming after k-1 continues at k', async () => {
    const { id } = (await (await startTurn('capture=openai-chat/parallel-tool-calls')).json()) as {
      id: string;
    };
    const whole = await messages(id);
    const ids = whole.map((message) => message.id);
    expect(ids).toEqual(whole.map((_, position) => String(position)));
    expect(JSON.parse(whole[whole.length - 1].data)).toMatchObject({ type: 'completed' });

    const { id: dropped } = (await (
      await startTurn('capture=openai-chat/parallel-tool-calls')
    ).json()) as { id: string };
    const first = await messagesUntilDrop(dropped, '?drop=3');
    expect(first.map((message) => message.id)).toEqual(['0', '1', '2']);

    const rest = await messages(dropped, '?drop=3', '2');
    expect(rest.map((message) => message.id)).toEqual(ids.slice(3));
    expect([...first, ...rest].map((message) => message.data)).toEqual(
      whole.map((message) => message.data),
    );
  });

  describe('resumableEvents, the page reader, run in Node (fetch)', () => {
    const name = 'openai-chat/parallel-tool-calls';

    async function turnId(): Promise<string> {
      const response = await startTurn(`capture=${name}`);
      return ((await response.json()) as { id: string }).id;
    }

    it('gives the very events the server relayed, whichever event the connection drops at', async () => {
      const { capture, provider } = server.captures.get(name)!;
      const relayed = await lastValueFrom(
        streamEvents(replayBody(capture, 0), { provider }).pipe(channel('web'), toArray()),
      );
      expect(relayed.length).toBe(11);
      for (const drop of [0, 1, 5, relayed.length - 1]) {
        const id = await turnId();
        const all = await lastValueFrom(
          resumableEvents(request(`${server.url}/api/turns/${id}/events?drop=${drop}`), {
            backoffMs: 0,
          }).pipe(toArray()),
        );
        const received = all.filter((event) => !isRetry(event));
        const reconnects = all
          .filter(isRetry)
          .map((event) => event.type === 'warning' && event.detail);
        expect({ drop, received }).toEqual({ drop, received: relayed });
        expect(reconnects).toEqual([
          expect.objectContaining({ attempt: 1, lastEventId: drop === 0 ? null : drop - 1 }),
        ]);
      }
    });

    it('ends incomplete (aborted) when stopped while waiting to reconnect', async () => {
      const id = await turnId();
      const stop = new AbortController();
      const received: StreamEvent[] = [];
      await new Promise<void>((done) =>
        resumableEvents(request(`${server.url}/api/turns/${id}/events?drop=2`), {
          signal: stop.signal,
          backoffMs: 60_000,
        }).subscribe({
          next: (event) => {
            received.push(event);
            if (isRetry(event)) stop.abort(); // Stop pressed while it waits to reconnect
          },
          complete: done,
        }),
      );
      expect(received.map((event) => event.type)).toEqual([
        'response-start',
        'tool-input-start',
        'warning',
        'incomplete',
      ]);
      expect(received[3]).toEqual({
        type: 'incomplete',
        reason: 'aborted',
        message: 'The reader was stopped.',
      });
    });

    it('gives up after maxAttempts failed connections in a row, with the last failure', async () => {
      const closed = createServer();
      await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
      const { port } = closed.address() as AddressInfo;
      await new Promise((done) => closed.close(done));
      const received = await lastValueFrom(
        resumableEvents(request(`http://127.0.0.1:${port}/none`), {
          backoffMs: 0,
          maxAttempts: 2,
        }).pipe(toArray()),
      );
      expect(received.map((event) => event.type)).toEqual(['warning', 'failed']);
      expect(received[1]).toMatchObject({
        type: 'failed',
        error: { code: 'stream-error', retryable: true },
      });
    });
  });
});
