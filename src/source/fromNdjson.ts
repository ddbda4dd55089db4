import { Observable } from 'rxjs';
import * as z from 'zod/mini';
import { LlmRxError } from '../errors';
import { maxBufferSizeOption, parseOptions, signalOption } from '../internal/options';
import { checkByteInput, readText, type ByteInput, type CheckedInput } from './byteSource';
import type { SourceWarning } from './fromSse';

/** Options of {@link fromNdjson}. */
export interface FromNdjsonOptions {
  /** Most characters one line may hold. @defaultValue 1 MiB (1_048_576) */
  maxBufferSize?: number;
  /** Aborting it cancels the reader and errors with code `aborted`. */
  signal?: AbortSignal;
  /** Told about what was skipped: a final line cut off by EOF that is not complete JSON. */
  onWarning?: (warning: SourceWarning) => void;
}

const FromNdjsonOptions = z.object({
  maxBufferSize: maxBufferSizeOption,
  signal: z.optional(signalOption),
  onWarning: z.optional(z.custom<(warning: SourceWarning) => void>((v) => typeof v === 'function')),
});

/**
 * Bytes of newline-delimited JSON (Ollama `/api/chat`) as an Observable of parsed values.
 *
 * ```
 * bytes:   '{"a":1}\n\n{"b":2}\n' EOF
 * result:  -{a:1}-{b:2}|
 * ```
 *
 * - One JSON value per line; LF or CRLF; blank lines are skipped.
 * - A line that is not JSON errors with code `malformed-event` and its 1-based line number
 *   (blank lines count); the message gives the line's length, never its text (the parser's
 *   SyntaxError, which quotes it, is kept as `cause`). A last line cut off by EOF is delivered
 *   when it is complete JSON, else dropped and reported through `onWarning` (`truncated-event`).
 * - A line longer than `maxBufferSize` characters (its line end not counted) errors with
 *   `max-buffer-size-exceeded` however the bytes were chunked: while it is still arriving, in
 *   the chunk that takes it over the limit, so no further chunk is read.
 * - A failing body errors with `stream-error`; an aborted signal, or the fetch signal aborting
 *   the body (any reason), with `aborted`; `AbortSignal.timeout()` with `deadline`; a body read
 *   before with `body-used`. Anything but a body throws `invalid-options` at the call.
 *   Unsubscribing (or any error) cancels the reader and removes the abort listener.
 *
 * @example
 * ```ts
 * fromNdjson(await fetch('http://localhost:11434/api/chat', init)).pipe(decodeOllama())
 * ```
 * @param input - a fetch Response, a ReadableStream<Uint8Array>, or an AsyncIterable of chunks
 * @param options - {@link FromNdjsonOptions}
 */
export function fromNdjson(input: ByteInput, options: FromNdjsonOptions = {}): Observable<unknown> {
  const checkedOptions = parseOptions('fromNdjson', FromNdjsonOptions, options);
  return ndjsonValuesOf(checkByteInput('fromNdjson', input), checkedOptions);
}

/** {@link fromNdjson} past its checks: streamEvents checked the input and options itself. */
export function ndjsonValuesOf(
  input: CheckedInput,
  { maxBufferSize, signal, onWarning }: z.output<typeof FromNdjsonOptions>,
): Observable<unknown> {
  return new Observable<unknown>((subscriber) => {
    let pending = '';
    let lineNumber = 0;

    const overflow = () =>
      subscriber.error(
        new LlmRxError(
          'max-buffer-size-exceeded',
          `An NDJSON line grew past maxBufferSize (${maxBufferSize} characters); ` +
            `raise maxBufferSize if the provider sends lines that large.`,
        ),
      );

    const emitLine = (line: string, cutOffByEof: boolean) => {
      lineNumber++;
      // Checked on complete lines too, so the limit does not depend on how bytes were chunked.
      if (line.length > maxBufferSize) return overflow();
      if (line.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        // V8's SyntaxError quotes the start of the line: keep it as `cause`, out of the message.
        if (cutOffByEof) {
          onWarning?.({
            code: 'truncated-event',
            message: `The stream ended inside line ${lineNumber}, which is not complete JSON (${line.length} characters); it was dropped.`,
          });
          return;
        }
        subscriber.error(
          new LlmRxError(
            'malformed-event',
            `Line ${lineNumber} of the NDJSON stream is not valid JSON (${line.length} characters); the line is not shown.`,
            { line: lineNumber, cause: error },
          ),
        );
        return;
      }
      subscriber.next(value);
    };

    return readText(input, subscriber, signal, {
      onText(text) {
        let start = 0;
        let newline = text.indexOf('\n');
        while (newline !== -1) {
          const line =
            pending === '' ? text.slice(start, newline) : pending + text.slice(start, newline);
          pending = '';
          emitLine(withoutCarriageReturn(line), false);
          if (subscriber.closed) return;
          start = newline + 1;
          newline = text.indexOf('\n', start);
        }
        if (start < text.length) pending += text.slice(start);
        if (withoutCarriageReturn(pending).length > maxBufferSize) {
          pending = '';
          overflow();
        }
      },
      onEnd() {
        if (pending !== '') emitLine(withoutCarriageReturn(pending), true);
        pending = '';
        if (!subscriber.closed) subscriber.complete();
      },
    });
  });
}

/** The line without the CR of a CRLF line end. */
function withoutCarriageReturn(line: string): string {
  return line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line;
}
