import { Subject, type SchedulerLike } from 'rxjs';
import type { MessageEdit } from '../../src/channels/messageEditPlanner';
import { DeliveryError } from '../../src/delivery/errors';
import type {
  DeliveryLedger,
  DeliveryTransport,
  LedgerEntry,
  TransportCall,
} from '../../src/delivery/types';

/** How the fake answers one call (by call number, 0-based), as a marble file's args give it. */
export interface ScriptedReply {
  /** Frames until the call settles. @defaultValue the transport's `latencyMs` */
  latencyMs?: number;
  /** Rejects with an ordinary (retryable) DeliveryError. */
  fails?: boolean;
  /** Rejects with a DeliveryError carrying this `retryAfterMs`. */
  retryAfterMs?: number;
  /** Rejects with a DeliveryError `notModified`. */
  notModified?: boolean;
  /** Rejects with a DeliveryError `permanent`. */
  permanent?: boolean;
  /** Throws synchronously instead of returning a Promise. */
  throws?: boolean;
  /** Returns this value instead of a Promise. */
  returns?: unknown;
  /** Resolves to this ref. @defaultValue the message number for a send, undefined otherwise */
  ref?: unknown;
  /** Rejects with a DeliveryError with this HTTP status (500 or more: ambiguous). */
  status?: number;
  /** Rejects with a DeliveryError whose outcome is unknown (a reset, a timeout). */
  ambiguous?: boolean;
}

/** The fake's script: a default latency and replies by call number. */
export interface TransportScript {
  latencyMs?: number;
  replies?: Record<string, ScriptedReply>;
  /** The transport has `finish` (the message lifecycle's third call). */
  finishes?: boolean;
  /** Each recorded edit and finish also carries the ref it was given. */
  recordRefs?: boolean;
  /** The transport's `maxMessageChars`. */
  maxMessageChars?: number;
  /** The transport's `stopSignal` is aborted: the user stopped the answer. */
  stopped?: boolean;
  /** The transport has a flood budget that can take a call from this frame on. */
  budgetFreeAt?: number;
}

/** One call the fake received. */
export interface RecordedCall {
  op: 'send' | 'edit' | 'finish';
  message: number;
  text: string;
  /** The ref an edit or finish was given (only with `recordRefs`). */
  ref?: unknown;
}

/**
 * A transport whose calls settle on a scheduler (the TestScheduler in marble specs). It returns
 * a {@link ScheduledResult}, a PromiseLike that settles inside a scheduler action: a real
 * Promise would settle in a microtask, after TestScheduler's synchronous flush. `calls` emits
 * each call as it starts. An aborted call (`call.signal`) cancels its timer and never settles.
 */
export function scheduledTransport(
  script: TransportScript,
  scheduler: SchedulerLike,
): DeliveryTransport<number> & { calls: Subject<RecordedCall> } {
  const calls = new Subject<RecordedCall>();
  let callNumber = 0;
  const answer = (
    op: RecordedCall['op'],
    edit: MessageEdit,
    call: TransportCall,
    ref?: unknown,
  ) => {
    const n = callNumber++;
    const recorded = { op, message: edit.message, text: edit.text };
    calls.next(script.recordRefs && op !== 'send' ? { ...recorded, ref } : recorded);
    const reply = script.replies?.[String(n)] ?? {};
    if (reply.throws) throw new Error(`call ${n} threw`);
    if ('returns' in reply) return reply.returns;
    const result = new ScheduledResult<number>();
    const timer = scheduler.schedule(
      () => {
        const { retryAfterMs, notModified, permanent, status, ambiguous } = reply;
        const context = { retryAfterMs, notModified, permanent, status, ambiguous };
        if (Object.values(context).some((value) => value !== undefined) || reply.fails) {
          result.settle('rejected', new DeliveryError(`call ${n} failed`, context));
        } else
          result.settle(
            'fulfilled',
            'ref' in reply ? reply.ref : op === 'send' ? edit.message : undefined,
          );
      },
      reply.latencyMs ?? script.latencyMs ?? 1,
    );
    call.signal.addEventListener('abort', () => timer.unsubscribe(), { once: true });
    return result;
  };
  const finish = (ref: number, edit: MessageEdit, call: TransportCall) =>
    answer('finish', edit, call, ref) as PromiseLike<number | undefined>;
  return {
    calls,
    send: (edit, call) => answer('send', edit, call) as PromiseLike<number>,
    edit: (ref, edit, call) => answer('edit', edit, call, ref) as PromiseLike<number | undefined>,
    ...(script.finishes ? { finish } : {}),
    ...(script.maxMessageChars === undefined ? {} : { maxMessageChars: script.maxMessageChars }),
    ...(script.stopped ? { stopSignal: AbortSignal.abort('the user pressed Stop') } : {}),
    ...(script.budgetFreeAt === undefined
      ? {}
      : { budget: { readyIn: () => Math.max(0, script.budgetFreeAt! - scheduler.now()) } }),
  };
}

/** How the scheduled ledger answers, as a marble file's `args.ledger` gives it. */
export interface LedgerScript {
  /** What an earlier run recorded. @defaultValue none */
  entries?: LedgerEntry[];
  /** Frames until `read` resolves. @defaultValue 0 */
  readLatencyMs?: number;
  /** Frames until each `write` resolves. @defaultValue 0 */
  writeLatencyMs?: number;
  /** `read` rejects. */
  readFails?: boolean;
  /** Write numbers (0-based) that reject. */
  failWrites?: number[];
}

/**
 * A ledger whose reads and writes settle on a scheduler, like {@link scheduledTransport}'s
 * calls; `writes` emits each entry as its write starts. Writes are kept in `entries`.
 */
export function scheduledLedger(
  script: LedgerScript,
  scheduler: SchedulerLike,
): DeliveryLedger & { writes: Subject<LedgerEntry>; entries: Map<number, LedgerEntry> } {
  const writes = new Subject<LedgerEntry>();
  const entries = new Map((script.entries ?? []).map((entry) => [entry.message, entry]));
  let writeNumber = 0;
  const later = <T>(ms: number, settle: (result: ScheduledResult<T>) => void) => {
    const result = new ScheduledResult<T>();
    scheduler.schedule(() => settle(result), ms);
    return result;
  };
  return {
    writes,
    entries,
    read: () =>
      later<LedgerEntry[]>(script.readLatencyMs ?? 0, (result) =>
        script.readFails
          ? result.settle('rejected', new Error('ledger unreachable'))
          : result.settle('fulfilled', [...entries.values()]),
      ),
    write: (_key, entry) => {
      const n = writeNumber++;
      writes.next(entry);
      return later<void>(script.writeLatencyMs ?? 0, (result) => {
        if (script.failWrites?.includes(n)) {
          return result.settle('rejected', new Error(`write ${n} failed`));
        }
        entries.set(entry.message, entry);
        result.settle('fulfilled', undefined);
      });
    },
  };
}

/** A minimal PromiseLike that runs its callbacks synchronously when `settle` is called. */
export class ScheduledResult<T> implements PromiseLike<T> {
  private state: 'pending' | 'fulfilled' | 'rejected' = 'pending';
  private value: unknown;
  private waiting: Array<() => void> = [];

  settle(state: 'fulfilled' | 'rejected', value: unknown): void {
    if (this.state !== 'pending') return;
    this.state = state;
    this.value = value;
    for (const run of this.waiting.splice(0)) run();
  }

  then<A = T, B = never>(
    onFulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): PromiseLike<A | B> {
    const next = new ScheduledResult<A | B>();
    const run = () => {
      const handler = this.state === 'fulfilled' ? onFulfilled : onRejected;
      if (!handler) return next.settle(this.state as 'fulfilled' | 'rejected', this.value);
      try {
        next.settle('fulfilled', handler(this.value as T));
      } catch (error) {
        next.settle('rejected', error);
      }
    };
    if (this.state === 'pending') this.waiting.push(run);
    else run();
    return next;
  }
}
