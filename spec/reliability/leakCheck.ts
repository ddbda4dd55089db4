import { getEventListeners } from 'node:events';
import { asyncScheduler, type SchedulerAction, type SchedulerLike } from 'rxjs';

/** asyncScheduler, counting the timers that are scheduled and not yet run or cancelled. */
export function countingScheduler(): SchedulerLike & { pending(): number } {
  let pending = 0;
  return {
    now: () => asyncScheduler.now(),
    pending: () => pending,
    schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay?: number, state?: T) {
      pending++;
      let settled = false;
      const settle = () => {
        if (settled) return;
        settled = true;
        pending--;
      };
      const subscription = asyncScheduler.schedule<T>(
        function (this: SchedulerAction<T>, innerState?: T) {
          settle();
          work.call(this, innerState);
        },
        delay,
        state,
      );
      subscription.add(settle);
      return subscription;
    },
  };
}

/** How many abort listeners are still registered on `signal`. */
export function abortListenerCount(signal: AbortSignal): number {
  return getEventListeners(signal, 'abort').length;
}

/**
 * A fetch Response over the given chunks with what happens after them: `end` closes the body,
 * `error` errors it (a connection reset), `stall` never sends another byte. Records whether
 * the reader was released (cancelled, or read to its end).
 */
export function faultyResponse(
  chunks: string[],
  after: 'end' | 'error' | 'stall',
  contentType: string,
  status = 200,
): { response: Response; released: () => boolean } {
  const encoder = new TextEncoder();
  let index = 0;
  let released = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (index < chunks.length) {
        controller.enqueue(encoder.encode(chunks[index++]));
        return;
      }
      if (after === 'end') {
        released = true;
        controller.close();
      } else if (after === 'error') {
        released = true;
        controller.error(new Error('read ECONNRESET'));
      }
      // 'stall': leave the pull pending; only a cancel releases it.
      return after === 'stall' ? new Promise<void>(() => undefined) : undefined;
    },
    cancel() {
      released = true;
    },
  });
  const response = new Response(stream, { status, headers: { 'content-type': contentType } });
  return { response, released: () => released };
}
