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
  /** Milliseconds until a call could start (0: now; Infinity: when a call in flight answers). */
  readyIn(now: number): number;
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
  const listeners = new Set<() => void>();
  return {
    limit,
    windowMs,
    readyIn(now) {
      while (answers.length > 0 && answers[0] + windowMs + 1 <= now) answers.shift();
      const held = Math.max(0, heldUntil - now);
      if (inFlight + answers.length < limit) return held;
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
    answered(now) {
      inFlight--;
      answers.push(now);
      if (answers.length > limit) answers.shift();
      for (const listener of [...listeners]) listener();
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
  /** Waits for a turn, makes the call, counts its answer (or failure) in every gate. */
  run<T>(call: () => Promise<T>, signal?: AbortSignal): Promise<T>;
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
  const readyIn = () => {
    const now = scheduler.now();
    let wait = 0;
    for (const gate of gates) wait = Math.max(wait, gate.readyIn(now));
    return wait;
  };

  const turn = (signal?: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      let timer: Subscription | undefined;
      const unlisten: Array<() => void> = [];
      const done = () => {
        timer?.unsubscribe();
        unlisten.forEach((stop) => stop());
        signal?.removeEventListener('abort', onAbort);
        waiting.splice(waiting.indexOf(look), 1);
      };
      const onAbort = () => {
        done();
        reject(signal!.reason);
        waiting[0]?.();
      };
      function look() {
        // Only the first waiter of this budget may start: the others keep their place.
        if (waiting[0] !== look) return;
        timer?.unsubscribe();
        timer = undefined;
        const wait = readyIn();
        if (wait === 0) {
          done();
          for (const gate of gates) gate.take();
          resolve();
          waiting[0]?.();
        } else if (wait !== Infinity) timer = scheduler.schedule(look, wait);
      }
      if (signal?.aborted) return reject(signal.reason);
      signal?.addEventListener('abort', onAbort);
      for (const gate of gates) unlisten.push(gate.onAnswer(look));
      waiting.push(look);
      look();
    });

  return {
    readyIn,
    async run(call, signal) {
      await turn(signal);
      try {
        return await call();
      } finally {
        const now = scheduler.now();
        for (const gate of gates) gate.answered(now);
      }
    },
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
