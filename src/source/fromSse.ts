import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { Observable } from 'rxjs';
import * as z from 'zod/mini';
import { LlmRxError } from '../errors';
import { maxBufferSizeOption, parseOptions, signalOption } from '../internal/options';
import { checkByteInput, readText, type ByteInput, type CheckedInput } from './byteSource';

/** One Server-Sent Event: its `event` name (absent means the default), `data`, and last `id`. */
export interface SseMessage {
  event?: string;
  data: string;
  id?: string;
}

/** Something a source skipped, reported instead of dropped silently. */
export interface SourceWarning {
  code: 'truncated-event';
  message: string;
}

/** Options of {@link fromSse}. */
export interface FromSseOptions {
  /** Most characters one unfinished line or event may hold. @defaultValue 1 MiB (1_048_576) */
  maxBufferSize?: number;
  /** Aborting it cancels the reader and errors with code `aborted`. */
  signal?: AbortSignal;
  /** Told about what was skipped: a final event cut off by EOF whose data is not complete JSON. */
  onWarning?: (warning: SourceWarning) => void;
  /** Told each valid `retry:` value (the server's reconnection delay in ms); bad values are ignored. */
  onRetry?: (delayMs: number) => void;
  /**
   * Told each line the parser ignored as an unknown field (e.g. `<!DOCTYPE html>`): a body
   * that yields no event but such lines is not an event stream at all.
   */
  onIgnoredLine?: (line: string) => void;
}

const FromSseOptions = z.object({
  maxBufferSize: maxBufferSizeOption,
  signal: z.optional(signalOption),
  onWarning: z.optional(z.custom<(warning: SourceWarning) => void>((v) => typeof v === 'function')),
  onRetry: z.optional(z.custom<(delayMs: number) => void>((v) => typeof v === 'function')),
  onIgnoredLine: z.optional(z.custom<(line: string) => void>((v) => typeof v === 'function')),
});

/**
 * Bytes of a `text/event-stream` body as an Observable of SSE messages, parsed by
 * eventsource-parser with one streaming TextDecoder.
 *
 * ```
 * bytes:   "data: {\"a\":1}\n\n: keep-alive\n\ndata: [DONE]\n\n" EOF
 * result:  -{data:'{"a":1}'}----{data:'[DONE]'}|
 * ```
 *
 * - Messages are pushed synchronously while each chunk is parsed; nothing is buffered past
 *   the current line or event.
 * - Parsing follows the WHATWG rules (spec/source/sseConformance.spec.ts pins them): one BOM
 *   stripped, CR / LF / CRLF line ends, one leading space stripped, case-sensitive field names,
 *   unknown fields, comments and bad `retry` values ignored, invalid UTF-8 → U+FFFD.
 * - `id` is the last event ID: it persists across messages until an `id:` line changes it; an
 *   empty `id:` resets it; an id containing NUL is ignored. Unlike WHATWG, an `id:` on an event
 *   without data is not remembered (eventsource-parser reports ids only with events).
 * - At EOF the decoder is flushed and a trailing bare CR completed. A final event without its
 *   blank line is delivered only when its data is complete JSON (or `[DONE]`); otherwise it is
 *   dropped and reported through `onWarning` (`truncated-event`).
 * - More than `maxBufferSize` characters held for an unfinished line or event, or an event
 *   whose data is longer than that, errors with `max-buffer-size-exceeded` in the chunk that
 *   overflowed: no further chunk is read. A failing body errors with `stream-error`
 *   (retryable); an aborted signal, or the request's own fetch signal aborting the body (any
 *   reason), with `aborted`; `AbortSignal.timeout()` with `deadline` (retryable). A body read
 *   before errors with `body-used`. Anything but a body throws `invalid-options`.
 * - Unsubscribing, an error or completion cancels the reader and removes the abort listener.
 *
 * @example
 * ```ts
 * fromSse(await fetch(url, init)).subscribe((message) => console.log(message.event, message.data));
 * ```
 * @param input - a fetch Response, a ReadableStream<Uint8Array>, or an AsyncIterable of chunks
 * @param options - {@link FromSseOptions}
 */
export function fromSse(input: ByteInput, options: FromSseOptions = {}): Observable<SseMessage> {
  const checkedOptions = parseOptions('fromSse', FromSseOptions, options);
  return sseMessagesOf(checkByteInput('fromSse', input), checkedOptions);
}

/** {@link fromSse} past its checks: streamEvents checked the input and options itself. */
export function sseMessagesOf(
  input: CheckedInput,
  { maxBufferSize, signal, onWarning, onRetry, onIgnoredLine }: z.output<typeof FromSseOptions>,
): Observable<SseMessage> {
  return new Observable<SseMessage>((subscriber) => {
    let lastEventId: string | undefined;
    let atEof = false;
    let endsWithCarriageReturn = false;

    const overflow = () =>
      subscriber.error(
        new LlmRxError(
          'max-buffer-size-exceeded',
          `An SSE line or event grew past maxBufferSize (${maxBufferSize} characters) without ` +
            `ending; raise maxBufferSize if the provider sends events that large.`,
        ),
      );

    const parser = createParser({
      maxBufferSize,
      onRetry,
      onEvent(message: EventSourceMessage) {
        // The parser only limits what it holds between chunks; an event that arrived within one
        // chunk is checked here, so the limit does not depend on how the bytes were chunked.
        if (message.data.length > maxBufferSize) return overflow();
        if (message.id !== undefined) lastEventId = message.id === '' ? undefined : message.id;
        if (atEof && !isCompletePayload(message.data)) {
          onWarning?.({
            code: 'truncated-event',
            message:
              `The stream ended inside an event whose data is not complete JSON ` +
              `(${message.data.length} characters); it was dropped.`,
          });
          return;
        }
        const out: SseMessage = { data: message.data };
        if (message.event !== undefined) out.event = message.event;
        if (lastEventId !== undefined) out.id = lastEventId;
        subscriber.next(out);
      },
      onError(error) {
        // unknown-field and invalid-retry lines are ignored, as the SSE spec says.
        if (error.type === 'max-buffer-size-exceeded') overflow();
        else if (error.type === 'unknown-field' && error.line !== undefined)
          onIgnoredLine?.(error.line);
      },
    });

    return readText(input, subscriber, signal, {
      onText(text) {
        parser.feed(text);
        endsWithCarriageReturn = text.charCodeAt(text.length - 1) === 13;
      },
      onEnd() {
        // A bare CR at the very end still ends its line; it may also end an event (CR CR).
        if (endsWithCarriageReturn) parser.feed('\n');
        // Whatever is dispatched from here on was cut off by EOF.
        atEof = true;
        parser.feed('\n\n');
        subscriber.complete();
      },
    });
  });
}

/** True for data that parses as JSON, and for OpenAI's `[DONE]` sentinel. */
function isCompletePayload(data: string): boolean {
  if (data === '[DONE]') return true;
  try {
    JSON.parse(data);
    return true;
  } catch {
    return false;
  }
}
