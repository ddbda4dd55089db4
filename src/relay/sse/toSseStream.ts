import type { Observable } from 'rxjs';
import * as z from 'zod/mini';
import type { StreamEvent } from '../../events';
import { parseOptions } from '../../internal/options';
import { readableTextOf } from '../readableOf';
import { sseFrames, SseFramesOptions } from './toSseFrames';

/** Options of {@link toSseStream}: the heartbeat, the first position and the scheduler. */
export type ToSseStreamOptions = SseFramesOptions;

/** Options of {@link toSseResponse}: those of `toSseStream`, plus the response's own. */
export interface ToSseResponseOptions extends ToSseStreamOptions {
  /** The HTTP status. @defaultValue 200 */
  status?: number;
  /** More headers; they win over the defaults. */
  headers?: HeadersInit;
}

const ToSseResponseOptions = z.extend(SseFramesOptions, {
  status: z.optional(z.number()),
  headers: z.optional(z.custom<HeadersInit>()),
});

/** The headers of llm-rx's SSE wire; `x-llm-rx-stream` lets `streamEvents` detect it. */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
  'x-llm-rx-stream': '1',
};

/**
 * Events as the bytes of llm-rx's own SSE wire, for relaying to a browser or another node:
 * `id: <position>` and `data: <event JSON>` per event, a `: ping` comment after `heartbeatMs`
 * without an event, closed after the terminal. Read it back with `streamEvents(response)`.
 *
 * ```
 * events$:  -a 10ms b-(c|)                 (heartbeatMs: 5)
 * body:     -x 4ms p 4ms p y-(z|)          "id: 0\ndata: {…}\n\n", ": ping\n\n", …
 * ```
 *
 * - `events$` is subscribed on the first read of the body; cancelling the body (the client
 *   went away) unsubscribes from it and stops the heartbeat.
 * - An event goes out as soon as a read is waiting; events that come while the reader is busy
 *   are joined into its next chunk (no timer, no added latency).
 * - A source error is sent as one `failed` event; see {@link toSseFrames}.
 *
 * @example
 * ```ts
 * // resume: pair with followLog and the client's Last-Event-ID
 * const after = parseLastEventId(request.headers.get('last-event-id'));
 * return toSseResponse(followLog(log, id, { after }), { startAt: after + 1 });
 * ```
 * @param events$ - the events to relay (they should end with a terminal)
 * @param options - {@link ToSseStreamOptions}
 */
export function toSseStream(
  events$: Observable<StreamEvent>,
  options: ToSseStreamOptions = {},
): ReadableStream<Uint8Array> {
  return readableTextOf(
    events$.pipe(sseFrames(parseOptions('toSseStream', SseFramesOptions, options))),
  );
}

/**
 * {@link toSseStream} wrapped in a `Response` with the headers of llm-rx's wire:
 * `content-type: text/event-stream; charset=utf-8`, `cache-control: no-cache, no-transform`,
 * `x-accel-buffering: no`, `x-llm-rx-stream: 1`. For fetch-style handlers (Hono, Next.js,
 * Bun, Deno, Cloudflare Workers).
 *
 * @example
 * ```ts
 * export const GET = () => toSseResponse(streamEvents(await fetch(providerUrl, init)));
 * ```
 * @param events$ - the events to relay
 * @param options - {@link ToSseResponseOptions}
 */
export function toSseResponse(
  events$: Observable<StreamEvent>,
  options: ToSseResponseOptions = {},
): Response {
  const {
    status = 200,
    headers,
    ...frames
  } = parseOptions('toSseResponse', ToSseResponseOptions, options);
  const merged = new Headers(SSE_HEADERS);
  new Headers(headers).forEach((value, name) => merged.set(name, value));
  return new Response(readableTextOf(events$.pipe(sseFrames(frames))), { status, headers: merged });
}
