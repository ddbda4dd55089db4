import type { MessageEdit } from '../channels/messageEditPlanner';

/** One transport call `deliver` is about to make. */
export interface QueuedCall {
  message: number;
  /** `send` until the message's send resolved, then `edit`. */
  op: 'send' | 'edit';
  edit: MessageEdit;
  /** The send's result, for an edit. */
  ref: unknown;
  /** 1 for the first call carrying this message's pending text, then 2, 3, … */
  attempt: number;
}

interface MessageState {
  sent: boolean;
  ref: unknown;
  /** The newest text not yet handed to the transport. */
  pending?: MessageEdit;
  /** The send failed for good: later texts of this message are dropped. */
  lost: boolean;
  /** Calls made for the current text, and how many of them count against maxAttempts. */
  calls: number;
  failures: number;
}

/**
 * The pure state of `deliver` (no RxJS, no timers): per message, the newest text waiting, and
 * whether its send went through. One call at a time is taken out with `next()` and settled
 * with `delivered`, `retry` or `giveUp`.
 *
 * - Texts of one message collapse: a newer one replaces the one waiting (`push` returns it).
 * - The first text seen for a message is sent, whatever its `op`; later ones edit it.
 * - `next()` serves the lowest message number first, so a message's last edit goes out before
 *   the next message's send.
 */
export function createDeliveryQueue() {
  const messages = new Map<number, MessageState>();
  const waiting = new Set<number>();

  const stateOf = (message: number): MessageState => {
    let state = messages.get(message);
    if (!state) {
      state = { sent: false, ref: undefined, lost: false, calls: 0, failures: 0 };
      messages.set(message, state);
    }
    return state;
  };

  /** Puts `edit` back as pending unless a newer text waits; returns the one that lost. */
  const requeue = (state: MessageState, edit: MessageEdit): MessageEdit | undefined => {
    if (state.pending) return edit;
    state.pending = edit;
    waiting.add(edit.message);
    return undefined;
  };

  return {
    /** Queues `edit` as its message's newest text; returns the waiting text it replaced. */
    push(edit: MessageEdit): MessageEdit | undefined {
      const state = stateOf(edit.message);
      if (state.lost) return undefined;
      const replaced = state.pending;
      state.pending = edit;
      waiting.add(edit.message);
      return replaced;
    },

    /** Takes the next call out of the queue (lowest message first), or undefined. */
    next(): QueuedCall | undefined {
      if (waiting.size === 0) return undefined;
      let message = Infinity;
      for (const candidate of waiting) message = Math.min(message, candidate);
      waiting.delete(message);
      const state = messages.get(message)!;
      const edit = state.pending!;
      state.pending = undefined;
      state.calls++;
      const op = state.sent ? 'edit' : 'send';
      return { message, op, edit, ref: state.ref, attempt: state.calls };
    },

    /** The call went through (`ref`: a send's result). */
    delivered(call: QueuedCall, ref?: unknown): void {
      const state = messages.get(call.message)!;
      if (call.op === 'send') {
        state.sent = true;
        state.ref = ref;
      }
      state.calls = 0;
      state.failures = 0;
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
      state.calls = 0;
      state.failures = 0;
      if (call.op === 'send') {
        state.lost = true;
        state.pending = undefined;
        waiting.delete(call.message);
      }
    },

    /** Whether any text waits for a call. */
    hasWork(): boolean {
      return waiting.size > 0;
    },
  };
}

/** The queue `createDeliveryQueue` returns. */
export type DeliveryQueue = ReturnType<typeof createDeliveryQueue>;
