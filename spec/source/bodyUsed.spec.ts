import { lastValueFrom, share, toArray } from 'rxjs';
import type { StreamEvent } from '../../src/events';
import { fromNdjson } from '../../src/source/fromNdjson';
import { fromSse } from '../../src/source/fromSse';
import { streamEvents } from '../../src/streamEvents';

// A body can be read once. A second subscribe to the same Response (or a body read elsewhere)
// is a clear, non-retryable `body-used`, not a retryable "ReadableStream is locked".

const BODY_USED: StreamEvent = {
  type: 'failed',
  error: {
    code: 'body-used',
    message: 'The body was already read; a body can be read once: pipe(share()) to read it twice.',
    retryable: false,
  },
};

const sse =
  `data: ${JSON.stringify({ id: 'r', model: 'm', choices: [{ index: 0, delta: { content: 'Hi' } }] })}\n\n` +
  `data: ${JSON.stringify({ id: 'r', model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`;
const response = () => new Response(sse, { headers: { 'content-type': 'text/event-stream' } });
const events = (events$: ReturnType<typeof streamEvents>) => lastValueFrom(events$.pipe(toArray()));

const ANSWER: StreamEvent[] = [
  { type: 'response-start', provider: 'openai-chat', id: 'r', model: 'm' },
  { type: 'text-start', id: 'r:text' },
  { type: 'text-delta', id: 'r:text', delta: 'Hi' },
  { type: 'text-end', id: 'r:text' },
  { type: 'finish', reason: 'stop', raw: 'stop' },
  { type: 'completed', finishReason: 'stop' },
];

describe('a body read twice', () => {
  it('a second subscribe after the first finished: failed body-used, not retryable', async () => {
    const events$ = streamEvents(response());
    expect(await events(events$)).toEqual(ANSWER);
    expect(await events(events$)).toEqual([BODY_USED]);
  });

  it('a second subscribe while the first reads: the first is unharmed', async () => {
    const events$ = streamEvents(response());
    const [first, second] = await Promise.all([events(events$), events(events$)]);
    expect(first).toEqual(ANSWER);
    expect(second).toEqual([BODY_USED]);
  });

  it('share() gives both subscribers the whole answer', async () => {
    const shared$ = streamEvents(response()).pipe(share());
    const [first, second] = await Promise.all([events(shared$), events(shared$)]);
    expect(first).toEqual(ANSWER);
    expect(second).toEqual(ANSWER);
  });

  it('a Response whose body was read with text(), or cancelled: failed body-used', async () => {
    const read = response();
    await read.text();
    expect(await events(streamEvents(read))).toEqual([BODY_USED]);
    const cancelled = response();
    await cancelled.body!.cancel();
    expect(await events(streamEvents(cancelled, { provider: 'openai-chat' }))).toEqual([BODY_USED]);
  });

  it('a ReadableStream locked by another reader: failed body-used', async () => {
    const body = response().body!;
    body.getReader();
    expect(await events(streamEvents(body))).toEqual([BODY_USED]);
  });

  it('fromSse and fromNdjson error with code body-used', async () => {
    const sseResponse = response();
    await sseResponse.text();
    await expect(lastValueFrom(fromSse(sseResponse))).rejects.toMatchObject({
      code: 'body-used',
      retryable: false,
    });
    const ndjson = new Response('{"a":1}\n');
    await ndjson.text();
    await expect(lastValueFrom(fromNdjson(ndjson))).rejects.toMatchObject({
      code: 'body-used',
      retryable: false,
    });
  });
});

describe('an error answer read twice', () => {
  it('a non-2xx Response already read: failed body-used (was stream-error, retryable)', async () => {
    const answer = new Response('{"error":{"message":"quota"}}', { status: 429 });
    expect(await events(streamEvents(answer))).toEqual([
      {
        type: 'failed',
        error: {
          code: 'http-error',
          message: 'The provider answered HTTP 429: quota',
          status: 429,
          retryable: true,
        },
      },
    ]);
    expect(await events(streamEvents(answer))).toEqual([BODY_USED]);
  });
});
