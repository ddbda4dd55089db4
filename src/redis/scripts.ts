// The Lua scripts of the Redis event log: each runs atomically on the server, one round trip.

/**
 * A Lua script, always sent whole with EVAL (Redis caches it compiled). Not EVALSHA with a
 * NOSCRIPT fallback: the retried append would land after later ones, out of order.
 */
export interface Script {
  readonly source: string;
}

function script(source: string): Script {
  return { source };
}

/**
 * Claims a stream id: fails (0) when its meta hash exists (open, or finished within its TTL), so
 * two racing claims cannot both win. KEYS: meta, alive, events. ARGV: token, ttlMs, livenessMs.
 */
export const CLAIM = script(`
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
export const APPEND = script(`
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
export const HEARTBEAT = script(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`);

/** Deletes the liveness key if the caller owns it. KEYS: alive. ARGV: token. */
export const RELEASE = script(`
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`);

/**
 * A stream's state as integers (the same reply in RESP2 and RESP3): `{alive, len, end}` where
 * alive is -1 when the log holds no such stream, 0 when its recorder's liveness key lapsed, 1
 * while it is refreshed; `end` is the terminal's seq or -1. KEYS: meta, alive.
 */
export const STATE = script(`
local m = redis.call('HMGET', KEYS[1], 'len', 'end')
if not m[1] then return {-1, 0, -1} end
return {redis.call('EXISTS', KEYS[2]), tonumber(m[1]), tonumber(m[2])}`);

/**
 * Makes a stream the chat's latest response, for as long as the stream lives. A key of its own
 * (another cluster slot than the stream's), so not part of CLAIM. KEYS: chat. ARGV: stream id, ttlMs.
 */
export const SET_LATEST = script(`
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`);

/** Refreshes the chat key's TTL while it still names this stream. KEYS: chat. ARGV: stream id, ttlMs. */
export const TOUCH_LATEST = script(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`);

/**
 * Records a stop of a stream that has not finished (0 when it has: a stop after the terminal
 * changes nothing). KEYS: meta, stop. ARGV: reason, ttlMs.
 */
export const STOP = script(`
local e = redis.call('HGET', KEYS[1], 'end')
if e and tonumber(e) >= 0 then return 0 end
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
return 1`);

/**
 * What a node watching for stops needs: `{stopped (1/0), reason, end}`, where end is the
 * terminal's seq, -1 while open, -2 when the log holds no such stream. KEYS: meta, stop.
 */
export const STOP_STATE = script(`
local r = redis.call('GET', KEYS[2])
local e = redis.call('HGET', KEYS[1], 'end')
local ended = -2
if e then ended = tonumber(e) end
if r then return {1, r, ended} end
return {0, '', ended}`);
