import { randomUUID } from 'node:crypto';
import { defer, Observable, ReplaySubject, throwError, timeout, type Subscription } from 'rxjs';
import { LlmRxError } from '../errors';
import { streamExists } from '../relay/log/errors';
import { type StreamEvent } from '../events';
import { isTerminal } from '../terminalEvents';
import type { EventLogWriter } from '../relay/log/eventLog';
import { chatKey, streamKeys, type ResolvedRedisEventLogOptions } from './options';
import { answerDeadlineMs } from './deadline';
import { commands } from './commands';
import { logUnavailable } from './errors';
import type { HeartbeatLane } from './heartbeatLane';

/** What the writers of one log share: its options and the set of writers not yet released. */
export interface WriterHost {
  readonly options: ResolvedRedisEventLogOptions;
  readonly writers: Set<EventLogWriter>;
  /** The connection the liveness refreshes go on, apart from the appends. */
  readonly heartbeats: HeartbeatLane;
}

/** How long the liveness key lives past its last refresh, in heartbeats. */
export const LIVENESS_HEARTBEATS = 1.5;

/**
 * Claims `streamId` (one Lua script: exactly one of two racing claims wins) and emits its writer;
 * with `chatId`, the won stream is made the chat's latest response before the writer is emitted.
 * A claim Redis does not answer within max(5 s, 3 × `heartbeatMs`) errors with `log-unavailable`.
 */
export function claimStream(
  host: WriterHost,
  streamId: string,
  chatId?: string,
): Observable<EventLogWriter> {
  const { client, heartbeatMs, ttlSeconds, scheduler } = host.options;
  const keys = streamKeys(host.options.keyPrefix, streamId);
  const token = randomUUID();
  const livenessMs = Math.ceil(heartbeatMs * LIVENESS_HEARTBEATS);
  return new Observable<EventLogWriter>((subscriber) => {
    const chat = chatId === undefined ? undefined : chatKey(host.options.keyPrefix, chatId);
    const claimed = defer(async () => {
      const won = await commands.claim(client, keys, token, ttlSeconds * 1000, livenessMs);
      if (won && chat) await commands.setLatest(client, chat, streamId, ttlSeconds * 1000);
      return won;
    }).pipe(
      timeout({
        first: answerDeadlineMs(heartbeatMs),
        scheduler,
        with: () => throwError(() => logUnavailable('claiming a stream', 'no answer from Redis')),
      }),
    );
    return claimed.subscribe({
      next: (won) => {
        if (!won) {
          subscriber.error(streamExists(streamId));
          return;
        }
        const writer = createWriter(host, keys, token, streamId, chat);
        host.writers.add(writer);
        subscriber.next(writer);
        subscriber.complete();
      },
      error: (error) => subscriber.error(logUnavailable('claiming a stream', error)),
    });
  });
}

function createWriter(
  host: WriterHost,
  keys: ReturnType<typeof streamKeys>,
  token: string,
  streamId: string,
  chat: string | undefined,
): EventLogWriter {
  const { client, heartbeatMs, ttlSeconds, maxLen, scheduler } = host.options;
  const livenessMs = Math.ceil(heartbeatMs * LIVENESS_HEARTBEATS);
  const failures = new ReplaySubject<Error>(1);
  let nextSeq = 0;
  let finished = false;
  let released = false;
  let failed = false;
  // Commands on one connection settle in order: a count and the time of the last progress tell
  // whether Redis stopped answering (a client that queues offline would otherwise wait forever).
  let inFlight = 0;
  let progressAt = scheduler.now();
  let heartbeat: Subscription | undefined;
  host.heartbeats.acquire();
  let laneHeld = true;
  const leaveLane = () => {
    if (!laneHeld) return;
    laneHeld = false;
    host.heartbeats.release();
  };

  const fail = (error: Error) => {
    if (failed) return;
    failed = true;
    heartbeat?.unsubscribe();
    leaveLane();
    failures.next(error);
    failures.complete();
  };
  const send = (what: string, command: Promise<boolean>, lostMessage: string) => {
    if (inFlight++ === 0) progressAt = scheduler.now();
    command.then(
      (ok) => {
        inFlight--;
        progressAt = scheduler.now();
        if (!ok) fail(new LlmRxError('log-unavailable', lostMessage, { retryable: true }));
      },
      (error: unknown) => {
        inFlight--;
        fail(logUnavailable(what, error));
      },
    );
  };
  const beat = () => {
    // The heartbeats have a connection of their own: they must not outlive the one the appends
    // go on (a destroyed client is a recorder that can no longer write, however alive it looks).
    if (!client.isOpen) {
      fail(logUnavailable('writing to the stream', 'the Redis client was closed'));
      return;
    }
    const deadlineMs = answerDeadlineMs(heartbeatMs);
    if (inFlight > 0 && scheduler.now() - progressAt > deadlineMs) {
      fail(logUnavailable('writing to the stream', `no answer from Redis for ${deadlineMs}ms`));
      return;
    }
    send(
      'refreshing the liveness key',
      host.heartbeats.run((lane) => commands.heartbeat(lane, keys, token, livenessMs)),
      `redisEventLog: the liveness key of "${streamId}" lapsed (no append or heartbeat reached Redis for over ${livenessMs}ms: this process or its Redis connection was too busy), so its followers were told producer-lost; record again under a new id`,
    );
  };
  heartbeat = scheduler.schedule(function tick() {
    beat();
    if (!failed) this.schedule(undefined, heartbeatMs);
  }, heartbeatMs);

  const writer: EventLogWriter = {
    failures: failures.asObservable(),
    append(event: StreamEvent): void {
      // As in memoryEventLog: nothing is appended after the terminal, or after a failure.
      if (finished || failed) return;
      const seq = nextSeq++;
      const terminal = isTerminal(event);
      if (terminal) {
        finished = true;
        heartbeat?.unsubscribe();
        leaveLane();
      }
      send(
        'appending an event',
        commands.append(
          client,
          keys,
          token,
          seq,
          JSON.stringify(event),
          ttlSeconds * 1000,
          maxLen ?? 0,
          terminal,
          livenessMs,
        ),
        `redisEventLog: the stream "${streamId}" is no longer held by this recorder (it expired or was deleted); record again under a new id`,
      );
      // The chat keeps naming this response for as long as the finished stream is readable.
      if (terminal && chat) {
        commands.touchLatest(client, chat, streamId, ttlSeconds * 1000).catch(() => undefined);
      }
    },
    release(): void {
      if (released) return;
      released = true;
      heartbeat?.unsubscribe();
      leaveLane();
      host.writers.delete(writer);
      // Followers learn at once that nobody writes any more (the terminal, if any, is already queued before this).
      if (!failed) commands.release(client, keys, token).catch(() => undefined);
      if (!failed) failures.complete();
    },
  };
  return writer;
}
