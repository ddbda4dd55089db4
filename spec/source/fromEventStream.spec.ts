import fc from 'fast-check';
import { take } from 'rxjs';
import { fromEventStream, type EventStreamMessage } from '../../src/source/fromEventStream';
import { chunksOf, collect, everySingleSplit, splitAt, trackedStream } from '../helpers/bytes';
import { bedrockBody, eventStreamFrame } from '../helpers/eventStreamFrames';
import { abortListeners, settle } from './sourceProbes';

const events = [
  { messageStart: { role: 'assistant' } },
  { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'Grüße 🌍' } } },
  { messageStop: { stopReason: 'end_turn' } },
];
const body = bedrockBody(events);

/** Each message as its event name and parsed payload. */
const readable = (messages: EventStreamMessage[]) =>
  messages.map((m) => [m.headers[':event-type'], JSON.parse(new TextDecoder().decode(m.body))]);

async function run(chunks: Uint8Array[], maxBufferSize?: number) {
  const messages: EventStreamMessage[] = [];
  return new Promise<{ messages: EventStreamMessage[]; error?: any }>((resolve) => {
    fromEventStream(chunksOf(chunks), { maxBufferSize }).subscribe({
      next: (m) => messages.push(m),
      error: (error) => resolve({ messages, error }),
      complete: () => resolve({ messages }),
    });
  });
}

const expected = events.map((e) => [Object.keys(e)[0], Object.values(e)[0]]);

describe('fromEventStream', () => {
  it('reads every frame with its headers and payload', async () => {
    const { messages, error } = await run([body]);
    expect(error).toBeUndefined();
    expect(readable(messages)).toEqual(expected);
    expect(messages[0].headers).toEqual({
      ':message-type': 'event',
      ':event-type': 'messageStart',
      ':content-type': 'application/json',
    });
  });

  it('reassembles frames however the bytes are cut (every single cut, and byte by byte)', async () => {
    for (const chunks of everySingleSplit(body)) {
      expect(readable((await run(chunks)).messages)).toEqual(expected);
    }
  });

  it('property: any cutting gives the same messages', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: body.length - 1 })), async (cuts) => {
        const { messages, error } = await run(splitAt(body, cuts));
        expect(error).toBeUndefined();
        expect(readable(messages)).toEqual(expected);
      }),
      { numRuns: 100 },
    );
  });

  it('a damaged payload errors with malformed-event naming the message checksum, after the frames before it', async () => {
    const damaged = Uint8Array.from(body);
    const first = bedrockBody([events[0]]).length;
    damaged[first + 30] ^= 0xff;
    const { messages, error } = await run([damaged]);
    expect(readable(messages)).toEqual([expected[0]]);
    expect(error).toMatchObject({ code: 'malformed-event' });
    expect(error.message).toMatch(/^Event stream frame 2 is damaged: The message checksum/);
  });

  it('a damaged prelude errors with malformed-event naming the prelude checksum', async () => {
    const damaged = Uint8Array.from(body);
    damaged[9] ^= 0x01;
    const { messages, error } = await run([damaged]);
    expect(messages).toEqual([]);
    expect(error.message).toMatch(/^Event stream frame 1 is damaged: The prelude checksum/);
  });

  it('a body that ends inside a frame errors with malformed-event', async () => {
    const { messages, error } = await run([body.slice(0, body.length - 5)]);
    expect(messages).toHaveLength(2);
    expect(error).toMatchObject({ code: 'malformed-event' });
    expect(error.message).toMatch(/ended inside frame 3/);
  });

  it('a frame over maxBufferSize errors as soon as its prelude arrives', async () => {
    const big = eventStreamFrame({ ':event-type': 'x', ':message-type': 'event' }, 'y'.repeat(500));
    const { error } = await run([big.slice(0, 12)], 100);
    expect(error).toMatchObject({ code: 'max-buffer-size-exceeded' });
    expect(error.message).toContain(`${big.length} bytes`);
  });

  it('a length below the 16-byte minimum errors with malformed-event', async () => {
    const bogus = new Uint8Array(12);
    new DataView(bogus.buffer).setUint32(0, 8);
    const { error } = await run([bogus]);
    expect(error).toMatchObject({ code: 'malformed-event' });
  });

  it('unsubscribing cancels the reader and removes the abort listener', async () => {
    const controller = new AbortController();
    const { stream, cancelled } = trackedStream(Array.from({ length: 20 }, () => body));
    const got = await collect(fromEventStream(stream, { signal: controller.signal }).pipe(take(2)));
    await settle();
    expect(got).toHaveLength(2);
    expect(cancelled()).toBe(true);
    expect(abortListeners(controller.signal)).toBe(0);
  });

  it('an aborted signal errors with aborted; an unknown option is rejected at the call', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      collect(fromEventStream(chunksOf([body]), { signal: controller.signal })),
    ).rejects.toMatchObject({
      code: 'aborted',
    });
    expect(() => fromEventStream(chunksOf([body]), { maxBuferSize: 1 } as never)).toThrow(
      expect.objectContaining({ code: 'invalid-options' }),
    );
  });
});
