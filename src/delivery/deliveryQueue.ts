import type { MessageEdit } from '../channels/messageEditPlanner';
import type { LedgerEntry } from './types';

/** The three calls of a message's lifecycle: open it, update it, make its text final. */
export type CallOp = 'send' | 'edit' | 'finish';

/** One transport call `deliver` is about to make. */
export interface QueuedCall {
  message: number;
  /** `send` until the message's send resolved, then `edit`; `finish` once it closed. */
  op: CallOp;
  edit: MessageEdit;
  /** The newest ref the platform gave for the message, for an edit or a finish. */
  ref: unknown;
  /** 1 for the first call carrying this message's pending text, then 2, 3, … */
  attempt: number;
}

/** Settings of {@link createDeliveryQueue}. */
export interface DeliveryQueueOptions {
  /** The transport has `finish`: each sent message gets one finish call once it closed. */
  finishes?: boolean;
}

interface MessageState {
  sent: boolean;
  ref: unknown;
  /** The newest text not yet handed to the transport. */
  pending?: MessageEdit;
  /** The newest text seen: what a finish carries. */
  latest?: MessageEdit;
  /** Its finish went through or was given up: it is never made again. */
  finished: boolean;
  /** The send failed for good: later texts of this message are dropped. */
  lost: boolean;
  /** Calls made for the current text, and how many of them count against maxAttempts. */
  calls: number;
  failures: number;
  /** What an earlier run's ledger entry said: texts it holds are not sent again. */
  restored?: LedgerEntry;
  /** The `resumed` report for `restored` is still to be made. */
  resumePending?: boolean;
}

/**
 * The pure state of `deliver` (no RxJS, no timers): per message, the newest text waiting,
 * whether its send went through and whether it was finished. One call at a time is taken out
 * with `next()` and settled with `delivered`, `retry` or `giveUp`.
 *
 * - Texts of one message collapse: a newer one replaces the one waiting (`push` returns it).
 * - The first text seen for a message is sent, whatever its `op`; later ones edit it.
 * - `next()` serves the lowest message number first, so a message's last edit (and its
 *   finish) goes out before the next message's send.
 * - With `finishes`, a message closes when a higher message is pushed or `closeAll()` is
 *   called; a sent, closed message gets one `finish` with its newest text (a text still
 *   waiting then goes out as the finish, not as an edit first). A text pushed after the finish
 *   went through is an `edit` of the finished message; there is never a second finish.
 */
export function createDeliveryQueue({ finishes = false }: DeliveryQueueOptions = {}) {
  const messages = new Map<number, MessageState>();
  // Messages that may have a call to make: a text waiting, or a finish due.
  const active = new Set<number>();
  let highest = -Infinity;
  let allClosed = false;

  const stateOf = (message: number): MessageState => {
    let state = messages.get(message);
    if (!state) {
      state = { sent: false, ref: undefined, finished: false, lost: false, calls: 0, failures: 0 };
      messages.set(message, state);
    }
    return state;
  };

  const closed = (message: number) => allClosed || message < highest;
  const finishDue = (state: MessageState, message: number) =>
    finishes &&
    state.sent &&
    state.latest !== undefined &&
    !state.finished &&
    !state.lost &&
    closed(message);
  const hasCall = (state: MessageState, message: number) =>
    state.pending !== undefined || finishDue(state, message);

  /** Puts `edit` back as pending unless a newer text waits; returns the one that lost. */
  const requeue = (state: MessageState, edit: MessageEdit): MessageEdit | undefined => {
    active.add(edit.message);
    if (state.pending) return edit;
    state.pending = edit;
    return undefined;
  };

  const settled = (state: MessageState) => {
    state.calls = 0;
    state.failures = 0;
  };

  return {
    /** Queues `edit` as its message's newest text; returns the waiting text it replaced. */
    push(edit: MessageEdit): MessageEdit | undefined {
      const state = stateOf(edit.message);
      if (state.lost) return undefined;
      if (edit.message > highest) {
        // Every lower message closed: those waiting only for their finish become active.
        highest = edit.message;
        for (const [message, other] of messages) if (finishDue(other, message)) active.add(message);
      }
      // A text an earlier run already delivered (the ledger holds it, or a newer one) waits
      // for nothing; it is still the newest text a finish would carry.
      if (state.restored && state.restored.text.startsWith(edit.text)) {
        state.latest = edit;
        if (finishDue(state, edit.message)) active.add(edit.message);
        return undefined;
      }
      const replaced = state.pending;
      state.pending = state.latest = edit;
      active.add(edit.message);
      return replaced;
    },

    /**
     * Takes in what an earlier run recorded: each message is known (sent, with its ref), and
     * finished if it was. A message is only edited or finished once this run pushes a text for
     * it.
     */
    restore(entries: LedgerEntry[]): void {
      for (const entry of entries) {
        const state = stateOf(entry.message);
        state.sent = true;
        state.ref = entry.ref;
        state.finished = entry.finished;
        state.restored = entry;
        state.resumePending = true;
      }
    },

    /** The ledger entry of `message`, the first time it is asked for after `restore`. */
    takeResumed(message: number): LedgerEntry | undefined {
      const state = messages.get(message);
      if (!state?.resumePending) return undefined;
      state.resumePending = false;
      return state.restored;
    },

    /** What the ledger should hold for the call's message after the call went through. */
    entryOf(call: QueuedCall): LedgerEntry {
      const state = messages.get(call.message)!;
      return {
        message: call.message,
        ref: state.ref,
        text: call.edit.text,
        finished: state.finished,
      };
    },

    /** The source ended: every message is closed. */
    closeAll(): void {
      allClosed = true;
      for (const [message, state] of messages) if (finishDue(state, message)) active.add(message);
    },

    /** The op of the call `next()` would take now, without taking it. */
    nextOp(): CallOp | undefined {
      let message = Infinity;
      for (const candidate of active) {
        if (hasCall(messages.get(candidate)!, candidate)) message = Math.min(message, candidate);
      }
      if (message === Infinity) return undefined;
      const state = messages.get(message)!;
      return !state.sent ? 'send' : finishDue(state, message) ? 'finish' : 'edit';
    },

    /** Takes the next call out of the queue (lowest message first), or undefined. */
    next(): QueuedCall | undefined {
      let message = Infinity;
      for (const candidate of active) {
        if (hasCall(messages.get(candidate)!, candidate)) message = Math.min(message, candidate);
        else active.delete(candidate);
      }
      if (message === Infinity) return undefined;
      active.delete(message);
      const state = messages.get(message)!;
      const op: CallOp = !state.sent ? 'send' : finishDue(state, message) ? 'finish' : 'edit';
      const edit = op === 'finish' ? state.latest! : state.pending!;
      state.pending = undefined;
      state.calls++;
      return { message, op, edit, ref: state.ref, attempt: state.calls };
    },

    /** The call went through: `ref`, when not undefined, is the message's ref from now on. */
    delivered(call: QueuedCall, ref?: unknown): void {
      const state = messages.get(call.message)!;
      if (call.op === 'send') state.sent = true;
      if (call.op === 'send' || ref !== undefined) state.ref = ref;
      if (call.op === 'finish') state.finished = true;
      settled(state);
      if (hasCall(state, call.message)) active.add(call.message);
    },

    /** Counted failures of the call's message so far (its current text). */
    failuresOf(call: QueuedCall): number {
      return messages.get(call.message)!.failures;
    },

    /**
     * The call failed and will be tried again (`counted`: against maxAttempts). Its text waits
     * again, unless a newer one already does: then the call's text is returned, superseded.
     */
    retry(call: QueuedCall, counted: boolean): MessageEdit | undefined {
      const state = messages.get(call.message)!;
      if (counted) state.failures++;
      return requeue(state, call.edit);
    },

    /** The call failed for good; a failed send drops the message's later texts. */
    giveUp(call: QueuedCall): void {
      const state = messages.get(call.message)!;
      settled(state);
      if (call.op === 'send') {
        state.lost = true;
        state.pending = undefined;
        active.delete(call.message);
      } else if (call.op === 'finish') state.finished = true;
      if (hasCall(state, call.message)) active.add(call.message);
    },

    /** Whether any call is waiting to be made. */
    hasWork(): boolean {
      for (const message of active) if (hasCall(messages.get(message)!, message)) return true;
      return false;
    },
  };
}

/** The queue `createDeliveryQueue` returns. */
export type DeliveryQueue = ReturnType<typeof createDeliveryQueue>;
