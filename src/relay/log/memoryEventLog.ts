import { NEVER, Observable, type SchedulerLike, type Subscriber } from 'rxjs';
import * as z from 'zod/mini';
import { LlmRxError } from '../../errors';
import { type StreamEvent } from '../../events';
import { isTerminal } from '../../terminalEvents';
import { durationOption, parseOptions, schedulerOption } from '../../internal/options';
import type { EventLog, EventLogWriter, LoggedEvent, StreamStatus } from './eventLog';
import { checkResumePosition, pastTheEnd, unknownStream, streamExists } from './errors';
import { stopSignals } from './stopSignals';

/** Options of {@link memoryEventLog}. */
export interface MemoryEventLogOptions {
  /** How long a finished stream stays readable after its terminal. @defaultValue 3_600_000 (1 h) */
  ttlMs?: number;
  /** Whose clock (`now()`) the TTL is read on. @defaultValue asyncScheduler */
  scheduler?: SchedulerLike;
}

const MemoryEventLogOptions = z.object({
  ttlMs: z._default(durationOption, 3_600_000),
  scheduler: schedulerOption,
});

/** One stream the log holds: its events, whether its terminal came, and who is following it. */
interface StoredStream {
  readonly streamId: string;
  readonly chatId: string | undefined;
  events: StreamEvent[];
  closed: boolean;
  readers: Set<Reader>;
  /** When a finished stream is forgotten (`scheduler.now()` time). */
  expiresAt?: number;
}

/** A follower's cursor: the next position it is owed, drained in order whatever re-enters. */
interface Reader {
  readonly after: number;
  next: number;
  draining: boolean;
  subscriber: Subscriber<LoggedEvent>;
}

/**
 * The embedded {@link EventLog}: streams kept in this process's memory, for one server process
 * (use `redisEventLog` from `llm-rx/redis` for many). Finished streams stay readable for
 * `ttlMs` after their terminal, then are gone.
 *
 * ```
 * recorder:  -a-b-c|                          (c a terminal; ttlMs: 5)
 * reader at 2:     (ab)-(c|)                  replayed, then live: nothing lost or twice
 * reader at 20:    failed unknown-stream      (gone since 5 + 5)
 * ```
 *
 * - Appends reach every reader synchronously and in order, each reader through its own
 *   cursor, so a reader subscribed in the same tick as an append sees it exactly once.
 * - A reader whose `after` is ahead of an open stream waits for the events past it; when the
 *   stream finishes at or below its `after`, it errors `invalid-last-event-id`.
 * - No timer: TTLs are checked against `scheduler.now()` on every call of the log (claim,
 *   read, append, latest, status), which forgets what expired, oldest first. The log never
 *   holds a Node process open, and the memory held is the streams open now plus those finished
 *   within the TTL (as of the last call).
 * - `stop(id)` aborts `stopSignal(id)` at once (synchronously); `recordTo` ends the stream
 *   `incomplete` `aborted`. A stop of a finished or unknown stream does nothing.
 * - `close()` forgets every stream and errors open readers with `log-unavailable`.
 *
 * @example
 * ```ts
 * const log = memoryEventLog({ ttlMs: 10 * 60_000 });
 * streamEvents(upstream).pipe(recordTo(log, responseId, { chatId })).subscribe();
 * const relay = toSseResponse(followLog(log, responseId));
 * ```
 * @param options - {@link MemoryEventLogOptions}
 */
export function memoryEventLog(options: MemoryEventLogOptions = {}): EventLog {
  const { ttlMs, scheduler } = parseOptions('memoryEventLog', MemoryEventLogOptions, options);
  const streams = new Map<string, StoredStream>();
  /** Finished streams in the order they finished, which is the order they expire in. */
  const finished = new Map<string, StoredStream>();
  /** chat id → the stream id of its latest response. */
  const chats = new Map<string, string>();
  const stops = stopSignals();

  const forgetExpired = () => {
    const now = scheduler.now();
    for (const stored of finished.values()) {
      if ((stored.expiresAt ?? Infinity) > now) break;
      finished.delete(stored.streamId);
      if (streams.get(stored.streamId) === stored) streams.delete(stored.streamId);
      if (stored.chatId !== undefined && chats.get(stored.chatId) === stored.streamId) {
        chats.delete(stored.chatId);
      }
    }
  };
  const held = (streamId: string) => {
    forgetExpired();
    return streams.get(streamId);
  };

  const drain = (stored: StoredStream, reader: Reader) => {
    // A reader that appends from its own next() re-enters here: the outer loop delivers it.
    if (reader.draining) return;
    reader.draining = true;
    try {
      while (reader.next < stored.events.length && !reader.subscriber.closed) {
        const seq = reader.next++;
        reader.subscriber.next({ seq, event: stored.events[seq] });
      }
    } finally {
      reader.draining = false;
    }
    if (!stored.closed || reader.subscriber.closed) return;
    const end = stored.events.length - 1;
    // A reader that waited ahead of the stream, which finished at or below its position.
    if (reader.after >= end)
      reader.subscriber.error(pastTheEnd(stored.streamId, reader.after, end));
    else reader.subscriber.complete();
  };

  const writerOf = (stored: StoredStream): EventLogWriter => ({
    append(event) {
      forgetExpired();
      if (stored.closed) return;
      stored.events.push(event);
      if (isTerminal(event)) {
        stored.closed = true;
        stops.forget(stored.streamId); // a stop after the terminal changes nothing
        stored.expiresAt = scheduler.now() + ttlMs;
        finished.set(stored.streamId, stored);
      }
      for (const reader of [...stored.readers]) drain(stored, reader);
    },
    failures: NEVER,
    release: () => undefined,
  });

  return {
    claim: (streamId, claimOptions) =>
      new Observable<EventLogWriter>((subscriber) => {
        if (held(streamId)) return subscriber.error(streamExists(streamId));
        const chatId = claimOptions?.chatId;
        const stored: StoredStream = {
          streamId,
          chatId,
          events: [],
          closed: false,
          readers: new Set(),
        };
        streams.set(streamId, stored);
        if (chatId !== undefined) chats.set(chatId, streamId);
        subscriber.next(writerOf(stored));
        subscriber.complete();
      }),
    read: (streamId, after) =>
      new Observable<LoggedEvent>((subscriber) => {
        const stored = held(streamId);
        if (!stored) return subscriber.error(unknownStream(streamId));
        const end = stored.closed ? stored.events.length - 1 : undefined;
        const invalid = checkResumePosition(streamId, after, end);
        if (invalid) return subscriber.error(invalid);
        const reader: Reader = { after, next: after + 1, draining: false, subscriber };
        stored.readers.add(reader);
        drain(stored, reader);
        return () => stored.readers.delete(reader);
      }),
    latest(chatId) {
      forgetExpired();
      const streamId = chats.get(chatId);
      return Promise.resolve(
        streamId !== undefined && streams.has(streamId) ? streamId : undefined,
      );
    },
    status(streamId) {
      const stored = held(streamId);
      const status: StreamStatus = !stored ? 'unknown' : stored.closed ? 'finished' : 'open';
      return Promise.resolve(status);
    },
    stop(streamId, reason) {
      const stored = held(streamId);
      // An open stream, or one whose producer already holds its signal (it may claim next).
      if (stored ? !stored.closed : stops.has(streamId)) stops.abort(streamId, reason);
      return Promise.resolve();
    },
    stopSignal: (streamId) => stops.signal(streamId),
    close() {
      stops.clear();
      for (const stored of streams.values()) {
        for (const reader of stored.readers) {
          reader.subscriber.error(
            new LlmRxError(
              'log-unavailable',
              'The event log was closed while this stream was read.',
            ),
          );
        }
      }
      streams.clear();
      finished.clear();
      chats.clear();
      return Promise.resolve();
    },
  };
}
