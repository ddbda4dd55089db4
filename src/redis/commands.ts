// The event log's commands on a Redis client: each script sent whole with EVAL, one round trip.

import type { RedisClientLike, StreamKeys } from './options';
import {
  CLAIM,
  APPEND,
  HEARTBEAT,
  RELEASE,
  STATE,
  SET_LATEST,
  TOUCH_LATEST,
  STOP,
  STOP_STATE,
  type Script,
} from './scripts';

/** Runs `s` on `client`; commands on one connection run in the order they were sent. */
function run(client: RedisClientLike, s: Script, keys: string[], args: string[]): Promise<unknown> {
  return client.sendCommand(['EVAL', s.source, String(keys.length), ...keys, ...args]);
}

/** A stream's state, see `STATE` in scripts.ts. */
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
  stop: async (c: RedisClientLike, k: StreamKeys, reason: string, ttlMs: number) =>
    Number(await run(c, STOP, [k.meta, k.stop], [reason, String(ttlMs)])) === 1,
  stopState: async (c: RedisClientLike, k: StreamKeys) => {
    const [stopped, reason, end] = (await run(c, STOP_STATE, [k.meta, k.stop], [])) as unknown[];
    return { stopped: Number(stopped) === 1, reason: String(reason), end: Number(end) };
  },
  state: async (c: RedisClientLike, k: StreamKeys): Promise<StreamState> => {
    const [alive, len, end] = (await run(c, STATE, [k.meta, k.alive], [])) as number[];
    return { alive: Number(alive) as StreamState['alive'], len: Number(len), end: Number(end) };
  },
};
