import { getEventListeners } from 'node:events';
import { utf8 } from '../helpers/bytes';

// Inputs that record what a source did to them, for the unsubscribe / abort / overflow specs
// of fromSse and fromNdjson.

/** An endless async generator of `chunk`: counts `next()` calls and whether `finally` ran. */
export function endlessGenerator(chunk: string): {
  input: AsyncGenerator<Uint8Array>;
  reads: () => number;
  finallyRan: () => boolean;
} {
  let reads = 0;
  let finallyRan = false;
  async function* generate(): AsyncGenerator<Uint8Array> {
    try {
      for (;;) {
        reads++;
        yield utf8(chunk);
      }
    } finally {
      finallyRan = true;
    }
  }
  return { input: generate(), reads: () => reads, finallyRan: () => finallyRan };
}

/**
 * A ReadableStream that sends `chunks`, then stalls (never sends another byte nor closes):
 * a connection left open by the server. Records cancellation and how many reads it served.
 */
export function stallingStream(chunks: string[]): {
  stream: ReadableStream<Uint8Array>;
  cancelled: () => boolean;
  pulls: () => number;
} {
  let cancelled = false;
  let pulls = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        pulls++;
        const chunk = chunks.shift();
        if (chunk !== undefined) controller.enqueue(utf8(chunk));
        // Nothing more: the returned promise never settles, so the stream stalls here.
        else return new Promise<void>(() => undefined);
      },
      cancel() {
        cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, cancelled: () => cancelled, pulls: () => pulls };
}

/** An async iterable over `chunks` that counts how many it was asked for. */
export function countingChunks(chunks: string[]): {
  input: AsyncIterable<Uint8Array>;
  reads: () => number;
  released: () => boolean;
} {
  let reads = 0;
  let released = false;
  const input: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        if (reads >= chunks.length) return { done: true, value: undefined };
        return { done: false, value: utf8(chunks[reads++]) };
      },
      return: async () => {
        released = true;
        return { done: true, value: undefined };
      },
    }),
  };
  return { input, reads: () => reads, released: () => released };
}

/** How many abort listeners `signal` holds. */
export function abortListeners(signal: AbortSignal): number {
  return getEventListeners(signal, 'abort').length;
}

/** Active timers and immediates of this process (process.getActiveResourcesInfo). */
export function activeTimers(): number {
  return process
    .getActiveResourcesInfo()
    .filter((resource) => resource === 'Timeout' || resource === 'Immediate').length;
}

/** Lets pending promise callbacks (reader.cancel, iterator.return) run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
