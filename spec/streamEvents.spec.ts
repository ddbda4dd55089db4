import { streamEvents } from '../src/streamEvents';
import { chunksOf, collect, utf8 } from './helpers/bytes';
import { fixture } from './providers/openaiChatHelpers';

const sseResponse = (body: string, status = 200, statusText = '') =>
  new Response(body, { status, statusText, headers: { 'content-type': 'text/event-stream' } });

describe('streamEvents with openai-chat', () => {
  it("fails a non-2xx response with its status and the provider's own message", async () => {
    const body = JSON.stringify({ error: { code: 429, message: 'Rate limit exceeded' } });
    const events = await collect(
      streamEvents(sseResponse(body, 429, 'Too Many Requests'), { provider: 'openrouter' }),
    );
    expect(events).toEqual([
      {
        type: 'failed',
        error: {
          code: 'http-error',
          message: 'The provider answered HTTP 429 Too Many Requests: Rate limit exceeded',
          status: 429,
          retryable: true,
        },
      },
    ]);
  });

  it('does not retry a 400 and cuts a long body to an excerpt', async () => {
    const body = 'x'.repeat(5000);
    const [event] = await collect(
      streamEvents(sseResponse(body, 400), { provider: 'openai-chat' }),
    );
    expect(event).toMatchObject({ type: 'failed', error: { status: 400, retryable: false } });
    const message = (event as { error: { message: string } }).error.message;
    expect(message).toContain('… (5000 characters)');
    expect(message.length).toBeLessThan(300);
  });

  it('detects openai-chat from the first data event (after OpenRouter comments)', async () => {
    const events = await collect(streamEvents(sseResponse(fixture('qwen3-reasoning-details.sse'))));
    expect(events[0]).toEqual({
      type: 'response-start',
      provider: 'openai-chat',
      id: 'gen-qwen3-0001',
      model: 'qwen/qwen3-235b-a22b',
    });
    expect(events.at(-1)).toMatchObject({ type: 'completed', finishReason: 'stop' });
  });

  it('detects openai-chat from an error object sent before any chunk', async () => {
    const body = 'data: {"error":{"code":503,"message":"No provider available"}}\n\n';
    expect(await collect(streamEvents(chunksOf([utf8(body)])))).toEqual([
      {
        type: 'failed',
        error: {
          code: '503',
          message: 'No provider available',
          provider: 'openai-chat',
          retryable: true,
        },
      },
    ]);
  });

  it('never errors: malformed data becomes failed malformed-event', async () => {
    const body = 'data: {"id":"r","choices":[]}\n\ndata: {not json}\n\n';
    const events = await collect(streamEvents(chunksOf([utf8(body)]), { provider: 'openai-chat' }));
    expect(events.at(-1)).toMatchObject({
      type: 'failed',
      error: { code: 'malformed-event', provider: 'openai-chat', retryable: false },
    });
  });
});
