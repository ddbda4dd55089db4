import { Observable, type SchedulerLike, type Subscription } from 'rxjs';
import * as z from 'zod/mini';
import { isLlmRxError } from './errors';
import { type ProviderId, type StreamEvent } from './events';
import { failedEvent } from './terminalEvents';
import {
  durationOption,
  maxBufferSizeOption,
  parseOptions,
  schedulerOption,
  signalOption,
} from './internal/options';
import { ensureTerminal } from './operators/ensureTerminal';
import { createAnthropicDecoder } from './providers/anthropic';
import { createGeminiDecoder } from './providers/gemini';
import type { Emit, WireDecoder } from './providers/decoder';
import { excerpt, looksLikeHtml } from './source/excerpt';
import {
  detectWireFormat,
  isEventStreamContentType,
  isNdjsonContentType,
  PROVIDER_NAMES,
  wireFormatOf,
  type ProviderName,
} from './providers/detect';
import { decodeEventStream } from './providers/bedrockStream';
import { createCohereDecoder } from './providers/cohere';
import { createLlmRxDecoder } from './providers/llmRx';
import { createOllamaDecoder } from './providers/ollama';
import { createOpenAIChatDecoder } from './providers/openaiChat';
import { createOpenAIResponsesDecoder } from './providers/openaiResponses';
import { checkByteInput, type ByteInput } from './source/byteSource';
import {
  emptyBody,
  failureForAnswer,
  isUnexpectedAnswer,
  responseHead,
  unexpectedBody,
} from './source/unexpectedAnswer';
import { ndjsonValuesOf } from './source/fromNdjson';
import { sseMessagesOf, type SourceWarning, type SseMessage } from './source/fromSse';

/** Options of {@link streamEvents}. */
export interface StreamEventsOptions {
  /** The wire format; detected from the Content-Type and the first event when omitted. */
  provider?: ProviderName;
  /** Fail with `stalled` when no event arrives for this long. @defaultValue no idle limit */
  idleTimeoutMs?: number;
  /** Fail with `deadline` past this many ms. @defaultValue no deadline */
  deadlineMs?: number;
  /**
   * Aborting it ends the stream with `incomplete` `aborted` and cancels the body;
   * `AbortSignal.timeout()` ends it with `failed` `deadline` (retryable).
   */
  signal?: AbortSignal;
  /** Most characters one line or event may hold. @defaultValue 1 MiB */
  maxBufferSize?: number;
  /** Where the timers run. @defaultValue asyncScheduler */
  scheduler?: SchedulerLike;
}

const StreamEventsOptions = z.object({
  provider: z.optional(z.enum(PROVIDER_NAMES)),
  idleTimeoutMs: z.optional(durationOption),
  deadlineMs: z.optional(durationOption),
  signal: z.optional(signalOption),
  maxBufferSize: maxBufferSizeOption,
  scheduler: schedulerOption,
});

const SSE_DECODERS: Record<
  Exclude<ProviderId, 'ollama' | 'bedrock'>,
  () => WireDecoder<SseMessage>
> = {
  'openai-chat': createOpenAIChatDecoder,
  cohere: createCohereDecoder,
  'openai-responses': createOpenAIResponsesDecoder,
  anthropic: createAnthropicDecoder,
  'llm-rx': createLlmRxDecoder,
  gemini: createGeminiDecoder,
};

/** How many messages detection may look at before it gives up with `unknown-provider`. */
const DETECTION_WINDOW = 8;

/**
 * A provider's streaming response as typed events, always ending in exactly one terminal.
 * = HTTP status check → `fromSse` / `fromNdjson` → the provider's decoder → `ensureTerminal`.
 *
 * ```
 * body:    data:{…"reasoning_details":[…]}  data:{…"content":"Hi"}  data:{…"finish_reason":"stop"}  [DONE]
 * result:  -response-start-reasoning-start-reasoning-delta-reasoning-end-text-start-text-delta-…-finish-(completed|)
 * ```
 *
 * - A non-2xx `Response` → `failed` code `http-error` with `status`, the provider's own error
 *   message (else a short excerpt of the body), `retryAfterMs` from `Retry-After` (retryable
 *   for 408, 409, 429 and 5xx). A 200 that is not a stream — an HTML page,
 *   a plain-text message, a first NDJSON line that is not JSON — → `failed` `unexpected-body`
 *   with an excerpt of what arrived.
 * - `provider` omitted: `application/x-ndjson` → ollama; `application/vnd.amazon.eventstream`
 *   → bedrock (read with `fromEventStream`); otherwise the first SSE event that
 *   tells (see `detectWireFormat`). Detection holds messages back but never drops or reorders
 *   them; nothing telling within the first 8 messages → `failed` `unknown-provider`.
 *   NDJSON without that content type needs `provider: 'ollama'`.
 * - Errors never travel as RxJS `error` notifications: they become `failed`.
 * - A final event cut off by EOF that is not complete JSON → `warning` `truncated-event`.
 * - An empty body (no event, only blank lines or SSE comments) → `failed` `stream-closed`,
 *   retryable, saying the body was empty — whether or not `provider` was given.
 * - The request's own fetch signal aborting the body read → `incomplete` `aborted` whatever
 *   its reason (`ac.abort()`, `ac.abort(new Error('stop'))`), and `AbortSignal.timeout()` →
 *   `failed` `deadline` (retryable); the text so far is already delivered in both (the same for
 *   `signal`). A network failure stays `failed` `stream-error` (retryable).
 * - A body can be read once: subscribing twice to the same `Response` (or passing one whose
 *   body was read) → `failed` `body-used`, not retryable. Give one stream to several
 *   subscribers with `share()`.
 * - `input` that is not a body (`undefined`, `null`, a number, a string) throws
 *   `invalid-options` at the call.
 *
 * @example
 * ```ts
 * const response = await fetch('https://openrouter.ai/api/v1/chat/completions', init);
 * streamEvents(response, { provider: 'openrouter' }).subscribe((event) => console.log(event));
 * ```
 * @param input - a fetch Response, a ReadableStream<Uint8Array>, or an AsyncIterable of chunks
 * @param options - {@link StreamEventsOptions}
 */
export function streamEvents(
  input: ByteInput,
  options: StreamEventsOptions = {},
): Observable<StreamEvent> {
  const { provider, idleTimeoutMs, deadlineMs, signal, maxBufferSize, scheduler } = parseOptions(
    'streamEvents',
    StreamEventsOptions,
    options,
  );
  // Checked here once: the sources below take the checked input and options as they are.
  const checked = checkByteInput('streamEvents', input);
  const decoded = new Observable<StreamEvent>((subscriber) => {
    const emit: Emit = (event) => subscriber.next(event);
    let sourceSubscription: Subscription | undefined;
    let cancelled = false;
    // Read once per subscription: the status check and the wire format both look at it.
    const head = checked.kind === 'response' ? responseHead(checked.response) : undefined;

    const start = () => {
      const contentType = head?.contentType ?? null;
      const format =
        provider !== undefined
          ? wireFormatOf(provider)
          : isNdjsonContentType(contentType)
            ? 'ollama'
            : isEventStreamContentType(contentType)
              ? 'bedrock'
              : head?.headers.has('x-llm-rx-stream')
                ? 'llm-rx'
                : undefined;
      let warned = false;
      const onWarning = (warning: SourceWarning) => {
        warned = true;
        emit({ type: 'warning', code: warning.code, message: warning.message });
      };
      // Nothing at all arrived: the same retryable fault with or without a named provider.
      const isEmpty = (count: number) => count === 0 && !warned;
      const sourceOptions = { maxBufferSize, onWarning };

      if (format === 'bedrock') {
        sourceSubscription = decodeEventStream(checked, { maxBufferSize }, subscriber);
        return;
      }

      if (format === 'ollama') {
        const decoder = createOllamaDecoder();
        let values = 0;
        sourceSubscription = ndjsonValuesOf(checked, sourceOptions).subscribe({
          next(value) {
            values++;
            try {
              decoder.next(value, emit);
            } catch (error) {
              subscriber.error(error);
            }
          },
          error(error) {
            // A first line that is not JSON: the body is something else (a page, a message).
            if (values > 0 || !isLlmRxError(error) || error.code !== 'malformed-event') {
              return subscriber.error(error);
            }
            emit(unexpectedBody('The body is not NDJSON: its first line is not JSON'));
            subscriber.complete();
          },
          complete: () =>
            guard(() => {
              if (isEmpty(values)) emit(emptyBody());
              else decoder.complete(emit);
              subscriber.complete();
            }),
        });
        return;
      }

      let decoder = format === undefined ? undefined : SSE_DECODERS[format]();
      const held: SseMessage[] = [];
      let messages = 0;
      let firstIgnoredLine: string | undefined;
      const onIgnoredLine = (line: string) => (firstIgnoredLine ??= line);
      sourceSubscription = sseMessagesOf(checked, { ...sourceOptions, onIgnoredLine }).subscribe({
        // Called once per event: a try/catch in place, no closure allocated per message.
        next(message) {
          messages++;
          try {
            if (decoder) decoder.next(message, emit);
            else detect(message);
          } catch (error) {
            subscriber.error(error);
          }
        },
        error: (error) => subscriber.error(error),
        complete: () =>
          guard(() => {
            if (isEmpty(messages) && firstIgnoredLine === undefined) {
              emit(emptyBody());
              return subscriber.complete();
            }
            if (messages === 0 && firstIgnoredLine !== undefined) {
              emit(
                unexpectedBody(
                  // Markup never goes into a message a browser or a chat shows.
                  looksLikeHtml(firstIgnoredLine)
                    ? 'The body is not an event stream: it is an HTML page'
                    : `The body is not an event stream: it began ${excerpt(firstIgnoredLine)}`,
                ),
              );
              return subscriber.complete();
            }
            if (!decoder) return endUndetected();
            decoder.complete(emit);
            subscriber.complete();
          }),
      });

      function detect(message: SseMessage) {
        held.push(message);
        const detected = detectWireFormat(message);
        if (detected === undefined || detected === 'ollama' || detected === 'bedrock') {
          if (held.length >= DETECTION_WINDOW) endUndetected();
          return;
        }
        decoder = SSE_DECODERS[detected]();
        for (const heldMessage of held.splice(0)) decoder.next(heldMessage, emit);
      }

      function endUndetected() {
        const first = held[0];
        const seen = first
          ? `the first event was ${first.event ? `"${first.event}" ` : ''}${excerpt(first.data)}`
          : 'the body held no SSE event';
        emit(
          failedEvent(
            'unknown-provider',
            `Could not tell the provider's wire format: ${seen}. Pass { provider }.`,
            false,
          ),
        );
        subscriber.complete();
      }
    };

    const guard = (run: () => void) => {
      try {
        run();
      } catch (error) {
        subscriber.error(error);
      }
    };

    let cancelAnswer: (() => void) | undefined;
    if (head !== undefined && isUnexpectedAnswer(head)) {
      const answer = failureForAnswer(head);
      cancelAnswer = answer.cancel;
      void answer.failure.then((event) => {
        if (cancelled) return;
        emit(event);
        subscriber.complete();
      });
    } else {
      start();
    }

    return () => {
      cancelled = true;
      cancelAnswer?.();
      sourceSubscription?.unsubscribe();
    };
  });
  return decoded.pipe(ensureTerminal({ idleTimeoutMs, deadlineMs, signal, scheduler }));
}
