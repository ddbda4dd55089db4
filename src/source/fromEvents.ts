import { Observable } from 'rxjs';
import * as z from 'zod/mini';
import { LlmRxError } from '../errors';
import { StreamEvent, type WarningEvent } from '../events';
import { zodMessages } from '../internal/zodMessages';

/**
 * Events from another library (an AI SDK `fullStream` mapped to StreamEvents, an openai-node
 * stream, a test array) as an `Observable<StreamEvent>`, each one checked against the
 * `StreamEvent` schema.
 *
 * ```
 * iterable:  a  b  {type:"text-delta"}  c  (end)
 * result:    a--b--w--------------------c--|      w = warning invalid-event; the bad one skipped
 * ```
 *
 * - Each value is validated with `StreamEvent.safeParse`; a valid one goes out as parsed
 *   (fields the schema does not know are left out). An invalid one becomes one `warning`
 *   `invalid-event` (its position, its `type` and what is wrong, never the payload) and is
 *   skipped: a foreign source never crashes the pipeline.
 * - An `Iterable` is read synchronously on subscribe; an `AsyncIterable` (async generator,
 *   ReadableStream) one value at a time. Unsubscribing stops reading and calls the iterator's
 *   `return()`, which releases a ReadableStream or runs a generator's `finally`.
 * - A throw from the iterable is an RxJS `error`, as in `fromSse`: pipe `ensureTerminal()` to
 *   turn it into a `failed` terminal (and to get `completed` from a `finish` when the source
 *   sends no terminal of its own).
 *
 * @example
 * ```ts
 * fromEvents(parsedChunks)   // events you mapped yourself; for the AI SDK, fromAISdk
 *   .pipe(ensureTerminal(), channel('telegram'))
 *   .subscribe(render);
 * ```
 * @param events - an AsyncIterable or Iterable of event objects
 */
export function fromEvents(
  events: AsyncIterable<unknown> | Iterable<unknown>,
): Observable<StreamEvent> {
  const asyncIterable = isAsyncIterable(events);
  if (!asyncIterable && !isIterable(events)) {
    throw new LlmRxError(
      'invalid-options',
      'fromEvents: expected an AsyncIterable or an Iterable of events.',
    );
  }
  return new Observable<StreamEvent>((subscriber) => {
    let position = 0;
    const check = (value: unknown): StreamEvent => {
      const parsed = StreamEvent.safeParse(value, zodMessages);
      if (parsed.success) {
        position++;
        return parsed.data;
      }
      return invalidEventWarning(value, position++, parsed.error);
    };

    if (!asyncIterable) {
      for (const value of events as Iterable<unknown>) {
        if (subscriber.closed) break;
        subscriber.next(check(value));
      }
      subscriber.complete();
      return;
    }

    const iterator = (events as AsyncIterable<unknown>)[Symbol.asyncIterator]();
    let finished = false;
    const pull = async () => {
      try {
        while (!subscriber.closed) {
          const result = await iterator.next();
          if (result.done) {
            finished = true;
            break;
          }
          if (subscriber.closed) break;
          subscriber.next(check(result.value));
        }
        subscriber.complete();
      } catch (error) {
        finished = true;
        subscriber.error(error);
      }
    };
    void pull();
    return () => {
      if (finished) return;
      finished = true;
      // return() may reject (an errored stream) or not be a promise; neither may go unhandled.
      Promise.resolve()
        .then(() => iterator.return?.())
        .catch(() => undefined);
    };
  });
}

/** The warning for a value that is not a StreamEvent: where, which type, what is wrong. */
function invalidEventWarning(
  value: unknown,
  position: number,
  error: z.core.$ZodError,
): WarningEvent {
  const type =
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { type?: unknown }).type === 'string'
      ? (value as { type: string }).type
      : undefined;
  const problems = error.issues.map(
    (issue) => `${issue.path.join('.') || '(event)'}: ${issue.message}`,
  );
  return {
    type: 'warning',
    code: 'invalid-event',
    message: `fromEvents: skipped event #${position}${type === undefined ? '' : ` (type "${type}")`}, not a StreamEvent: ${problems.slice(0, 3).join('; ')}`,
    detail: { position, type, problems },
  };
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof (value as AsyncIterable<unknown> | null)?.[Symbol.asyncIterator] === 'function';
}

function isIterable(value: unknown): value is Iterable<unknown> {
  return typeof (value as Iterable<unknown> | null)?.[Symbol.iterator] === 'function';
}
