// No imports: llm-rx/redis implements this interface without loading the delivery code.

/**
 * What a ledger holds for one message of one reply: the platform's ref, the last text the
 * platform acknowledged, and whether the message was finished. `ref` must survive JSON (a
 * message id, a `ts`, a plain object).
 */
export interface LedgerEntry {
  message: number;
  ref: unknown;
  text: string;
  finished: boolean;
}

/**
 * Where `deliver` keeps its delivery state so that a new process can pick a reply up where a
 * dead one left it: `memoryLedger()` (one process), `redisLedger(…)` from `llm-rx/redis`.
 * `write` replaces one message's entry under `key`; `read` returns every entry under `key`.
 */
export interface DeliveryLedger {
  read(key: string): PromiseLike<LedgerEntry[]>;
  write(key: string, entry: LedgerEntry): PromiseLike<unknown>;
}
