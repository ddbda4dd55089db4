import * as z from 'zod/mini';
import type { DeliveryLedger, LedgerEntry } from '../delivery/ledger';
import { LlmRxError } from '../errors';
import { parseOptions } from '../internal/options';
import type { RedisClientLike } from './options';

/** Options of {@link redisLedger}. */
export interface RedisLedgerOptions {
  /** A connected node-redis 5 client; the ledger sends short commands on it, never closes it. */
  client: RedisClientLike;
  /** Prefix of every key the ledger writes. @defaultValue `'llm-rx:'` */
  keyPrefix?: string;
  /** A reply's entries stay this long after its last write. @defaultValue 3600 */
  ttlSeconds?: number;
}

const RedisLedgerOptionsSchema = z.object({
  client: z.custom<RedisClientLike>(
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      typeof (value as RedisClientLike).sendCommand === 'function',
    { message: 'expected a node-redis 5 client (createClient() from `redis`)' },
  ),
  keyPrefix: z._default(z.string(), 'llm-rx:'),
  ttlSeconds: z._default(z.int().check(z.positive()), 3600),
});

const StoredEntry = z.object({
  message: z.int().check(z.nonnegative()),
  ref: z.unknown(),
  text: z.string(),
  finished: z.boolean(),
});

// One entry replaced and the TTL refreshed in one step. KEYS: the hash. ARGV: field, JSON, ttl.
const WRITE = `redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1`;

/**
 * A {@link DeliveryLedger} in Redis, so that a reply survives its process: run the same pipeline
 * in a new process with the same `key` and `deliver` goes on where the dead one stopped.
 *
 * - One hash per reply, `<keyPrefix>{<key>}:ledger` (the same `{key}` hash tag as the
 *   `redisEventLog` stream of that id: one cluster slot), one field per message holding its
 *   entry as JSON. Each write replaces one field and refreshes the TTL (`ttlSeconds`) in one
 *   `EVAL`.
 * - A write that fails rejects (deliver reports `ledger-write-failed` and goes on); a read that
 *   fails, or finds an entry that is not one, rejects (deliver then sends nothing).
 * - `ref` must survive JSON. Give `client` a bounded `reconnectStrategy` so that calls fail
 *   rather than wait while Redis is away.
 *
 * @example
 * ```ts
 * import { redisEventLog, redisLedger } from 'llm-rx/redis';
 * const ledger = redisLedger({ client });
 * followLog(redisEventLog({ client }), id).pipe(
 *   channel('telegram'),
 *   toMessageEdits({ maxMessageChars: 4096, render: 'telegram' }),
 *   deliver(telegramTransport({ token, chatId }), { ledger, key: id }),
 * );
 * ```
 * @param options.client A connected node-redis 5 client.
 * @param options.keyPrefix Prefix of every key. @defaultValue `'llm-rx:'`
 * @param options.ttlSeconds Entries stay this long after their last write. @defaultValue 3600
 */
export function redisLedger(options: RedisLedgerOptions): DeliveryLedger {
  const { client, keyPrefix, ttlSeconds } = parseOptions(
    'redisLedger',
    RedisLedgerOptionsSchema,
    options,
  );
  const hashOf = (key: string) => `${keyPrefix}{${key}}:ledger`;
  return {
    async read(key) {
      const reply = await client.sendCommand(['HGETALL', hashOf(key)]);
      return fieldValues(reply).map((json) => parseEntry(key, json));
    },
    async write(key, { message, ref, text, finished }) {
      const json = JSON.stringify({ message, ref, text, finished });
      const args = [hashOf(key), String(message), json, String(ttlSeconds)];
      await client.sendCommand(['EVAL', WRITE, '1', ...args]);
    },
  };
}

/** The values of an HGETALL reply: a flat array (RESP2), a Map or an object (RESP3). */
function fieldValues(reply: unknown): string[] {
  if (Array.isArray(reply)) return reply.filter((_, i) => i % 2 === 1).map(String);
  if (reply instanceof Map) return [...reply.values()].map(String);
  if (typeof reply === 'object' && reply !== null) return Object.values(reply).map(String);
  return [];
}

function parseEntry(key: string, json: string): LedgerEntry {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    value = undefined;
  }
  const parsed = StoredEntry.safeParse(value);
  if (!parsed.success) {
    throw new LlmRxError(
      'delivery-failed',
      `redisLedger: an entry under "${key}" is not a ledger entry (${json.slice(0, 80)})`,
    );
  }
  return parsed.data as LedgerEntry;
}
