import { defer, from, map, Observable, switchMap, type SchedulerLike } from 'rxjs';
import * as z from 'zod/mini';
import { LlmRxError } from '../../errors';
import { StreamEvent } from '../../events';
import {
  durationOption,
  parseOptions,
  schedulerOption,
  signalOption,
} from '../../internal/options';
import { zodMessages } from '../../internal/zodMessages';
import { excerpt } from '../../source/excerpt';
import { fromSse } from '../../source/fromSse';
import { streamEvents } from '../../streamEvents';
import { resumeWire, type WireEvent } from './resumeWire';

/** Options of {@link resumableEvents}. */
export interface ResumableEventsOptions {
  /**
   * Connections in a row that may fail before any new event arrives; the last one's failure
   * is then the terminal. An event received starts the count again. @defaultValue 5
   */
  maxAttempts?: number;
  /**
   * The wait before each reconnect: a number doubles from there (500 → 500, 1000, 2000 ms);
   * a list gives one delay per reconnect in a row, its last entry repeating. @defaultValue 500
   */
  backoffMs?: number | number[];
  /** Aborting it ends the stream at once with `incomplete` `aborted` (a Stop button). */
  signal?: AbortSignal;
  /** Where the backoff timer runs. @defaultValue asyncScheduler */
  scheduler?: SchedulerLike;
}

const ResumableEventsOptions = z.strictObject({
  maxAttempts: z._default(z.int().check(z.gte(1)), 5),
  backoffMs: z._default(
    z.union([durationOption, z.array(durationOption).check(z.minLength(1))]),
    500,
  ),
  signal: z.optional(signalOption),
  scheduler: schedulerOption,
});

/**
 * Makes the request of one connection: `lastEventId` is the position of the last event
 * received (none on the first connection): send it as the `Last-Event-ID` header. `signal`
 * aborts when the reader stops (unsubscribe or the `signal` option): give it to `fetch`.
 */
export type ResumableRequest = (
  lastEventId: number | undefined,
  signal: AbortSignal,
) => Response | Promise<Response>;

/**
 * One relayed stream (llm-rx's own wire, `toSseResponse` at the server) as one
 * `Observable<StreamEvent>` that survives lost connections: after `stream-closed`,
 * `stream-error` or a failed request (the network), it waits the backoff and asks again with
 * the position of the last event received, so that no event is missed or repeated.
 *
 * ```
 * connection 1:  -a-b-#                     (cut after b: the server sent ids 0, 1)
 * connection 2:          -c-(d|)            requested with lastEventId 1, backoffMs after the cut
 * result:        -a-b-w----c-(d|)           w = warning `retry`; d = the terminal
 * ```
 *
 * - Positions are the wire's SSE ids (a message without one is the next position); events at
 *   or before the last position received (a server that replays) are skipped.
 * - A reconnect goes out as one `warning` `retry` (`detail`: attempt, maxAttempts, delayMs,
 *   lastEventId, the failure) before its backoff: show "reconnecting…" from it.
 * - It ends with the stream's own terminal; with the last failure once `maxAttempts`
 *   connections in a row failed; with a failure that is not a lost connection (an HTTP error
 *   status → `http-error`, an invalid event → `malformed-event`); with `incomplete` `aborted`
 *   when `signal` aborts, at once, the running request aborted too.
 * - Unsubscribing aborts the running request and cancels the backoff timer.
 *
 * @example
 * ```ts
 * const stop = new AbortController();
 * resumableEvents(
 *   (lastEventId, signal) =>
 *     fetch(`/api/turns/${id}/events`, {
 *       headers: lastEventId === undefined ? {} : { 'last-event-id': String(lastEventId) },
 *       signal,
 *     }),
 *   { signal: stop.signal },
 * ).pipe(channel('web')).subscribe(render);
 * ```
 * @param request - makes the `Response` of each connection ({@link ResumableRequest})
 * @param options - {@link ResumableEventsOptions}
 */
export function resumableEvents(
  request: ResumableRequest,
  options: ResumableEventsOptions = {},
): Observable<StreamEvent> {
  const parsed = parseOptions('resumableEvents', ResumableEventsOptions, options);
  if (typeof request !== 'function') {
    throw new LlmRxError(
      'invalid-options',
      'resumableEvents: request must be a function (lastEventId, signal) returning a Response.',
    );
  }
  return new Observable<StreamEvent>((subscriber) => {
    // One controller for every request of this subscription: aborted on stop or unsubscribe.
    // The reader ends first (its listener is added first), then the request is aborted.
    const requests = new AbortController();
    const subscription = resumeWire(
      (lastEventId) => connection(request, lastEventId, requests.signal),
      parsed,
    ).subscribe(subscriber);
    const stop = () => requests.abort(parsed.signal?.reason);
    parsed.signal?.addEventListener('abort', stop, { once: true });
    return () => {
      parsed.signal?.removeEventListener('abort', stop);
      subscription.unsubscribe();
      requests.abort();
    };
  });
}

/** One connection's events with their positions; an error status as the client's own `failed`. */
function connection(
  request: ResumableRequest,
  lastEventId: number | undefined,
  signal: AbortSignal,
): Observable<WireEvent> {
  return defer(() => from(Promise.resolve(request(lastEventId, signal)))).pipe(
    switchMap((response): Observable<WireEvent> => {
      if (!response.ok) {
        return streamEvents(response, { provider: 'llm-rx' }).pipe(
          map((event) => ({ event, id: null })),
        );
      }
      return fromSse(response, { signal }).pipe(
        map((message) => ({ event: eventOf(message.data), id: positionOf(message.id) })),
      );
    }),
  );
}

function eventOf(data: string): StreamEvent {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    json = undefined;
  }
  const parsed = StreamEvent.safeParse(json, zodMessages);
  if (parsed.success) return parsed.data;
  throw new LlmRxError(
    'malformed-event',
    `resumableEvents: a message is not a valid llm-rx event: ${excerpt(data)}`,
    { provider: 'llm-rx' },
  );
}

function positionOf(id: string | undefined): number | undefined {
  if (id === undefined || !/^\d+$/.test(id)) return undefined;
  return Number(id);
}
