import type { Observable, Subscription } from 'rxjs';

/**
 * An Observable as a web ReadableStream. The Observable is subscribed on the first read (a
 * Response that is never read holds nothing); its values are enqueued as they come, its
 * completion closes the stream, its error errors it. Cancelling the stream (a client that
 * went away) unsubscribes.
 */
export function readableOf<T>(source: Observable<T>): ReadableStream<T> {
  let subscription: Subscription | undefined;
  let cancelled = false;
  return new ReadableStream<T>(
    {
      pull(controller) {
        if (subscription || cancelled) return;
        subscription = source.subscribe({
          next: (value) => controller.enqueue(value),
          error: (error) => controller.error(error),
          complete: () => controller.close(),
        });
      },
      cancel() {
        cancelled = true;
        subscription?.unsubscribe();
      },
    },
    // 0: pull() only runs when someone reads, so nothing is subscribed before the first read.
    { highWaterMark: 0 },
  );
}

/**
 * An Observable of text as a UTF-8 byte stream, for bodies. Text that arrives while a read is
 * waiting goes out at once; text that arrives while the reader is busy (a burst of events in
 * one tick) is joined into the next chunk, so a burst costs one chunk and one read, not one per
 * event. No timer: nothing ever waits for more. Subscribed on the first read; cancelling the
 * stream unsubscribes.
 */
export function readableTextOf(source: Observable<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let subscription: Subscription | undefined;
  let cancelled = false;
  let held = '';
  let readWaiting = false;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (held !== '') {
          controller.enqueue(encoder.encode(held));
          held = '';
          return;
        }
        readWaiting = true;
        if (subscription || cancelled) return;
        subscription = source.subscribe({
          next(text) {
            if (!readWaiting) {
              held += text;
              return;
            }
            readWaiting = false;
            controller.enqueue(encoder.encode(text));
          },
          error: (error) => controller.error(error),
          complete() {
            if (held !== '') controller.enqueue(encoder.encode(held));
            held = '';
            controller.close();
          },
        });
      },
      cancel() {
        cancelled = true;
        held = '';
        subscription?.unsubscribe();
      },
    },
    { highWaterMark: 0 },
  );
}
