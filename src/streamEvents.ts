import { Observable, type SchedulerLike, type Subscription } from 'rxjs';
import { z } from 'zod';
import type { FailedEvent, ProviderId, StreamEvent } from './events';
import { durationOption, parseOptions, schedulerOption, signalOption } from './internal/options';
import { ensureTerminal } from './operators/ensureTerminal';
import { createAnthropicDecoder } from './providers/anthropic';
import type { Emit, WireDecoder } from './providers/decoder';
import { excerpt } from './providers/decoder';
import {
  detectWireFormat,
  isNdjsonContentType,
  wireFormatOf,
  type ProviderName,
} from './providers/detect';
import { createOllamaDecoder } from './providers/ollama';
import { createOpenAIChatDecoder } from './providers/openaiChat';
import { createOpenAIResponsesDecoder } from './providers/openaiResponses';
import { isResponse, type ByteInput } from './source/byteSource';
import { fromNdjson } from './source/fromNdjson';
import { fromSse, type SourceWarning, type SseMessage } from './source/fromSse';

/** Options of {@link streamEvents}. */
export interface StreamEventsOptions {
  /** The wire format; detected from the Content-Type and the first event when omitted. */
  provider?: ProviderName;
  /** Fail with `stalled` when no event arrives for this long. @defaultValue no idle limit */
  idleTimeoutMs?: number;
  /** Fail with `deadline` past this many ms. @defaultValue no deadline */
  deadlineMs?: number;
  /** Aborting it ends the stream with `incomplete` `aborted` and cancels the body. */
  signal?: AbortSignal;
  /** Most characters one line or event may hold. @defaultValue 1 MiB */
  maxBufferSize?: number;
  /** Where the timers run. @defaultValue asyncScheduler */
  scheduler?: SchedulerLike;
}

const StreamEventsOptions = z.object({
  provider: z
    .enum(['openai-chat', 'openrouter', 'openai-responses', 'anthropic', 'ollama'])
    .optional(),
  idleTimeoutMs: durationOption.optional(),
  deadlineMs: durationOption.optional(),
  signal: signalOption.optional(),
  maxBufferSize: z.number().int().positive().optional(),
  scheduler: schedulerOption,
});

const SSE_DECODERS: Record<Exclude<ProviderId, 'ollama'>, () => WireDecoder<SseMessage>> = {
  'openai-chat': createOpenAIChatDecoder,
  'openai-responses': createOpenAIResponsesDecoder,
  anthropic: createAnthropicDecoder,
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
 * - A non-2xx `Response` → `failed` code `http-error` with `status` and a short excerpt of
 *   the body (retryable for 408, 409, 429 and 5xx).
 * - `provider` omitted: `application/x-ndjson` → ollama; otherwise the first SSE event that
 *   tells (see `detectWireFormat`). Detection holds messages back but never drops or reorders
 *   them; nothing telling within the first 8 messages → `failed` `unknown-provider`.
 *   NDJSON without that content type needs `provider: 'ollama'`.
 * - Errors never travel as RxJS `error` notifications: they become `failed`.
 * - A final event cut off by EOF that is not complete JSON → `warning` `truncated-event`.
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
  const decoded = new Observable<StreamEvent>((subscriber) => {
    const emit: Emit = (event) => subscriber.next(event);
    let sourceSubscription: Subscription | undefined;
    let cancelled = false;

    const start = () => {
      const contentType = isResponse(input) ? input.headers.get('content-type') : null;
      const format =
        provider !== undefined
          ? wireFormatOf(provider)
          : isNdjsonContentType(contentType)
            ? 'ollama'
            : undefined;
      const onWarning = (warning: SourceWarning) =>
        emit({ type: 'warning', code: warning.code, message: warning.message });
      const sourceOptions = { maxBufferSize, onWarning };

      if (format === 'ollama') {
        const decoder = createOllamaDecoder();
        sourceSubscription = fromNdjson(input, sourceOptions).subscribe({
          next: (value) => guard(() => decoder.next(value, emit)),
          error: (error) => subscriber.error(error),
          complete: () => guard(() => (decoder.complete(emit), subscriber.complete())),
        });
        return;
      }

      let decoder = format === undefined ? undefined : SSE_DECODERS[format]();
      const held: SseMessage[] = [];
      sourceSubscription = fromSse(input, sourceOptions).subscribe({
        next: (message) =>
          guard(() => {
            if (decoder) return decoder.next(message, emit);
            held.push(message);
            const detected = detectWireFormat(message);
            if (detected === undefined || detected === 'ollama') {
              if (held.length >= DETECTION_WINDOW) endUndetected();
              return;
            }
            decoder = SSE_DECODERS[detected]();
            for (const heldMessage of held.splice(0)) decoder.next(heldMessage, emit);
          }),
        error: (error) => subscriber.error(error),
        complete: () =>
          guard(() => {
            if (!decoder) return endUndetected();
            decoder.complete(emit);
            subscriber.complete();
          }),
      });

      function endUndetected() {
        const first = held[0];
        const seen = first
          ? `the first event was ${first.event ? `"${first.event}" ` : ''}${excerpt(first.data)}`
          : 'the body held no SSE event';
        emit(
          failed(
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

    if (isResponse(input) && !input.ok) {
      const response = input;
      void readExcerpt(response).then((body) => {
        if (cancelled) return;
        const event = failed(
          'http-error',
          `The provider answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}: ${body}`,
          isRetryableStatus(response.status),
        );
        event.error.status = response.status;
        emit(event);
        subscriber.complete();
      });
    } else {
      start();
    }

    return () => {
      cancelled = true;
      sourceSubscription?.unsubscribe();
    };
  });
  return decoded.pipe(ensureTerminal({ idleTimeoutMs, deadlineMs, signal, scheduler }));
}

function failed(code: string, message: string, retryable: boolean): FailedEvent {
  return { type: 'failed', error: { code, message, retryable } };
}

function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The first few hundred characters of an error body, read without reading all of it. */
async function readExcerpt(response: Response, maxBytes = 2048): Promise<string> {
  if (!response.body) return '(no body)';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    while (length < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      length += value.length;
    }
  } catch {
    // A body that fails while we read the excerpt still yields what arrived.
  } finally {
    reader.cancel().catch(() => undefined);
  }
  const decoder = new TextDecoder();
  const text = chunks
    .map((chunk) => decoder.decode(chunk, { stream: true }))
    .join('')
    .trim();
  return text === '' ? '(empty body)' : excerpt(text, 200);
}
