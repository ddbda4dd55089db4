import type { Subscriber, TeardownLogic } from 'rxjs';
import { abortError, errorMessage, LlmRxError } from '../errors';

/** What llm-rx reads bytes from: a fetch `Response`, a web `ReadableStream`, or any async iterable. */
export type ByteInput = Response | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>;

/** One read: the next chunk, or `done` at the end (the shape of a web stream reader's result). */
export type ChunkReadResult =
  { done: false; value: Uint8Array | string } | { done: true; value?: undefined };

/** A pull loop over the input's chunks that can be cancelled from outside. */
export interface ChunkReader {
  /**
   * The next chunk. The underlying reader's own promise is handed through unwrapped: an
   * `async` wrapper would cost one more promise and microtask per chunk.
   */
  read(): Promise<ChunkReadResult>;
  /** Releases the input (reader.cancel / iterator.return); safe to call more than once. */
  cancel(): void;
  /** True for the body of a `Response` that fetch made (see {@link readFailure}). */
  fetched?: boolean;
}

/**
 * A {@link ByteInput} told apart once, at the call ({@link checkByteInput}): what the readers
 * open without looking at the input's type again.
 */
export type CheckedInput =
  | { kind: 'response'; response: Response }
  | { kind: 'stream'; stream: ReadableStream<Uint8Array> }
  | { kind: 'iterable'; iterable: AsyncIterable<Uint8Array | string> };

/**
 * Opens `input` for reading. A `Response` without a body reads as empty; a body that was
 * read before (or is being read) throws `body-used`.
 */
function openChunkReader(input: CheckedInput): ChunkReader {
  if (input.kind === 'response') return openResponseReader(input.response);
  if (input.kind === 'stream') return readableStreamReader(input.stream);
  return asyncIterableReader(input.iterable);
}

/** Opens a `Response`'s body as {@link openChunkReader} does, reading each property once. */
export function openResponseReader(response: Response): ChunkReader {
  const body = response.body;
  if (body === null) return emptyReader();
  // A Response that fetch made, with a body, has type `basic` or `cors` (`new Response()`:
  // `default`; a look-alike object: none).
  const type = response.type;
  const fetched = type === 'basic' || type === 'cors';
  return readableStreamReader(body, response.bodyUsed, fetched);
}

/** True for a fetch `Response` (or anything shaped like one). */
function isResponse(input: unknown): input is Response {
  return (
    typeof input === 'object' &&
    input !== null &&
    'body' in input &&
    'status' in input &&
    'headers' in input
  );
}

function isReadableStream(input: unknown): input is ReadableStream<Uint8Array> {
  return typeof (input as ReadableStream | null)?.getReader === 'function';
}

function emptyReader(): ChunkReader {
  return { read: async () => ({ done: true }), cancel: () => undefined };
}

function readableStreamReader(
  stream: ReadableStream<Uint8Array>,
  used = false,
  fetched?: boolean,
): ChunkReader {
  if (used || stream.locked) {
    throw new LlmRxError(
      'body-used',
      'The body was already read; a body can be read once: pipe(share()) to read it twice.',
    );
  }
  const reader = stream.getReader();
  let cancelled = false;
  return {
    fetched,
    read: () => reader.read() as Promise<ChunkReadResult>,
    cancel() {
      if (cancelled) return;
      cancelled = true;
      // cancel() rejects when the stream already errored; nothing is left to release then.
      reader.cancel().catch(() => undefined);
    },
  };
}

function asyncIterableReader(iterable: AsyncIterable<Uint8Array | string>): ChunkReader {
  const iterator = iterable[Symbol.asyncIterator]();
  let cancelled = false;
  return {
    read: () => iterator.next() as Promise<ChunkReadResult>,
    cancel() {
      if (cancelled) return;
      cancelled = true;
      Promise.resolve(iterator.return?.()).catch(() => undefined);
    },
  };
}

/** Decode options of every chunk but the last, allocated once. */
const STREAMING: TextDecodeOptions = { stream: true };

/**
 * Reads `input` chunk by chunk and hands each to `onChunk` synchronously, as text decoded with
 * one streaming UTF-8 TextDecoder (one leading BOM stripped, invalid bytes → U+FFFD). Resolves after
 * `onEnd` at EOF; a read error goes to `onError` as `stream-error` (retryable). `isStopped`
 * is checked after every chunk so a consumer that unsubscribed or failed stops the loop.
 */
export async function pumpText(
  reader: ChunkReader,
  handlers: {
    onText(text: string): void;
    onEnd(): void;
    onError(error: unknown): void;
    isStopped(): boolean;
  },
): Promise<void> {
  // `ignoreBOM`: the decoder keeps every BOM and the one leading BOM is stripped below, from
  // bytes and strings alike: runtimes' decoders disagree on a doubled BOM (Node 24 drops both).
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let first = true;
  try {
    for (;;) {
      const result = await reader.read();
      if (handlers.isStopped()) return;
      if (result.done) break;
      const chunk = result.value;
      let text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, STREAMING);
      if (first && text.length > 0) {
        first = false;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      if (text.length > 0) handlers.onText(text);
      if (handlers.isStopped()) return;
    }
    const tail = decoder.decode();
    if (tail.length > 0) handlers.onText(tail);
    if (!handlers.isStopped()) handlers.onEnd();
  } catch (error) {
    if (!handlers.isStopped()) handlers.onError(readFailure(error, reader.fetched));
  }
}

/**
 * What a rejected body read means. `fetch(url, { signal })` errors the body with the signal's
 * reason, as it is: `AbortSignal.timeout()` → `deadline` (retryable); any other abort (the
 * default `AbortError`, or a reason of the caller's own on a fetched body) → `aborted`. A network
 * failure rejects a fetched body with a `TypeError` (told by name: it may come from another
 * realm): `stream-error` (retryable), as is any failure of a body that fetch did not make.
 */
function readFailure(error: unknown, fetched?: boolean): LlmRxError {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError' || (fetched && name !== 'TypeError'))
    return abortError(error);
  return new LlmRxError(
    'stream-error',
    `Reading the response body failed: ${errorMessage(error)}`,
    { retryable: true, cause: error },
  );
}

/**
 * Tells what `input` is, once, at the call; throws `invalid-options` when it is nothing
 * llm-rx can read bytes from (`undefined`, `null`, a number, a plain string, an object that is
 * not a body).
 */
export function checkByteInput(functionName: string, input: unknown): CheckedInput {
  if (isResponse(input)) return { kind: 'response', response: input };
  if (isReadableStream(input)) return { kind: 'stream', stream: input };
  if (
    typeof input === 'object' &&
    input !== null &&
    typeof (input as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function'
  ) {
    return { kind: 'iterable', iterable: input as AsyncIterable<Uint8Array | string> };
  }
  const got = input === null ? 'null' : typeof input === 'object' ? 'an object' : typeof input;
  throw new LlmRxError(
    'invalid-options',
    `${functionName}: expected a fetch Response, a ReadableStream<Uint8Array> or an ` +
      `AsyncIterable of Uint8Array or string, got ${got}. Pass the Response that fetch returned.`,
  );
}

/**
 * The part every byte source shares: opens `input`, pumps its decoded text into `onText`, calls
 * `onEnd` at EOF, sends read failures and an aborted `signal` to `subscriber.error`, and stops
 * as soon as the subscriber is closed. The returned teardown cancels the reader and removes the
 * abort listener.
 */
export function readText(
  input: CheckedInput,
  subscriber: Subscriber<unknown>,
  signal: AbortSignal | undefined,
  handlers: { onText(text: string): void; onEnd(): void },
): TeardownLogic {
  return readWith(input, subscriber, signal, (reader, isStopped) =>
    pumpText(reader, {
      onText: handlers.onText,
      onEnd: handlers.onEnd,
      onError: (error) => subscriber.error(error),
      isStopped,
    }),
  );
}

/**
 * {@link readText} for binary framings (the AWS event stream): the chunks as bytes, undecoded
 * (a string chunk is encoded as UTF-8), with the same abort, error and teardown guarantees.
 */
export function readBytes(
  input: CheckedInput,
  subscriber: Subscriber<unknown>,
  signal: AbortSignal | undefined,
  handlers: { onBytes(bytes: Uint8Array): void; onEnd(): void },
): TeardownLogic {
  return readWith(input, subscriber, signal, async (reader, isStopped) => {
    const encoder = new TextEncoder();
    try {
      for (;;) {
        const result = await reader.read();
        if (isStopped()) return;
        if (result.done) break;
        const chunk = result.value;
        const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
        if (bytes.length > 0) handlers.onBytes(bytes);
        if (isStopped()) return;
      }
      handlers.onEnd();
    } catch (error) {
      if (!isStopped()) subscriber.error(readFailure(error, reader.fetched));
    }
  });
}

function readWith(
  input: CheckedInput,
  subscriber: Subscriber<unknown>,
  signal: AbortSignal | undefined,
  pump: (reader: ChunkReader, isStopped: () => boolean) => Promise<void>,
): TeardownLogic {
  const onAbort = () => subscriber.error(abortError(signal?.reason));
  if (signal?.aborted) return onAbort();
  const reader = openChunkReader(input);
  signal?.addEventListener('abort', onAbort, { once: true });
  void pump(reader, () => subscriber.closed);
  return () => {
    signal?.removeEventListener('abort', onAbort);
    reader.cancel();
  };
}
