import { Observable } from 'rxjs';
import * as z from 'zod/mini';
import { LlmRxError } from '../errors';
import type { StreamEvent } from '../events';
import { failedEvent } from '../terminalEvents';
import { parseOptions, signalOption } from '../internal/options';
import { AISdkPartMapper, type AISdkStreamPart, type EmitEvent } from './aiSdkParts';
import { messageOf } from './aiSdkValues';

/** Options of {@link fromAISdk}. */
export interface FromAISdkOptions {
  /**
   * The `abortSignal` given to `streamText`: when the parts throw after it fired (ai 6 throws
   * the abort's reason instead of sending an `abort` part), the end is `incomplete` `aborted`.
   * @defaultValue none (a thrown `AbortError` is still an abort)
   */
  signal?: AbortSignal;
}

const FromAISdkOptions = z.strictObject({ signal: z.optional(signalOption) });

/**
 * The AI SDK's stream parts as llm-rx events, with exactly one terminal: `ai` 6's
 * `result.fullStream` and `ai` 7's `result.stream` (both vocabularies), or any `AsyncIterable` /
 * `ReadableStream` of those parts. No dependency on `ai`: the parts are read by their shape.
 *
 * ```
 * parts:   start start-step text-start text-delta text-end finish-step finish
 * result:  ---------------- t--------- d--------- e------- f---------- (u c|)
 *          t/d/e = text-start/-delta/-end, f = finish, u = usage (total), c = completed
 * ```
 *
 * - `text-*` keep their ids (the AI SDK gives each step's parts their own); `reasoning-*` get
 *   an `index` per reasoning part, in order of their start; `tool-input-start` /
 *   `tool-input-delta` / `tool-call` keep the tool call id, with an `index` per call. A call
 *   the AI SDK marks `invalid` (input not JSON, no such tool) carries its reason in `error`.
 * - Tool execution: `tool-result` → `tool-end` (`result` = the output; a `preliminary` one →
 *   `tool-update`), `tool-error` / `tool-output-denied` → `tool-end` with `isError`.
 * - Each `finish-step` → `finish` (its reason); the last `finish` → `usage` (the run's total,
 *   with `reasoningTokens` and `cachedInputTokens`), then the terminal by its reason:
 *   `completed`, or `incomplete` for `length` / `content-filter`; ai 7's `interrupted` →
 *   `failed` `stream-closed` (retryable), as a provider stream that ends without a finish.
 * - `error` → `failed` `provider-error` with the error's own message (and `status`,
 *   `retryable` when it carries `statusCode` / `isRetryable`); `abort` → `incomplete`
 *   `aborted` with the SDK's reason. Reading stops there: nothing follows the terminal.
 * - Reasoning signatures and encrypted reasoning in `providerMetadata` (of the start, a delta or
 *   the end: Anthropic `signature` / `redactedData`, OpenAI `reasoningEncryptedContent`, Google
 *   `thoughtSignature`, llm-rx's own `llmrx`) → `reasoning-end.signature` / `redacted`.
 * - `source` parts → `citation` (`id`, `url`, `title`; a document's title or file name).
 * - A tool the provider ran itself (`providerExecuted`): its call → `tool-start` (`args`), its
 *   result or error → `tool-end`, both `providerExecuted: true`; never a client tool call.
 * - A part llm-rx has no event for (`file`, approvals, …) gives one `warning` `unknown-event`
 *   per type; `start`, `start-step`, `tool-input-end`, `raw` and `ping` carry nothing and are
 *   skipped.
 * - The iterable throwing → `failed` with its message (`stream-error`, retryable), or
 *   `incomplete` `aborted` when it threw an `AbortError` or after `signal` fired; ending
 *   without `finish`, `abort` or `error` → `failed` `stream-closed`. Unsubscribing stops
 *   reading and releases the iterator (`return()` / `cancel()`).
 *
 * @example
 * ```ts
 * const result = streamText({ model, prompt: 'Explain debounceTime' }); // the AI SDK's
 * fromAISdk(result.fullStream).pipe(channel('telegram')).subscribe(send); // ai 7: result.stream
 * ```
 * @param parts - the AI SDK's stream parts (`fullStream` in ai 6, `stream` in ai 7)
 * @param options - {@link FromAISdkOptions}
 */
export function fromAISdk(
  parts: AsyncIterable<AISdkStreamPart> | ReadableStream<AISdkStreamPart>,
  options: FromAISdkOptions = {},
): Observable<StreamEvent> {
  const { signal } = parseOptions('fromAISdk', FromAISdkOptions, options);
  if (!isAsyncIterable(parts) && !isReadableStream(parts)) {
    throw new LlmRxError(
      'invalid-options',
      'fromAISdk: expected the AI SDK stream (result.fullStream in ai 6, result.stream in ai 7): an AsyncIterable or a ReadableStream of parts.',
    );
  }
  return new Observable<StreamEvent>((subscriber) => {
    const mapper = new AISdkPartMapper();
    const emit: EmitEvent = (event) => subscriber.next(event);
    const iterator = iteratorOf(parts);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      // return() may reject (an errored stream) or not be a promise; neither may go unhandled.
      Promise.resolve()
        .then(() => iterator.return?.())
        .catch(() => undefined);
    };
    const pull = async () => {
      try {
        while (!subscriber.closed && !mapper.isEnded) {
          const result = await iterator.next();
          if (result.done) {
            released = true;
            break;
          }
          if (subscriber.closed) return;
          mapper.push(result.value, emit);
        }
        if (subscriber.closed) return;
        if (mapper.isEnded) release();
        else mapper.complete(emit);
        subscriber.complete();
      } catch (error) {
        released = true;
        if (subscriber.closed) return;
        const aborted =
          signal?.aborted || (error as { name?: unknown } | null)?.name === 'AbortError';
        emit(
          aborted
            ? {
                type: 'incomplete',
                reason: 'aborted',
                message: messageOf(signal?.reason ?? error),
              }
            : failedEvent('stream-error', messageOf(error), true),
        );
        subscriber.complete();
      }
    };
    void pull();
    return release;
  });
}

function iteratorOf<T>(parts: AsyncIterable<T> | ReadableStream<T>): AsyncIterator<T> {
  if (isAsyncIterable(parts)) return parts[Symbol.asyncIterator]();
  // A ReadableStream without async iteration (older browsers): read it through its reader.
  const reader = (parts as ReadableStream<T>).getReader();
  return {
    next: () => reader.read() as Promise<IteratorResult<T>>,
    return: async () => {
      await reader.cancel();
      return { done: true, value: undefined };
    },
  };
}

function isAsyncIterable<T>(value: unknown): value is AsyncIterable<T> {
  return typeof (value as AsyncIterable<T> | null)?.[Symbol.asyncIterator] === 'function';
}

function isReadableStream<T>(value: unknown): value is ReadableStream<T> {
  return typeof (value as ReadableStream<T> | null)?.getReader === 'function';
}
