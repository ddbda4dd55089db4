// The timers that keep a Telegram draft on screen while no new text comes (a tool call, a long
// think): Telegram drops a draft about 30 s after its last write, so it is written again.

import type { SchedulerLike, Subscription } from 'rxjs';
import type { TelegramOutcome } from './telegramApi';
import type { Piece } from './telegramContent';

/**
 * A draft left without a new text is written again at most this many times in a row (5 minutes
 * at the default 20 s), then left to expire: `finish` still persists its text, and a transport
 * whose `deliver` was unsubscribed between calls does not refresh for ever.
 */
export const MAX_IDLE_REFRESHES = 15;

/** Settings of {@link createDraftRefresher}. */
export interface DraftRefresherOptions<Ref> {
  scheduler: SchedulerLike;
  refreshMs: number;
  /** Writes the draft again; resolves undefined when the message is no longer a draft. */
  write(ref: Ref, piece: Piece, signal: AbortSignal): Promise<TelegramOutcome | undefined>;
}

/** Refresh timers, one per draft. Whoever creates it owns the timers: `close()` ends them all. */
export interface DraftRefresher<Ref> {
  /** A draft was written with `piece`: refresh it `refreshMs` from now (until `signal` aborts). */
  wrote(ref: Ref, piece: Piece, signal: AbortSignal): void;
  /** The message is no longer a draft: no more refreshes. */
  stop(ref: Ref): void;
  /** Stops every timer. */
  close(): void;
  /** Drafts with a refresh pending (for specs: 0 once every message finished). */
  readonly pending: number;
}

interface Entry {
  piece: Piece;
  idle: number;
  timer?: Subscription;
}

/**
 * Keeps drafts alive: `refreshMs` after each write, the last piece is written again; a 429
 * waits its `retry_after` first; a permanent failure or {@link MAX_IDLE_REFRESHES} refreshes
 * without a new text end it. Timers run on `scheduler` and are released by `stop` / `close`.
 */
export function createDraftRefresher<Ref extends object>(
  options: DraftRefresherOptions<Ref>,
): DraftRefresher<Ref> {
  const { scheduler, refreshMs, write } = options;
  const entries = new Map<Ref, Entry>();
  const controller = new AbortController();

  const stop = (ref: Ref) => {
    entries.get(ref)?.timer?.unsubscribe();
    entries.delete(ref);
  };

  const arm = (ref: Ref, entry: Entry, delayMs: number) => {
    entry.timer?.unsubscribe();
    entry.timer = scheduler.schedule(() => refresh(ref, entry), delayMs);
  };

  const refresh = (ref: Ref, entry: Entry) => {
    entry.timer = undefined;
    if (entries.get(ref) !== entry) return;
    if (entry.idle >= MAX_IDLE_REFRESHES) return stop(ref);
    entry.idle++;
    write(ref, entry.piece, controller.signal).then(
      (outcome) => {
        if (entries.get(ref) !== entry || entry.timer) return;
        if (!outcome || (!outcome.ok && outcome.error.permanent)) return stop(ref);
        const retryAfterMs = outcome.ok ? undefined : outcome.error.retryAfterMs;
        arm(ref, entry, typeof retryAfterMs === 'number' ? retryAfterMs : refreshMs);
      },
      () => stop(ref),
    );
  };

  return {
    wrote(ref, piece, signal) {
      if (controller.signal.aborted || signal.aborted) return;
      const entry = entries.get(ref) ?? { piece, idle: 0 };
      entries.set(ref, Object.assign(entry, { piece, idle: 0 }));
      arm(ref, entry, refreshMs);
      signal.addEventListener('abort', () => stop(ref), { once: true });
    },
    stop,
    close() {
      controller.abort();
      for (const ref of [...entries.keys()]) stop(ref);
    },
    get pending() {
      return entries.size;
    },
  };
}
