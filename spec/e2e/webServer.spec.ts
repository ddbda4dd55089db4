import { lastValueFrom, toArray } from 'rxjs';
import { startDemoServer, type DemoServer } from '../../examples/web/server/server';
import { fromSse, type SseMessage } from '../../src/index';

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
});
