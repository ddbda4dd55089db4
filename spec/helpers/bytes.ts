import fc from 'fast-check';
import { firstValueFrom, toArray, type Observable } from 'rxjs';

const encoder = new TextEncoder();

/** The text as UTF-8 bytes. */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** An async iterable that yields the given chunks in order (as a body would arrive). */
export async function* chunksOf(
  chunks: Array<Uint8Array | string>,
): AsyncGenerator<Uint8Array | string> {
  for (const chunk of chunks) yield chunk;
}

/** A ReadableStream over the given chunks that records whether it was cancelled. */
export function trackedStream(chunks: Uint8Array[]): {
  stream: ReadableStream<Uint8Array>;
  cancelled: () => boolean;
} {
  let wasCancelled = false;
  let index = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (index < chunks.length) controller.enqueue(chunks[index++]);
      else controller.close();
    },
    cancel() {
      wasCancelled = true;
    },
  });
  return { stream, cancelled: () => wasCancelled };
}

/** `bytes` cut at the given offsets (sorted, deduplicated, inside the array). */
export function splitAt(bytes: Uint8Array, offsets: number[]): Uint8Array[] {
  const cuts = [...new Set(offsets.filter((o) => o > 0 && o < bytes.length))].sort((a, b) => a - b);
  const parts: Uint8Array[] = [];
  let start = 0;
  for (const cut of cuts) {
    parts.push(bytes.slice(start, cut));
    start = cut;
  }
  parts.push(bytes.slice(start));
  return parts;
}

/** Every way to cut `bytes` once, plus byte by byte. */
export function everySingleSplit(bytes: Uint8Array): Uint8Array[][] {
  const splits: Uint8Array[][] = [];
  for (let offset = 1; offset < bytes.length; offset++) splits.push(splitAt(bytes, [offset]));
  splits.push(Array.from(bytes, (byte) => Uint8Array.of(byte)));
  return splits;
}

/** `count` random re-chunkings of `bytes`, reproducible from `seed`. */
export function randomSplits(bytes: Uint8Array, count: number, seed = 42): Uint8Array[][] {
  const maxCuts = Math.min(bytes.length, 64);
  const offsets = fc.sample(
    fc.array(fc.integer({ min: 1, max: Math.max(1, bytes.length - 1) }), { maxLength: maxCuts }),
    { numRuns: count, seed },
  );
  return offsets.map((cuts) => splitAt(bytes, cuts));
}

/** Every value an Observable emits, once it completes. */
export function collect<T>(observable: Observable<T>): Promise<T[]> {
  return firstValueFrom(observable.pipe(toArray()));
}
