import type { Subscriber } from 'rxjs';
import { LlmRxError } from '../errors';
import { isTerminal } from '../terminalEvents';
import type { LoggedEvent } from '../relay/log/eventLog';
import type { RedisClientLike, ResolvedRedisEventLogOptions, StreamKeys } from './options';
import { answerDeadlineMs, withDeadline } from './deadline';
import { commands } from './commands';
import { logUnavailable } from './errors';
import { pastTheEnd, unknownStream } from '../relay/log/errors';
import { createReader, wakeReader, type Reader } from './followConnection';
import { parseEntry, producerLost, trimmedError } from './streamEntries';

/** One subscribed read: the last seq it received and where the rest goes. */
export interface Follower {
  readonly streamId: string;
  readonly keys: StreamKeys;
  cursor: number;
  readonly subscriber: Subscriber<LoggedEvent>;
}

interface FollowedStream {
  readonly streamId: string;
  readonly keys: StreamKeys;
  readonly followers: Set<Follower>;
  lastActivityAt: number;
  lastCheckAt: number;
}

/** The reading side of a log, see {@link createFollowHub}. */
export interface FollowHub {
  add(follower: Follower, producerAlive: boolean): void;
  remove(follower: Follower): void;
  /** Ends every follower with `error` and closes the connection. */
  failAll(error: LlmRxError): void;
}

const XREAD_COUNT = '500';

/**
 * Every follower of one log reads through ONE connection of the log's own (a duplicate of the
 * user's client): a single `XREAD BLOCK` over all followed streams, from the lowest cursor of
 * each, woken by `CLIENT UNBLOCK` (sent on the user's client) when a follower joins. The
 * connection opens with the first follower and is destroyed when the last one leaves.
 * Between reads, streams quiet for `heartbeatMs / 2` have their recorder's liveness checked.
 */
export function createFollowHub(options: ResolvedRedisEventLogOptions): FollowHub {
  const { client, heartbeatMs, maxReconnectAttempts, scheduler } = options;
  const blockMs = Math.max(5, Math.floor(heartbeatMs / 2));
  const answerMs = answerDeadlineMs(heartbeatMs);
  const answer = <T>(promise: Promise<T>, what: string, extraMs = 0) =>
    withDeadline(promise, answerMs + extraMs, scheduler, what);
  const streams = new Map<string, FollowedStream>();
  const byEventsKey = new Map<string, FollowedStream>();
  let reader: Reader | undefined;

  const detach = (follower: Follower) => {
    const stream = streams.get(follower.streamId);
    if (!stream?.followers.delete(follower) || stream.followers.size > 0) return;
    streams.delete(stream.streamId);
    byEventsKey.delete(stream.keys.events);
  };
  const stopReader = () => {
    const current = reader;
    reader = undefined;
    if (!current) return;
    current.stopped = true;
    if (current.connected && current.connection.isOpen) current.connection.destroy();
  };
  const endStream = (stream: FollowedStream, error: LlmRxError) => {
    for (const follower of [...stream.followers]) {
      detach(follower);
      follower.subscriber.error(error);
    }
  };
  const failAll = (error: LlmRxError) => {
    stopReader();
    for (const stream of [...streams.values()]) endStream(stream, error);
  };

  /**
   * Hands `entries` (read from after position `start`) to the stream's followers. A follower
   * whose cursor is below `start` joined after that read was sent: the entries are not yet its
   * own (the next read starts from its cursor), so a gap is no trim for it. For the others the
   * entries are contiguous unless `maxLen` trimmed what they still needed.
   */
  const deliver = (stream: FollowedStream, entries: unknown[], start: number) => {
    for (const entry of entries) {
      const logged = parseEntry(entry, stream.streamId);
      for (const follower of [...stream.followers]) {
        if (logged instanceof LlmRxError) {
          detach(follower);
          follower.subscriber.error(logged);
        } else if (follower.cursor < start) {
          continue;
        } else if (logged.seq > follower.cursor + 1) {
          detach(follower);
          follower.subscriber.error(trimmedError(stream.streamId, follower.cursor, logged.seq));
        } else if (logged.seq === follower.cursor + 1) {
          follower.cursor = logged.seq;
          follower.subscriber.next(logged);
          if (isTerminal(logged.event)) {
            detach(follower);
            follower.subscriber.complete();
          }
        } else if (isTerminal(logged.event)) {
          // A follower waiting ahead of the stream: it finished at or below where it waits.
          detach(follower);
          follower.subscriber.error(pastTheEnd(stream.streamId, follower.cursor, logged.seq));
        }
      }
    }
  };
  /** Ends the followers waiting at or past `end`, the terminal's seq of a finished stream. */
  const endWaitingPast = (stream: FollowedStream, end: number) => {
    for (const follower of [...stream.followers]) {
      if (follower.cursor < end) continue;
      detach(follower);
      follower.subscriber.error(pastTheEnd(stream.streamId, follower.cursor, end));
    }
  };
  const lowestCursor = (stream: FollowedStream) =>
    Math.min(...[...stream.followers].map((follower) => follower.cursor));

  const checkLiveness = async (connection: RedisClientLike) => {
    const now = scheduler.now();
    const due = [...streams.values()].filter(
      (stream) => now - Math.max(stream.lastActivityAt, stream.lastCheckAt) >= blockMs,
    );
    await Promise.all(
      due.map(async (stream) => {
        stream.lastCheckAt = now;
        const state = await commands.state(connection, stream.keys);
        if (streams.get(stream.streamId) !== stream) return;
        if (state.end >= 0) return endWaitingPast(stream, state.end);
        if (state.alive === 1) return;
        if (state.alive === -1) return endStream(stream, unknownStream(stream.streamId));
        // The recorder is gone: hand over what it stored before, then say so. A follower that
        // joins during the XRANGE starts lower: read again for it (bounded).
        for (let round = 0; round < 5 && stream.followers.size > 0; round++) {
          const start = lowestCursor(stream);
          const rest = (await connection.sendCommand([
            'XRANGE',
            stream.keys.events,
            `0-${start + 2}`,
            '+',
          ])) as unknown[];
          deliver(stream, rest, start);
          if (stream.followers.size === 0 || lowestCursor(stream) >= start) break;
        }
        endStream(stream, producerLost(stream.streamId));
      }),
    );
  };

  const run = async (current: Reader) => {
    let failures = 0;
    try {
      await answer(current.connection.connect(), 'connecting to Redis to follow');
    } catch (error) {
      current.stopped = true;
      if (current.connection.isOpen) current.connection.destroy(); // stuck mid-handshake
      if (reader === current) failAll(logUnavailable('connecting to Redis to follow', error));
      return;
    }
    current.connected = true;
    if (reader !== current) {
      current.connection.destroy(); // every follower left while it connected
      return;
    }
    while (reader === current && streams.size > 0) {
      try {
        current.clientId ??= String(
          await answer(current.connection.sendCommand(['CLIENT', 'ID']), 'following streams'),
        );
        const followed = [...streams.values()];
        // Where this read starts, per stream: followers may join (lower) while it is in flight.
        const starts = new Map(
          followed.map((stream) => [stream.keys.events, lowestCursor(stream)]),
        );
        const read = current.connection.sendCommand([
          'XREAD',
          'COUNT',
          XREAD_COUNT,
          'BLOCK',
          String(blockMs),
          'STREAMS',
          ...followed.map((stream) => stream.keys.events),
          ...followed.map((stream) => `0-${starts.get(stream.keys.events)! + 1}`),
        ]);
        current.blocked = true;
        current.woken = false;
        const reply = (await answer(read, 'following streams', blockMs)) as
          [string, unknown[]][] | null;
        current.blocked = false;
        failures = 0;
        for (const [key, entries] of reply ?? []) {
          const stream = byEventsKey.get(String(key));
          const start = starts.get(String(key));
          if (!stream || start === undefined) continue;
          stream.lastActivityAt = scheduler.now();
          deliver(stream, entries, start);
        }
        await answer(checkLiveness(current.connection), 'checking recorders');
      } catch (error) {
        current.blocked = false;
        current.clientId = undefined; // a reconnect gets a new id
        if (reader !== current) return;
        // node-redis reconnects with the bounded strategy and queues the next read meanwhile;
        // once it gives up (or a command keeps failing), the followers end.
        if (
          !current.connection.isOpen ||
          ++failures > maxReconnectAttempts ||
          (error as { code?: string }).code === 'log-unavailable' // a deadline passed
        ) {
          failAll(logUnavailable('following streams', error));
          return;
        }
      }
    }
  };

  return {
    add(follower, producerAlive) {
      let stream = streams.get(follower.streamId);
      if (!stream) {
        const now = scheduler.now();
        stream = {
          streamId: follower.streamId,
          keys: follower.keys,
          followers: new Set(),
          lastActivityAt: now,
          lastCheckAt: producerAlive ? now : -Infinity,
        };
        streams.set(stream.streamId, stream);
        byEventsKey.set(stream.keys.events, stream);
      }
      stream.followers.add(follower);
      if (!reader) {
        reader = createReader(client, maxReconnectAttempts);
        void run(reader);
      } else {
        const current = reader;
        wakeReader(client, current, 5, () => reader === current);
      }
    },
    remove(follower) {
      detach(follower);
      if (streams.size === 0) stopReader();
    },
    failAll,
  };
}
