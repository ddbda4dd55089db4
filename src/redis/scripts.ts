import { firstValueFrom, from, throwError, timeout, type SchedulerLike } from 'rxjs';
import { LlmRxError, isLlmRxError } from '../errors';
import type { RedisClientLike, StreamKeys } from './options';

/**
 * A Lua script, always sent whole with EVAL (Redis caches it compiled). Not EVALSHA with a
 * NOSCRIPT fallback: the retried append would land after later ones, out of order.
 */
interface Script {
  readonly source: string;
}

function script(source: string): Script {
  return { source };
}

/**
 * Claims a stream id: fails (0) when its meta hash exists (open, or finished within its TTL), so
 * two racing claims cannot both win. KEYS: meta, alive, events. ARGV: token, ttlMs, livenessMs.
 */
const CLAIM = script(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('DEL', KEYS[3])
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'len', 0, 'end', -1)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[3])
return 1`);

/**
 * Appends one event as entry `0-<seq + 1>` and refreshes the TTLs; 0 when the caller no longer
 * owns the stream. An append is a sign of life too: it refreshes the liveness key it holds, so a
 * recorder whose heartbeat waits behind a burst of its own appends never looks dead. KEYS: meta,
 * events, alive. ARGV: token, seq, event JSON, ttlMs, maxLen (0: none), terminal (1/0), livenessMs.
 */
const APPEND = script(`
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return 0 end
local seq = tonumber(ARGV[2])
local id = '0-' .. (seq + 1)
if tonumber(ARGV[5]) > 0 then
  redis.call('XADD', KEYS[2], 'MAXLEN', ARGV[5], id, 'seq', ARGV[2], 'event', ARGV[3])
else
  redis.call('XADD', KEYS[2], id, 'seq', ARGV[2], 'event', ARGV[3])
end
redis.call('HSET', KEYS[1], 'len', seq + 1)
if ARGV[6] == '1' then redis.call('HSET', KEYS[1], 'end', seq) end
redis.call('PEXPIRE', KEYS[2], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
if ARGV[6] ~= '1' and redis.call('GET', KEYS[3]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[3], ARGV[7])
end
return 1`);

/** Refreshes the liveness key while the caller owns it (0 when it lapsed). KEYS: alive. ARGV: token, livenessMs. */
const HEARTBEAT = script(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`);

/** Deletes the liveness key if the caller owns it. KEYS: alive. ARGV: token. */
const RELEASE = script(`
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`);

/**
 * A stream's state as integers (the same reply in RESP2 and RESP3): `{alive, len, end}` where
 * alive is -1 when the log holds no such stream, 0 when its recorder's liveness key lapsed, 1
 * while it is refreshed; `end` is the terminal's seq or -1. KEYS: meta, alive.
 */
const STATE = script(`
local m = redis.call('HMGET', KEYS[1], 'len', 'end')
if not m[1] then return {-1, 0, -1} end
return {redis.call('EXISTS', KEYS[2]), tonumber(m[1]), tonumber(m[2])}`);

/**
 * Makes a stream the chat's latest response, for as long as the stream lives. A key of its own
 * (another cluster slot than the stream's), so not part of CLAIM. KEYS: chat. ARGV: stream id, ttlMs.
 */
const SET_LATEST = script(`
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`);

/** Refreshes the chat key's TTL while it still names this stream. KEYS: chat. ARGV: stream id, ttlMs. */
const TOUCH_LATEST = script(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`);

/** Runs `s` on `client`; commands on one connection run in the order they were sent. */
function run(client: RedisClientLike, s: Script, keys: string[], args: string[]): Promise<unknown> {
  return client.sendCommand(['EVAL', s.source, String(keys.length), ...keys, ...args]);
}

/** A stream's state, see {@link STATE}. */
export interface StreamState {
  /** -1: no such stream; 0: the recorder's liveness lapsed; 1: the recorder is alive. */
  readonly alive: -1 | 0 | 1;
  /** How many events were appended. */
  readonly len: number;
  /** The terminal's seq, or -1 while the stream is open. */
  readonly end: number;
}

/** The commands of the log, each one round trip. */
export const commands = {
  claim: async (c: RedisClientLike, k: StreamKeys, token: string, ttlMs: number, liveMs: number) =>
    Number(
      await run(c, CLAIM, [k.meta, k.alive, k.events], [token, String(ttlMs), String(liveMs)]),
    ) === 1,
  append: async (
    c: RedisClientLike,
    k: StreamKeys,
    token: string,
    seq: number,
    json: string,
    ttlMs: number,
    maxLen: number,
    terminal: boolean,
    liveMs: number,
  ) =>
    Number(
      await run(
        c,
        APPEND,
        [k.meta, k.events, k.alive],
        [
          token,
          String(seq),
          json,
          String(ttlMs),
          String(maxLen),
          terminal ? '1' : '0',
          String(liveMs),
        ],
      ),
    ) === 1,
  heartbeat: async (c: RedisClientLike, k: StreamKeys, token: string, liveMs: number) =>
    Number(await run(c, HEARTBEAT, [k.alive], [token, String(liveMs)])) === 1,
  release: (c: RedisClientLike, k: StreamKeys, token: string) =>
    run(c, RELEASE, [k.alive], [token]),
  setLatest: (c: RedisClientLike, chat: string, streamId: string, ttlMs: number) =>
    run(c, SET_LATEST, [chat], [streamId, String(ttlMs)]),
  touchLatest: (c: RedisClientLike, chat: string, streamId: string, ttlMs: number) =>
    run(c, TOUCH_LATEST, [chat], [streamId, String(ttlMs)]),
  latest: async (c: RedisClientLike, chat: string) => {
    const streamId = await c.sendCommand(['GET', chat]);
    return streamId === null || streamId === undefined ? undefined : String(streamId);
  },
  state: async (c: RedisClientLike, k: StreamKeys): Promise<StreamState> => {
    const [alive, len, end] = (await run(c, STATE, [k.meta, k.alive], [])) as number[];
    return { alive: Number(alive) as StreamState['alive'], len: Number(len), end: Number(end) };
  },
};

/** `error` as a retryable `log-unavailable`, naming what failed (an LlmRxError passes as is). */
export function logUnavailable(what: string, error: unknown): LlmRxError {
  if (isLlmRxError(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new LlmRxError(
    'log-unavailable',
    `redisEventLog: ${what} failed (${reason}); check that Redis is reachable, then retry`,
    { retryable: true, cause: error },
  );
}

/**
 * `promise`, or a `log-unavailable` rejection when it has not settled after `ms` on `scheduler`:
 * a client that queues commands while it reconnects (or a connect stuck mid-handshake) would
 * otherwise leave a read or a claim waiting forever.
 */
export function withDeadline<T>(
  promise: Promise<T>,
  ms: number,
  scheduler: SchedulerLike,
  what: string,
): Promise<T> {
  return firstValueFrom(
    from(promise).pipe(
      timeout({
        first: ms,
        scheduler,
        with: () => throwError(() => logUnavailable(what, `no answer from Redis within ${ms}ms`)),
      }),
    ),
  );
}

/** How long the log waits for an answer Redis owes it (beyond a block timeout). */
export const answerDeadlineMs = (heartbeatMs: number) => Math.max(5000, heartbeatMs * 3);
