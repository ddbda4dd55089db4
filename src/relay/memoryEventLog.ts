import { NEVER, Observable, type SchedulerLike, type Subscriber, type Subscription } from 'rxjs';
import * as z from 'zod/mini';
import { LlmRxError } from '../errors';
import { isTerminal, type StreamEvent } from '../events';
import { durationOption, parseOptions, schedulerOption } from '../internal/options';
import type { EventLog, EventLogWriter, LoggedEvent } from './eventLog';
import { checkResumePosition, unknownStream, streamExists } from './logErrors';

/** Options of {@link memoryEventLog}. */
export interface MemoryEventLogOptions {
  /** How long a finished stream stays readable after its terminal. @defaultValue 3_600_000 (1 h) */
  ttlMs?: number;
  /** Where the TTL timers run. @defaultValue asyncScheduler */
  scheduler?: SchedulerLike;
}

const MemoryEventLogOptions = z.object({
  ttlMs: z._default(durationOption, 3_600_000),
  scheduler: schedulerOption,
});

/** One stream the log holds: its events, whether its terminal came, and who is following it. */
interface StoredStream {
  events: StreamEvent[];
  closed: boolean;
  readers: Set<Reader>;
  expiry?: Subscription;
}

/** A follower's cursor: the next position it is owed, drained in order whatever re-enters. */
interface Reader {
  next: number;
  draining: boolean;
  subscriber: Subscriber<LoggedEvent>;
}

/**
 * The embedded {@link EventLog}: streams kept in this process's memory, for one server process
 * (use `redisEventLog` from `llm-rx/redis` for many). Finished streams stay readable for
 * `ttlMs` after their terminal, then are gone: the memory held is bounded by the streams open
 * now plus those finished within the TTL.
 *
 * ```
 * recorder:  -a-b-c|                          (c a terminal; ttlMs: 5)
 * reader at 2:     (ab)-(c|)                  replayed, then live: nothing lost or twice
 * reader at 20:    failed unknown-stream      (gone since 5 + 5)
 * ```
 *
 * - Appends reach every reader synchronously and in order, each reader through its own
 *   cursor, so a reader subscribed in the same tick as an append sees it exactly once.
 * - `close()` cancels the TTL timers, forgets every stream and errors open readers with
 *   `log-unavailable`. Call it on shutdown: a pending TTL timer keeps a Node process alive.
 *
 * @example
 * ```ts
 * const log = memoryEventLog({ ttlMs: 10 * 60_000 });
 * streamEvents(upstream).pipe(recordTo(log, chatId)).subscribe();
 * const relay = toSseResponse(followLog(log, chatId));
 * ```
 * @param options - {@link MemoryEventLogOptions}
 */
export function memoryEventLog(options: MemoryEventLogOptions = {}): EventLog {
  const { ttlMs, scheduler } = parseOptions('memoryEventLog', MemoryEventLogOptions, options);
  const streams = new Map<string, StoredStream>();

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
    if (stored.closed && reader.next === stored.events.length) reader.subscriber.complete();
  };

  const writerOf = (streamId: string, stored: StoredStream): EventLogWriter => ({
    append(event) {
      if (stored.closed) return;
      stored.events.push(event);
      if (isTerminal(event)) {
        stored.closed = true;
        stored.expiry = scheduler.schedule(() => {
          if (streams.get(streamId) === stored) streams.delete(streamId);
        }, ttlMs);
      }
      for (const reader of [...stored.readers]) drain(stored, reader);
    },
    failures: NEVER,
    release: () => undefined,
  });

  return {
    claim: (streamId) =>
      new Observable<EventLogWriter>((subscriber) => {
        if (streams.has(streamId)) return subscriber.error(streamExists(streamId));
        const stored: StoredStream = { events: [], closed: false, readers: new Set() };
        streams.set(streamId, stored);
        subscriber.next(writerOf(streamId, stored));
        subscriber.complete();
      }),
    read: (streamId, after) =>
      new Observable<LoggedEvent>((subscriber) => {
        const stored = streams.get(streamId);
        if (!stored) return subscriber.error(unknownStream(streamId));
        const invalid = checkResumePosition(streamId, after, stored.events.length);
        if (invalid) return subscriber.error(invalid);
        const reader: Reader = { next: after + 1, draining: false, subscriber };
        stored.readers.add(reader);
        drain(stored, reader);
        return () => stored.readers.delete(reader);
      }),
    close() {
      for (const stored of streams.values()) {
        stored.expiry?.unsubscribe();
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
      return Promise.resolve();
    },
  };
}
