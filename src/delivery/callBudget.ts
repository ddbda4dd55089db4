// Flood budgets: how many calls a chat (or a bot token) may make, counted from the answers.
// Used by the transports around every platform call; `deliver` reads `readyIn()` so that it
// takes the newest text only when the call can go out.
import { asyncScheduler, type SchedulerLike, type Subscription } from 'rxjs';

/**
 * One limit: at most `limit` calls in any `windowMs`. A call counts from its start until
 * `windowMs` after its answer (plus 1 ms for the clock's resolution), so the platform, which
 * sees each call somewhere between its start and its answer, never sees `limit + 1` calls in
 * one window, whatever the network does.
 */
export interface CallGate {
  readonly limit: number;
  readonly windowMs: number;
  /**
   * Milliseconds until a call could start (0: now; Infinity: when a call in flight answers). A
   * call that is not `first` waits while a first call (a new message) waits for this gate, and
   * a call that is neither `first` nor `finish` also while a finish (a message's final text)
   * waits.
   */
  readyIn(now: number, first?: boolean, finish?: boolean): number;
  /** A first call (a conversation's new message) starts or stops waiting for this gate. */
  firstWaiting(delta: 1 | -1): void;
  /** A finish (a message's final text) starts or stops waiting for this gate. */
  finishWaiting(delta: 1 | -1): void;
  /** Keeps every call out until `until` (a 429's `retry_after`). */
  holdUntil(until: number): void;
  /** A call started (`take`) and answered (`answered`). */
  take(): void;
  answered(now: number): void;
  /** Called whenever a call answers: a waiter blocked by calls in flight looks again. */
  onAnswer(listener: () => void): () => void;
  /** Nothing in flight, nothing counted, not held: forgetting the gate changes nothing. */
  idle(now: number): boolean;
}

/** A gate of `limit` calls per `windowMs` (see {@link CallGate}). */
export function createCallGate(limit: number, windowMs: number): CallGate {
  // Answer times of the calls that still count, oldest first; at most `limit` of them.
  const answers: number[] = [];
  let inFlight = 0;
  let heldUntil = -Infinity;
  let firstCallsWaiting = 0;
  let finishesWaiting = 0;
  const listeners = new Set<() => void>();
  const wake = () => {
    for (const listener of [...listeners]) listener();
  };
  return {
    limit,
    windowMs,
    readyIn(now, first = false, finish = false) {
      while (answers.length > 0 && answers[0] + windowMs + 1 <= now) answers.shift();
      const held = Math.max(0, heldUntil - now);
      const free = inFlight + answers.length < limit;
      // A slot that frees goes to a conversation's first message before any other call, then
      // to a message's finish before the other edits.
      const ahead = first ? 0 : firstCallsWaiting + (finish ? 0 : finishesWaiting);
      if (ahead > 0) return free ? Infinity : this.readyIn(now, true);
      if (free) return held;
      if (answers.length === 0) return Infinity;
      // The oldest counted answer leaves the window first.
      return Math.max(held, answers[0] + windowMs + 1 - now);
    },
    holdUntil(until) {
      heldUntil = Math.max(heldUntil, until);
    },
    take() {
      inFlight++;
    },
    firstWaiting(delta) {
      firstCallsWaiting += delta;
      if (delta < 0) wake();
    },
    finishWaiting(delta) {
      finishesWaiting += delta;
      if (delta < 0) wake();
    },
    answered(now) {
      inFlight--;
      answers.push(now);
      if (answers.length > limit) answers.shift();
      wake();
    },
    onAnswer(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    idle(now) {
      return inFlight === 0 && heldUntil <= now && answers.every((at) => at + windowMs + 1 <= now);
    },
  };
}

/**
 * The gates one call passes: its chat's (held by a 429 of that chat) and those it shares with
 * other chats (a bot token's). `run(call)` waits until every gate admits a call, then makes it;
 * calls of one budget wait in the order they asked.
 */
export interface CallBudget {
  /** Milliseconds until a call could start now (Infinity: when a call in flight answers). */
  readyIn(): number;
  /**
   * Waits for a turn, makes the call, counts its answer (or failure) in every gate. `first`: the
   * call opens a new message, and goes before other calls of the shared gates (a new
   * conversation's first words before another's next edit). `finish`: the call shows a
   * message's final text, and goes before the shared gates' other calls but first ones.
   */
  run<T>(
    call: () => Promise<T>,
    signal?: AbortSignal,
    first?: boolean,
    finish?: boolean,
  ): Promise<T>;
  /**
   * `run` for a caller that keeps its own time (a call that settles on a scheduler): `onTurn`
   * runs, in a scheduler action, when the call may start (its slot taken in every gate); the
   * caller then calls `answered()` once the call answered or failed. An abort of `signal`
   * before the turn gives up the place and calls `onAbort` with its reason.
   */
  whenReady(
    onTurn: () => void,
    options?: {
      signal?: AbortSignal;
      first?: boolean;
      finish?: boolean;
      onAbort?: (reason: unknown) => void;
    },
  ): void;
  /** A call started by `whenReady` answered (or failed): counted from now in every gate. */
  answered(): void;
  /** A 429 of this chat: no call of this chat starts for `ms`. */
  hold(ms: number): void;
  /** No call waits, runs or still counts in the chat's gates (the budget may be forgotten). */
  idle(): boolean;
}

/**
 * A budget over `chatGates` (held by {@link CallBudget.hold}) and `sharedGates`.
 *
 * @example
 * ```ts
 * const token = [createCallGate(30, 1000)];
 * const chat = createCallBudget([createCallGate(1, 1000)], token);
 * await chat.run(() => fetch(url, { method: 'POST', body }));
 * ```
 * @param chatGates - the chat's own limits, e.g. one call per 1000 ms
 * @param sharedGates - limits shared with other budgets (the same gate objects) @defaultValue none
 * @param scheduler - where waits are timed @defaultValue asyncScheduler
 */
export function createCallBudget(
  chatGates: CallGate[],
  sharedGates: CallGate[] = [],
  scheduler: SchedulerLike = asyncScheduler,
): CallBudget {
  const gates = [...chatGates, ...sharedGates];
  const waiting: Array<() => void> = [];
  const readyIn = (first = false, finish = false) => {
    const now = scheduler.now();
    let wait = 0;
    for (const gate of gates) wait = Math.max(wait, gate.readyIn(now, first, finish));
    return wait;
  };

  const whenReady: CallBudget['whenReady'] = (onTurn, options = {}) => {
    const { signal, first = false, finish = false, onAbort: giveUp = () => undefined } = options;
    let timer: Subscription | undefined;
    const unlisten: Array<() => void> = [];
    // A first call or a finish claims priority on the shared gates only while its own chat
    // could go.
    let claimed = false;
    const claim = (on: boolean) => {
      if (on === claimed) return;
      claimed = on;
      for (const gate of sharedGates) {
        if (first) gate.firstWaiting(on ? 1 : -1);
        else gate.finishWaiting(on ? 1 : -1);
      }
    };
    const done = () => {
      timer?.unsubscribe();
      unlisten.forEach((stop) => stop());
      signal?.removeEventListener('abort', onAbort);
      waiting.splice(waiting.indexOf(look), 1);
      // Last: giving up the claim wakes the other waiters, this one no longer among them.
      claim(false);
    };
    const onAbort = () => {
      done();
      giveUp(signal!.reason);
      waiting[0]?.();
    };
    let looking = false;
    function look() {
      // Only the first waiter of this budget may start: the others keep their place. (A claim
      // given up inside look() wakes the listeners, this one too: it is already looking.)
      if (waiting[0] !== look || looking) return;
      looking = true;
      try {
        lookNow();
      } finally {
        looking = false;
      }
    }
    function lookNow() {
      timer?.unsubscribe();
      timer = undefined;
      if (first || finish) {
        const now = scheduler.now();
        claim(chatGates.every((gate) => gate.readyIn(now, true) === 0));
      }
      const wait = readyIn(first, finish);
      if (wait === 0) {
        // Taken before done(): done() wakes other waiters, who must see the slot taken.
        for (const gate of gates) gate.take();
        done();
        onTurn();
        waiting[0]?.();
      } else if (wait !== Infinity) timer = scheduler.schedule(look, wait);
    }
    if (signal?.aborted) return giveUp(signal.reason);
    signal?.addEventListener('abort', onAbort);
    for (const gate of gates) unlisten.push(gate.onAnswer(look));
    waiting.push(look);
    look();
  };
  const answered = () => {
    const now = scheduler.now();
    for (const gate of gates) gate.answered(now);
  };

  return {
    readyIn: () => readyIn(),
    async run(call, signal, first, finish) {
      await new Promise<void>((onTurn, onAbort) =>
        whenReady(onTurn, { signal, first, finish, onAbort }),
      );
      try {
        return await call();
      } finally {
        answered();
      }
    },
    whenReady,
    answered,
    hold(ms) {
      const until = scheduler.now() + ms;
      for (const gate of chatGates) gate.holdUntil(until);
    },
    idle() {
      const now = scheduler.now();
      return waiting.length === 0 && chatGates.every((gate) => gate.idle(now));
    },
  };
}

/**
 * How long `deliver` waits before it takes a text out for its next call: what the transport's
 * budget says for an edit (so the newest text goes when the chat can take it); nothing for a
 * send, which waits in the budget itself, where a conversation's first message claims the
 * next free slot of the shared gates before other chats' edits (waiting here instead, it would
 * look again only when its timer fired, and lose every slot to edits woken by answers), and
 * nothing for a finish (it may make no call at all).
 */
export function budgetWaitMs(
  nextOp: 'send' | 'edit' | 'finish' | undefined,
  budget: { readyIn(): number } | undefined,
): number {
  return nextOp === 'send' || nextOp === 'finish' || !budget ? 0 : budget.readyIn();
}
