import { take, type Observer } from 'rxjs';
import { fromSse, type SseMessage } from '../../src/source/fromSse';
import { chunksOf, collect, randomSplits, trackedStream, utf8 } from '../helpers/bytes';
import {
  abortListeners,
  activeTimers,
  countingChunks,
  endlessGenerator,
  settle,
  stallingStream,
} from './sourceProbes';

/** Subscribes and records every notification. */
function record(): {
  observer: Partial<Observer<SseMessage>>;
  messages: SseMessage[];
  errors: unknown[];
  completed: () => boolean;
} {
  const messages: SseMessage[] = [];
  const errors: unknown[] = [];
  let completed = false;
  return {
    observer: {
      next: (message) => messages.push(message),
      error: (error) => errors.push(error),
      complete: () => (completed = true),
    },
    messages,
    errors,
    completed: () => completed,
  };
}

describe('fromSse: unsubscribe releases the input', () => {
  it('cancels a ReadableStream that is still sending', async () => {
    const event = 'data: {"n":1}\n\n';
    const { stream, cancelled } = trackedStream(Array.from({ length: 50 }, () => utf8(event)));
    const messages = await collect(fromSse(stream).pipe(take(2)));
    await settle();
    expect(messages).toEqual([{ data: '{"n":1}' }, { data: '{"n":1}' }]);
    expect(cancelled()).toBe(true);
  });

  it('cancels a stalled ReadableStream while a read is pending', async () => {
    const { stream, cancelled, pulls } = stallingStream(['data: {"n":1}\n\n']);
    const seen = record();
    const subscription = fromSse(stream).subscribe(seen.observer);
    await settle();
    expect(seen.messages).toEqual([{ data: '{"n":1}' }]);
    expect(pulls()).toBe(2); // the second read is the one left waiting
    subscription.unsubscribe();
    await settle();
    expect(cancelled()).toBe(true);
    expect(seen.errors).toEqual([]);
    expect(seen.completed()).toBe(false);
  });

  it("runs an async generator's finally and reads nothing more", async () => {
    const body = endlessGenerator('data: {"n":1}\n\n');
    const messages = await collect(fromSse(body.input).pipe(take(3)));
    await settle();
    expect(messages).toHaveLength(3);
    expect(body.finallyRan()).toBe(true);
    const readsAtUnsubscribe = body.reads();
    await settle();
    expect(body.reads()).toBe(readsAtUnsubscribe);
  });

  it('leaves no abort listener, timer or immediate behind', async () => {
    const timersBefore = activeTimers();
    const controller = new AbortController();
    const { stream, cancelled } = stallingStream(['data: {"n":1}\n\n']);
    const subscription = fromSse(stream, { signal: controller.signal }).subscribe();
    await settle();
    expect(abortListeners(controller.signal)).toBe(1);
    subscription.unsubscribe();
    await settle();
    expect(abortListeners(controller.signal)).toBe(0);
    expect(cancelled()).toBe(true);
    // At most as many as before: a timer of an earlier spec file in this worker may end meanwhile.
    expect(activeTimers()).toBeLessThanOrEqual(timersBefore);
  });
});

describe('fromSse: signal', () => {
  it('aborting mid-stream errors with `aborted`, cancels the reader, removes the listener', async () => {
    const controller = new AbortController();
    const { stream, cancelled } = stallingStream(['data: {"n":1}\n\n']);
    const seen = record();
    fromSse(stream, { signal: controller.signal }).subscribe(seen.observer);
    await settle();
    controller.abort();
    await settle();
    expect(seen.messages).toEqual([{ data: '{"n":1}' }]);
    expect(seen.errors).toMatchObject([{ name: 'LlmRxError', code: 'aborted' }]);
    expect(cancelled()).toBe(true);
    expect(abortListeners(controller.signal)).toBe(0);
  });

  it('an already aborted signal errors at once without touching the input', async () => {
    const controller = new AbortController();
    controller.abort();
    const { stream, pulls } = stallingStream(['data: {"n":1}\n\n']);
    const seen = record();
    fromSse(stream, { signal: controller.signal }).subscribe(seen.observer);
    await settle();
    expect(seen.errors).toMatchObject([{ code: 'aborted' }]);
    expect(stream.locked).toBe(false);
    expect(pulls()).toBe(0);
    expect(abortListeners(controller.signal)).toBe(0);
  });

  it('removes the listener when the stream completes and when it errors', async () => {
    const controller = new AbortController();
    await collect(fromSse(chunksOf(['data: {}\n\n']), { signal: controller.signal }));
    expect(abortListeners(controller.signal)).toBe(0);
    // The first read gets an event, the second fails: a connection reset mid-stream.
    let pulls = 0;
    const failing = new ReadableStream<Uint8Array>(
      {
        pull(streamController) {
          if (pulls++ === 0) streamController.enqueue(utf8('data: {"n":1}\n\n'));
          else streamController.error(new Error('connection reset'));
        },
      },
      { highWaterMark: 0 },
    );
    const seen = record();
    fromSse(failing, { signal: controller.signal }).subscribe(seen.observer);
    await settle();
    expect(seen.messages).toEqual([{ data: '{"n":1}' }]);
    expect(seen.errors).toMatchObject([
      {
        code: 'stream-error',
        retryable: true,
        message: expect.stringContaining('connection reset'),
      },
    ]);
    expect(abortListeners(controller.signal)).toBe(0);
  });
});

describe('fromSse: maxBufferSize', () => {
  it('errors in the chunk that overflowed and reads no further chunk', async () => {
    // The first chunk leaves 40 characters held; 40 + 30 + 30 = 100 is not over the limit,
    // the fourth chunk makes 130.
    const chunks = [
      'data: {"n":1}\n\n' + 'data: ' + 'x'.repeat(34),
      ...Array(10).fill('x'.repeat(30)),
    ];
    const body = countingChunks(chunks);
    const seen = record();
    fromSse(body.input, { maxBufferSize: 100 }).subscribe(seen.observer);
    await settle();
    expect(seen.messages).toEqual([{ data: '{"n":1}' }]);
    expect(seen.errors).toMatchObject([
      { name: 'LlmRxError', code: 'max-buffer-size-exceeded', retryable: false },
    ]);
    expect(body.reads()).toBe(4);
    expect(body.released()).toBe(true);
  });

  it('counts data lines held for an event without its blank line', async () => {
    const line = 'data: ' + 'y'.repeat(40) + '\n';
    const seen = record();
    fromSse(chunksOf([line, line, line]), { maxBufferSize: 100 }).subscribe(seen.observer);
    await settle();
    expect(seen.errors).toMatchObject([{ code: 'max-buffer-size-exceeded' }]);
  });

  it('rejects a maxBufferSize that is not a positive integer at construction', () => {
    expect(() => fromSse(chunksOf([]), { maxBufferSize: 0 })).toThrow(
      expect.objectContaining({ code: 'invalid-options' }),
    );
  });
});

describe('fromSse: inputs', () => {
  it('reads a fetch Response and treats a Response without body as empty', async () => {
    expect(await collect(fromSse(new Response('data: {"a":1}\n\n')))).toEqual([
      { data: '{"a":1}' },
    ]);
    expect(await collect(fromSse(new Response(null)))).toEqual([]);
  });

  it('strips a BOM from string chunks and reads them as text', async () => {
    expect(await collect(fromSse(chunksOf(['\uFEFFdata: {"a"', ':1}\n\n'])))).toEqual([
      { data: '{"a":1}' },
    ]);
  });
});

describe('fromSse: maxBufferSize does not depend on chunking', () => {
  it('rejects an event whose data is longer than maxBufferSize, whole or split', async () => {
    const body = utf8(`data: {"a":1}\n\ndata: ${'q'.repeat(150)}\n\ndata: {"b":2}\n\n`);
    for (const split of [[body], ...randomSplits(body, 100, 9)]) {
      const seen = record();
      fromSse(chunksOf(split), { maxBufferSize: 100 }).subscribe(seen.observer);
      await settle();
      expect(seen.messages).toEqual([{ data: '{"a":1}' }]);
      expect(seen.errors).toMatchObject([{ code: 'max-buffer-size-exceeded' }]);
    }
  });
});
