import { EventStreamCodec } from '@smithy/eventstream-codec';
import { Observable } from 'rxjs';
import * as z from 'zod/mini';
import { errorMessage, LlmRxError } from '../errors';
import { maxBufferSizeOption, parseOptions, signalOption } from '../internal/options';
import { checkByteInput, readBytes, type ByteInput, type CheckedInput } from './byteSource';

/**
 * One message of an `application/vnd.amazon.eventstream` body: its headers (`:event-type`,
 * `:message-type`, `:exception-type`, `:content-type`, … with their values) and its payload.
 */
export interface EventStreamMessage {
  headers: Record<string, string | number | boolean>;
  body: Uint8Array;
}

/** Options of {@link fromEventStream}. */
export interface FromEventStreamOptions {
  /** Most bytes one message may hold. @defaultValue 1 MiB (1_048_576) */
  maxBufferSize?: number;
  /** Aborting it cancels the reader and errors with code `aborted`. */
  signal?: AbortSignal;
}

const FromEventStreamOptions = z.object({
  maxBufferSize: maxBufferSizeOption,
  signal: z.optional(signalOption),
});

// A message is prelude (total length, headers length, prelude CRC: 4 bytes each), headers,
// payload, message CRC; the smallest is 16 bytes.
const PRELUDE_BYTES = 12;
const MIN_MESSAGE_BYTES = 16;

const utf8Decoder = new TextDecoder('utf-8');
const utf8Encoder = new TextEncoder();
const codec = new EventStreamCodec(
  (bytes) => utf8Decoder.decode(bytes),
  (text) => utf8Encoder.encode(text),
);

/**
 * Bytes of an AWS event stream (`application/vnd.amazon.eventstream`: Bedrock
 * `ConverseStream`, `InvokeModelWithResponseStream`) as an Observable of messages, each frame
 * checked and read with `@smithy/eventstream-codec`.
 *
 * ```
 * bytes:   [frame 1 …][… frame 1][frame 2][frame 3 …] EOF
 * result:  ----------m1---------m2-------|   (frame 3 cut off: error)
 * ```
 *
 * - Frames split across chunks reassemble; several frames in one chunk come out in order,
 *   synchronously. Header values are plain strings, numbers and booleans (binary and
 *   timestamp headers as their string form).
 * - A frame whose prelude or message CRC does not match errors with `malformed-event` and
 *   says which checksum failed; a frame shorter than 16 bytes, or a body that ends inside a
 *   frame, errors with `malformed-event` too: the bytes themselves are broken.
 * - A frame longer than `maxBufferSize` bytes errors with `max-buffer-size-exceeded` as soon
 *   as its prelude arrives, before its bytes are buffered.
 * - A failing body errors with `stream-error`; an aborted signal with `aborted`;
 *   unsubscribing (or any error) cancels the reader and removes the abort listener.
 *
 * @example
 * ```ts
 * fromEventStream(await fetch(converseStreamUrl, signedInit)).pipe(decodeBedrock())
 * ```
 * @param input - a fetch Response, a ReadableStream<Uint8Array>, or an AsyncIterable of chunks
 * @param options - {@link FromEventStreamOptions}
 */
export function fromEventStream(
  input: ByteInput,
  options: FromEventStreamOptions = {},
): Observable<EventStreamMessage> {
  const checkedOptions = parseOptions('fromEventStream', FromEventStreamOptions, options);
  return eventStreamMessagesOf(checkByteInput('fromEventStream', input), checkedOptions);
}

/** {@link fromEventStream} past its checks: streamEvents checked the input and options itself. */
export function eventStreamMessagesOf(
  input: CheckedInput,
  { maxBufferSize, signal }: z.output<typeof FromEventStreamOptions>,
): Observable<EventStreamMessage> {
  return new Observable<EventStreamMessage>((subscriber) => {
    let buffer: Uint8Array = new Uint8Array(0);
    let frames = 0;
    const fail = (message: string, cause?: unknown) =>
      subscriber.error(new LlmRxError('malformed-event', message, { cause }));

    /** Takes every whole frame off the front of the buffer; false when it failed. */
    const drain = (): boolean => {
      let offset = 0;
      while (buffer.length - offset >= PRELUDE_BYTES) {
        const view = new DataView(buffer.buffer, buffer.byteOffset + offset);
        const length = view.getUint32(0);
        if (length < MIN_MESSAGE_BYTES) {
          fail(
            `Event stream frame ${frames + 1} says it is ${length} bytes long; a frame has at least 16.`,
          );
          return false;
        }
        if (length > maxBufferSize) {
          subscriber.error(
            new LlmRxError(
              'max-buffer-size-exceeded',
              `An event stream frame of ${length} bytes is larger than maxBufferSize ` +
                `(${maxBufferSize} bytes); raise maxBufferSize if the provider sends frames that large.`,
            ),
          );
          return false;
        }
        if (buffer.length - offset < length) break;
        const frame = buffer.subarray(offset, offset + length);
        offset += length;
        frames++;
        let decoded: ReturnType<typeof codec.decode>;
        try {
          decoded = codec.decode(frame);
        } catch (error) {
          fail(`Event stream frame ${frames} is damaged: ${errorMessage(error)}.`, error);
          return false;
        }
        subscriber.next({ headers: plainHeaders(decoded.headers), body: decoded.body });
        if (subscriber.closed) return false;
      }
      buffer = offset === buffer.length ? new Uint8Array(0) : buffer.slice(offset);
      return true;
    };

    return readBytes(input, subscriber, signal, {
      onBytes(bytes) {
        buffer = buffer.length === 0 ? bytes : concat(buffer, bytes);
        drain();
      },
      onEnd() {
        if (buffer.length > 0) {
          return fail(
            `The event stream ended inside frame ${frames + 1} (${buffer.length} bytes of it arrived).`,
          );
        }
        subscriber.complete();
      },
    });
  });
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a, 0);
  joined.set(b, a.length);
  return joined;
}

function plainHeaders(
  headers: ReturnType<typeof codec.decode>['headers'],
): EventStreamMessage['headers'] {
  const plain: EventStreamMessage['headers'] = {};
  for (const name in headers) {
    const { value } = headers[name];
    plain[name] =
      typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
        ? value
        : value instanceof Uint8Array
          ? utf8Decoder.decode(value)
          : value instanceof Date
            ? value.toISOString()
            : String(value);
  }
  return plain;
}
