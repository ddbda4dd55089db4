import { concat, map, of, type Observable, type OperatorFunction } from 'rxjs';
import * as z from 'zod/mini';
import { type StreamEvent } from '../../events';
import { failedFromError } from '../../terminalEvents';
import { createOperator } from '../../internal/createOperator';
import { parseOptions } from '../../internal/options';

import { readableOf, readableTextOf } from '../readableOf';
import type { UIMessageChunk } from './uiMessageChunk';
import { UIMessageFramer, type EmitChunk } from './uiMessageFramer';

/** Options of {@link toUIMessageStream}. */
export interface ToUIMessageStreamOptions {
  /** The assistant message's id, sent in `start`; keep it stable across resumes. @defaultValue none (the client makes one) */
  messageId?: string;
  /** `send` reasoning as reasoning parts, or `drop` it. @defaultValue 'send' */
  reasoning?: 'send' | 'drop';
}

const ToUIMessageStreamOptions = z.object({
  messageId: z.optional(z.string()),
  reasoning: z._default(z.enum(['send', 'drop']), 'send'),
});

/**
 * Events as the chunks of the AI SDK's UI message stream protocol v1 (what `useChat` reads),
 * mapped as the README's table says, with the framing guaranteed whatever the events did.
 *
 * ```
 * source:  -s-t-d-e-(c|)       s = response-start, t/d/e = text-start/-delta/-end, c = completed
 * result:  -(ab)-T-D-E-(FG|)   a = start, b = start-step, T/D/E = text-…, F = finish-step, G = finish
 * ```
 *
 * - `start` and `start-step` come first; a delta whose start was never seen (a stream resumed
 *   with `followLog(…, { after })`) gets its start chunk first, so a resumed client never sees a
 *   delta without its start. A tool input delta without its start is skipped (the tool call
 *   that completes it carries the whole input). A `text-end` carrying the full text adds it
 *   only to a part that started in this stream and streamed no delta (as collectTurn counts
 *   it); for a part begun before a resume point, that text already went out.
 * - Before `finish`, `abort` or `error`, every open text and reasoning part is ended, and a tool
 *   input that never became a tool call ends as `tool-input-error`.
 * - `completed` → `finish-step`, `finish` (usage in `messageMetadata.usage`); `incomplete`
 *   `aborted` → `abort`; another `incomplete` → `finish` with its reason (`other` when the UI
 *   stream has no name for it); `failed` → `error` (`code: message`) then `finish` `error`.
 *   A source that ends without a terminal, or errors, ends the same way as ensureTerminal would.
 *
 * @example
 * ```ts
 * const chunks = streamEvents(response).pipe(toUIMessageChunks({ messageId: 'msg-1' }));
 * ```
 * @param options - {@link ToUIMessageStreamOptions}
 */
export function toUIMessageChunks(
  options: ToUIMessageStreamOptions = {},
): OperatorFunction<StreamEvent, UIMessageChunk> {
  return uiMessageChunks(parseOptions('toUIMessageChunks', ToUIMessageStreamOptions, options));
}

/** {@link toUIMessageChunks} on options already checked (by the entry point the caller called). */
function uiMessageChunks(
  parsed: z.output<typeof ToUIMessageStreamOptions>,
): OperatorFunction<StreamEvent, UIMessageChunk> {
  return createOperator<StreamEvent, UIMessageChunk>(({ subscriber, unsubscribeSource }) => {
    const framer = new UIMessageFramer(parsed);
    const emit: EmitChunk = (chunk) => subscriber.next(chunk);
    const endIfDone = () => {
      if (!framer.isEnded) return;
      unsubscribeSource();
      subscriber.complete();
    };
    return {
      next(event) {
        framer.push(event, emit);
        endIfDone();
      },
      error(error) {
        framer.push(failedFromError(error), emit);
        endIfDone();
      },
      complete() {
        framer.complete(emit);
        subscriber.complete();
      },
    };
  });
}

/**
 * {@link toUIMessageChunks} as a `ReadableStream<UIMessageChunk>`: what the AI SDK's
 * `createUIMessageStreamResponse`, `readUIMessageStream` or a custom `ChatTransport` take.
 * `events$` is subscribed on the first read; cancelling the stream unsubscribes.
 *
 * @example
 * ```ts
 * for await (const message of readUIMessageStream({ stream: toUIMessageStream(events$) })) render(message);
 * ```
 * @param events$ - the events (from `streamEvents`, `followLog`, …)
 * @param options - {@link ToUIMessageStreamOptions}
 */
export function toUIMessageStream(
  events$: Observable<StreamEvent>,
  options: ToUIMessageStreamOptions = {},
): ReadableStream<UIMessageChunk> {
  const parsed = parseOptions('toUIMessageStream', ToUIMessageStreamOptions, options);
  return readableOf(events$.pipe(uiMessageChunks(parsed)));
}

/** The headers of a UI message stream response (those the AI SDK sends). */
export const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  'x-vercel-ai-ui-message-stream': 'v1',
  'x-accel-buffering': 'no',
};

/** Options of {@link toUIMessageStreamResponse}. */
export interface ToUIMessageStreamResponseOptions extends ToUIMessageStreamOptions {
  /** The HTTP status. @defaultValue 200 */
  status?: number;
  /** More headers; they win over the defaults. */
  headers?: HeadersInit;
}

const ToUIMessageStreamResponseOptions = z.extend(ToUIMessageStreamOptions, {
  status: z.optional(z.number()),
  headers: z.optional(z.custom<HeadersInit>()),
});

/**
 * The UI message stream as the `Response` a stock `useChat` (`DefaultChatTransport`) reads:
 * `data: <chunk JSON>` per chunk, `data: [DONE]` last, header
 * `x-vercel-ai-ui-message-stream: v1`.
 *
 * @example
 * ```ts
 * // app/api/chat/route.ts
 * export async function POST(request: Request) {
 *   const upstream = await fetch(providerUrl, providerInit(await request.json()));
 *   return toUIMessageStreamResponse(streamEvents(upstream));
 * }
 * ```
 * @param events$ - the events to send
 * @param options - {@link ToUIMessageStreamResponseOptions}
 */
export function toUIMessageStreamResponse(
  events$: Observable<StreamEvent>,
  options: ToUIMessageStreamResponseOptions = {},
): Response {
  const {
    status = 200,
    headers,
    ...chunkOptions
  } = parseOptions('toUIMessageStreamResponse', ToUIMessageStreamResponseOptions, options);
  const framed = concat(
    events$.pipe(
      uiMessageChunks(chunkOptions),
      map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`),
    ),
    of('data: [DONE]\n\n'),
  );
  const merged = new Headers(UI_MESSAGE_STREAM_HEADERS);
  new Headers(headers).forEach((value, name) => merged.set(name, value));
  return new Response(readableTextOf(framed), { status, headers: merged });
}
