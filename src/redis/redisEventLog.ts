import { defer, Observable, throwError } from 'rxjs';
import { LlmRxError } from '../errors';
import type { EventLog, EventLogWriter, LoggedEvent, StreamStatus } from '../relay/log/eventLog';
import { checkResumePosition, unknownStream } from '../relay/log/errors';
import { createFollowHub, type Follower } from './followHub';
import {
  chatKey,
  parseRedisEventLogOptions,
  streamKeys,
  type RedisEventLogOptions,
} from './options';
import { answerDeadlineMs, withDeadline } from './deadline';
import { commands } from './commands';
import { logUnavailable } from './errors';
import { claimStream } from './writer';
import { stopSignals } from '../relay/log/stopSignals';
import { createStopWatch } from './stopWatch';
import { createHeartbeatLane } from './heartbeatLane';

/**
 * An {@link EventLog} in Redis, for gateways on many nodes: any node can
 * replay and follow a stream another node records. A drop-in for `memoryEventLog`.
 *
 * ```
 * node A  recordTo(log, id):  e0 e1 e2 ──────────── completed
 * Redis   stream {id}:events  0-1 0-2 0-3 …          (XADD per event, TTL refreshed per write)
 * node B  followLog(log, id, { after: 0 }):  e1 e2 ─ completed    (replay, then live)
 * node A dies (SIGKILL) ──────────────────  followers: … ─ failed producer-lost (≤ 3 × heartbeatMs)
 * ```
 *
 * - Keys per stream id (prefix `keyPrefix`, `{id}` a cluster hash tag): `…:events` a Redis
 *   Stream (entry `0-<seq + 1>`, fields `seq` and `event`), `…:meta` (owner, length, end), `…:alive`
 *   (the recorder's liveness key). Every write refreshes the TTL (`ttlSeconds`); `maxLen` trims.
 * - `claim` is one Lua script: of two recorders racing on one id exactly one wins; the other gets
 *   `stream-exists`, also while a finished stream is kept (positions never restart). With a
 *   `chatId`, the winner then sets `…chat:{chatId}:latest` to its stream id (a key of its own:
 *   another cluster slot), refreshed by the terminal; `latest` reads it and checks the stream.
 * - A follower may join at any time and from any position: ahead of an open stream it waits;
 *   at or past a finished stream's terminal it errors `invalid-last-event-id`.
 * - The recorder refreshes its liveness key every `heartbeatMs` (it lives 1.5 ×), and every
 *   append refreshes it too (a heartbeat queued behind a burst of appends is no death); a follower
 *   whose stream goes quiet checks it every `heartbeatMs / 2`, and when it lapsed delivers every
 *   stored event, then errors `producer-lost` (retryable): within 2 × `heartbeatMs` plus a round trip.
 * - Followers of one log share ONE connection the log opens (`client.duplicate()`, RESP2, a
 *   bounded backed-off reconnect): one `XREAD BLOCK` over every followed stream, woken with
 *   `CLIENT UNBLOCK` when a follower joins. It closes when the last follower unsubscribes. The
 *   user's `client` only carries short commands (scripts, `CLIENT UNBLOCK`), never a blocking one.
 * - `stop(id)` sets the key `…:stop` (unless the stream finished); every node that holds a
 *   `stopSignal(id)` reads it every 200 ms (`STOP_POLL_MS`) and aborts the signal, so a stop on
 *   any node reaches the recorder within 500 ms; the calling node's own signal aborts at once.
 * - Redis lost: followers error `log-unavailable` (retryable) once the log's connection gave up
 *   reconnecting (`maxReconnectAttempts`); a recorder's `failures` emits it when a write fails or
 *   is not answered within max(5 s, 3 × `heartbeatMs`). No unhandled rejection, no endless reconnecting.
 *
 * What it needs of `client`: a node-redis 5 client (`createClient()` from `redis`), connected,
 * with an `error` listener (node-redis requires one), allowed to run `EVALSHA`/`EVAL`, `XREAD`,
 * `XRANGE`, `CLIENT ID` and `CLIENT UNBLOCK`. Give it a bounded `reconnectStrategy` (or
 * `disableOfflineQueue: true`) so that writes fail rather than wait while Redis is away; the log
 * also gives up on a command after max(5 s, 3 × `heartbeatMs`). The log never closes `client`.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { redisEventLog } from 'llm-rx/redis';
 * const client = await createClient({ url: process.env.REDIS_URL }).on('error', console.error).connect();
 * const log = redisEventLog({ client });
 * events$.pipe(recordTo(log, responseId, { chatId })).subscribe(onFailed); // the node that calls the model
 * const id = await log.latest(chatId);                                       // any node, after a reload
 * toSseResponse(followLog(log, responseId, { after }), { startAt: after + 1 }); // any node
 * ```
 * @param options.client A connected node-redis 5 client.
 * @param options.keyPrefix Prefix of every key. @defaultValue `'llm-rx:'`
 * @param options.ttlSeconds Streams stay this long after their last write. @defaultValue 3600
 * @param options.maxLen Keep at most this many events per stream. @defaultValue no limit
 * @param options.heartbeatMs Liveness refresh period of a recorder. @defaultValue 2000
 * @param options.maxReconnectAttempts Reconnects of the log's own connection. @defaultValue 5
 * @param options.scheduler Where the log's timers run. @defaultValue asyncScheduler
 */
export function redisEventLog(options: RedisEventLogOptions): EventLog {
  const resolved = parseRedisEventLogOptions(options);
  const { client, keyPrefix } = resolved;
  const ttlMs = resolved.ttlSeconds * 1000;
  const writers = new Set<EventLogWriter>();
  const hub = createFollowHub(resolved);
  const heartbeats = createHeartbeatLane(client, resolved.maxReconnectAttempts);
  const stops = stopSignals();
  const stopWatch = createStopWatch(resolved, stops);
  let closed = false;
  const closedError = () =>
    new LlmRxError('log-unavailable', 'redisEventLog: the log was closed; open a new one', {
      retryable: true,
    });

  const ask = <T>(promise: () => Promise<T>, what: string): Promise<T> =>
    closed
      ? Promise.reject(closedError())
      : withDeadline(
          promise(),
          answerDeadlineMs(resolved.heartbeatMs),
          resolved.scheduler,
          what,
        ).catch((error: unknown) => Promise.reject(logUnavailable(what, error)));
  const status = async (streamId: string): Promise<StreamStatus> => {
    const state = await ask(
      () => commands.state(client, streamKeys(keyPrefix, streamId)),
      'reading a stream status',
    );
    return state.alive === -1 ? 'unknown' : state.end >= 0 ? 'finished' : 'open';
  };

  return {
    claim(streamId, claimOptions): Observable<EventLogWriter> {
      return defer(() =>
        closed
          ? throwError(closedError)
          : claimStream({ options: resolved, writers, heartbeats }, streamId, claimOptions?.chatId),
      );
    },

    status,

    async latest(chatId) {
      const streamId = await ask(
        () => commands.latest(client, chatKey(keyPrefix, chatId)),
        "reading a chat's latest response",
      );
      if (streamId === undefined) return undefined;
      return (await status(streamId)) === 'unknown' ? undefined : streamId;
    },

    read(streamId: string, after: number): Observable<LoggedEvent> {
      return new Observable<LoggedEvent>((subscriber) => {
        if (closed) {
          subscriber.error(closedError());
          return;
        }
        const invalid = checkResumePosition(streamId, after, undefined);
        if (invalid) {
          subscriber.error(invalid);
          return;
        }
        const keys = streamKeys(keyPrefix, streamId);
        let follower: Follower | undefined;
        let active = true;
        const { heartbeatMs, scheduler } = resolved;
        withDeadline(
          commands.state(client, keys),
          answerDeadlineMs(heartbeatMs),
          scheduler,
          'reading a stream',
        ).then(
          (state) => {
            if (!active) return;
            // Ahead of an open stream is fine (the follower waits); at or past a terminal is not.
            const end = state.end >= 0 ? state.end : undefined;
            const pastTheEnd = checkResumePosition(streamId, after, end);
            if (state.alive === -1) subscriber.error(unknownStream(streamId));
            else if (pastTheEnd) subscriber.error(pastTheEnd);
            else {
              follower = { streamId, keys, cursor: after, subscriber };
              hub.add(follower, state.alive === 1);
            }
          },
          (error: unknown) => active && subscriber.error(logUnavailable('reading a stream', error)),
        );
        return () => {
          active = false;
          if (follower) hub.remove(follower);
        };
      });
    },

    async stop(streamId, reason) {
      const stopped = await ask(
        () => commands.stop(client, streamKeys(keyPrefix, streamId), reason ?? '', ttlMs),
        'stopping a stream',
      );
      // This node's own signal aborts at once; the other nodes' watches see the key.
      if (stopped && stops.has(streamId)) stops.abort(streamId, reason);
    },

    stopSignal(streamId) {
      const signal = stops.signal(streamId);
      if (!closed) stopWatch.start();
      return signal;
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      stopWatch.close();
      stops.clear();
      heartbeats.close();
      for (const writer of [...writers]) writer.release();
      hub.failAll(closedError());
    },
  };
}
