import type { DeliveryLedger, LedgerEntry } from './types';

/**
 * A {@link DeliveryLedger} in this process's memory: a reply delivered again with the same
 * `key` (a retried job, a second subscription) makes no new message for what was delivered.
 * Entries are stored as JSON, as `redisLedger` stores them, so a ref that does not survive JSON
 * shows up here too. For a ledger that outlives the process, use `redisLedger` from
 * `llm-rx/redis`.
 *
 * @example
 * ```ts
 * const ledger = memoryLedger();
 * edits$.pipe(deliver(telegramTransport({ token, chatId }), { ledger, key: streamId }));
 * ```
 */
export function memoryLedger(): DeliveryLedger & {
  /** Forgets every entry under `key` (a finished reply). */
  delete(key: string): void;
} {
  const replies = new Map<string, Map<number, string>>();
  return {
    read(key) {
      const entries = [...(replies.get(key)?.values() ?? [])];
      return Promise.resolve(entries.map((json) => JSON.parse(json) as LedgerEntry));
    },
    write(key, entry) {
      let reply = replies.get(key);
      if (!reply) replies.set(key, (reply = new Map()));
      const { message, ref, text, finished } = entry;
      reply.set(message, JSON.stringify({ message, ref, text, finished }));
      return Promise.resolve();
    },
    delete(key) {
      replies.delete(key);
    },
  };
}
