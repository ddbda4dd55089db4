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
