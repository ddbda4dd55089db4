import type { SchedulerLike } from 'rxjs';
import * as z from 'zod/mini';
import { durationOption, parseOptions, schedulerOption } from '../internal/options';

/**
 * What `redisEventLog` needs of a client: the shape of a node-redis 5 `createClient()` client
 * (`redis` or `@redis/client`), which it satisfies as is. Declared here so that the core types do
 * not depend on the optional `redis` package.
 */
export interface RedisClientLike {
  /** node-redis' options, read to copy the socket settings into the log's own connections. */
  readonly options?: { readonly socket?: object } | undefined;
  /** Whether the client is open (connecting, connected or reconnecting). */
  readonly isOpen: boolean;
  /** A raw command; replies arrive as node-redis decodes them. */
  sendCommand(args: string[]): Promise<unknown>;
  /** A new client with the same options and `overrides`; the log connects and closes it. */
  duplicate(overrides?: Record<string, unknown>): RedisClientLike;
  /** Connects (the log calls it only on the clients it duplicated). */
  connect(): Promise<unknown>;
  /** Closes the socket at once (the log calls it only on the clients it duplicated). */
  destroy(): void;
  /** node-redis emits `error` on socket trouble; the log listens on its own connections. */
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** Options of {@link redisEventLog}. */
export interface RedisEventLogOptions {
  /**
   * A connected node-redis 5 client. The log sends short commands on it (scripts, `CLIENT
   * UNBLOCK`), never a blocking one, and duplicates it for its own reading connection.
   */
  client: RedisClientLike;
  /** Prefix of every key the log writes. @defaultValue `'llm-rx:'` */
  keyPrefix?: string;
  /** A stream stays (readable, and its id taken) this long after its last write. @defaultValue 3600 */
  ttlSeconds?: number;
  /** Keep at most this many events per stream (`XADD MAXLEN`). @defaultValue no limit */
  maxLen?: number;
  /** How often a recorder refreshes its liveness key. @defaultValue 2000 */
  heartbeatMs?: number;
  /**
   * How many times the log's own connection reconnects (backing off 100 ms, 200 ms, … up to 2 s)
   * before its followers end with `log-unavailable`. @defaultValue 5
   */
  maxReconnectAttempts?: number;
  /** Where the log's timers (heartbeats, write watchdog, claim timeout) run. @defaultValue asyncScheduler */
  scheduler?: SchedulerLike;
}

const clientOption = z.custom<RedisClientLike>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as RedisClientLike).sendCommand === 'function' &&
    typeof (value as RedisClientLike).duplicate === 'function',
  { message: 'expected a node-redis 5 client (createClient() from `redis`)' },
);

const RedisEventLogOptionsSchema = z.object({
  client: clientOption,
  keyPrefix: z._default(z.string(), 'llm-rx:'),
  ttlSeconds: z._default(z.int().check(z.positive()), 3600),
  maxLen: z.optional(z.int().check(z.positive())),
  heartbeatMs: z._default(z.number().check(z.nonnegative(), z.minimum(10)), 2000),
  maxReconnectAttempts: z._default(z.int().check(z.nonnegative()), 5),
  scheduler: schedulerOption,
});

/** The options with their defaults filled in. */
export type ResolvedRedisEventLogOptions = z.output<typeof RedisEventLogOptionsSchema>;

/** Validates the options; bad ones throw `invalid-options` naming each field. */
export function parseRedisEventLogOptions(options: unknown): ResolvedRedisEventLogOptions {
  return parseOptions('redisEventLog', RedisEventLogOptionsSchema, options);
}

/** The keys of one stream; the `{id}` hash tag keeps them in one cluster slot. */
export interface StreamKeys {
  /** The Redis Stream of events (entry id `0-<seq + 1>`, fields `seq`, `event`). */
  readonly events: string;
  /** A hash: `owner` (the recorder's token), `len` (events appended), `end` (terminal seq or -1). */
  readonly meta: string;
  /** The recorder's liveness key, refreshed every `heartbeatMs`. */
  readonly alive: string;
  /** Set (to the reason) by `log.stop`; every node's stop watch reads it. */
  readonly stop: string;
}

/** The keys of `streamId` under `keyPrefix`. */
export function streamKeys(keyPrefix: string, streamId: string): StreamKeys {
  const base = `${keyPrefix}{${streamId}}`;
  return {
    events: `${base}:events`,
    meta: `${base}:meta`,
    alive: `${base}:alive`,
    stop: `${base}:stop`,
  };
}

/** The key of a chat's latest response (its stream id), under `keyPrefix`. */
export function chatKey(keyPrefix: string, chatId: string): string {
  return `${keyPrefix}chat:{${chatId}}:latest`;
}
