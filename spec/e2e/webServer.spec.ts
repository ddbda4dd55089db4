import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lastValueFrom, toArray } from 'rxjs';
import { resumableEvents } from '../../examples/web/page/resumableEvents';
import { replayBody } from '../../examples/web/server/captures';
import { startDemoServer, type DemoServer } from '../../examples/web/server/server';
import { channel, fromSse, streamEvents, type SseMessage, type StreamEvent } from '../../src/index';

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

  describe('resumableEvents, the page reader, run in Node (fetch + streamEvents)', () => {
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
        const reconnects: Array<[number, number]> = [];
        const received = await lastValueFrom(
          resumableEvents(`${server.url}/api/turns/${id}/events?drop=${drop}`, {
            signal: new AbortController().signal,
            retryDelayMs: 0,
            onReconnect: (attempt, lastEventId) => reconnects.push([attempt, lastEventId]),
          }).pipe(toArray()),
        );
        expect({ drop, received }).toEqual({ drop, received: relayed });
        expect(reconnects).toEqual([[1, drop - 1]]);
      }
    });

    it('ends incomplete (aborted) when stopped while waiting to reconnect', async () => {
      const id = await turnId();
      const stop = new AbortController();
      const received: StreamEvent[] = await lastValueFrom(
        resumableEvents(`${server.url}/api/turns/${id}/events?drop=2`, {
          signal: stop.signal,
          retryDelayMs: 60_000,
          onReconnect: () => stop.abort(),
        }).pipe(toArray()),
      );
      expect(received.map((event) => event.type)).toEqual([
        'response-start',
        'tool-input-start',
        'incomplete',
      ]);
      expect(received[2]).toEqual({
        type: 'incomplete',
        reason: 'aborted',
        message: 'Stopped while reconnecting.',
      });
    });

    it('gives up after maxReconnects failed attempts in a row, with the last failure', async () => {
      const closed = createServer();
      await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
      const { port } = closed.address() as AddressInfo;
      await new Promise((done) => closed.close(done));
      const received = await lastValueFrom(
        resumableEvents(`http://127.0.0.1:${port}/none`, {
          signal: new AbortController().signal,
          retryDelayMs: 0,
          maxReconnects: 2,
        }).pipe(toArray()),
      );
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({
        type: 'failed',
        error: { code: 'stream-error', retryable: true },
      });
    });
  });
});
