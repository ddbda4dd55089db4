import type { MonoTypeOperatorFunction, SchedulerLike, Subscription } from 'rxjs';
import * as z from 'zod/mini';
import type {
  ReasoningDeltaEvent,
  ReasoningEndEvent,
  ReasoningStartEvent,
  StreamEvent,
} from '../events';
import { createOperator, type OperatorStage } from '../internal/createOperator';
import { durationOption, parseOptions, schedulerOption } from '../internal/options';

const SortByIndexOptions = z.object({
  windowMs: z._default(durationOption, 50),
  scheduler: schedulerOption,
});

/** Options of {@link sortByIndex}. */
export interface SortByIndexOptions {
  /** How long a higher index waits for the current one to end. @defaultValue 50 */
  windowMs?: number;
  /** Where the window timer runs. @defaultValue asyncScheduler */
  scheduler?: SchedulerLike;
}

type ReasoningEntry = ReasoningStartEvent | ReasoningDeltaEvent | ReasoningEndEvent;

function isReasoningEntry(event: StreamEvent): event is ReasoningEntry {
  return (
    event.type === 'reasoning-start' ||
    event.type === 'reasoning-delta' ||
    event.type === 'reasoning-end'
  );
}

/**
 * Releases indexed reasoning entries (`reasoning-start` / `-delta` / `-end`) in ascending index,
 * for wires that interleave them (OpenRouter `reasoning_details` 2, 0, 1 in one chunk).
 *
 * ```
 * source:   -(2 0 1 f)-|          2/0/1 = reasoning entries of that index, f = finish
 * result:   -(0 1 2 f)-|
 * source:   -0-2------x-|         windowMs: 5
 * result:   -0------2-x-|         index 1 never came: 2 leaves after the window
 * ```
 *
 * - The current index passes at once. When no index is current (at the start, after a
 *   non-reasoning event, after the window), the highest index released so far or the one after
 *   it (0 at first) becomes current on its next entry and passes at once.
 * - A higher index is held until the current one ends — its `reasoning-end` (then held entries
 *   leave lowest index first, each index a whole, the first one not yet ended becoming current),
 *   any non-reasoning event (everything held leaves before it, in ascending index) or completion
 *   or error (everything held leaves first) — or until `windowMs` passes since the oldest held
 *   entry arrived: then everything held leaves, in ascending index. No entry waits longer.
 * - A late entry of a lower index passes at once: what left stays left.
 * - Nothing is dropped or duplicated; entries of one index keep their order; other events keep
 *   their order relative to everything released before them. Unsubscribing cancels the timer
 *   and drops what is held.
 *
 * @example
 * ```ts
 * streamEvents(response).pipe(normalizeReasoning(), sortByIndex({ windowMs: 100 }))
 * ```
 * @param options - {@link SortByIndexOptions}
 */
export function sortByIndex(
  options: SortByIndexOptions = {},
): MonoTypeOperatorFunction<StreamEvent> {
  return createOperator(sortByIndexStage(options));
}

/**
 * The logic of {@link sortByIndex} without its RxJS shell (options checked here, at once), for
 * `fuseStages`: `sortByIndex(options)` is `createOperator(sortByIndexStage(options))`.
 */
export function sortByIndexStage(
  options: SortByIndexOptions = {},
): OperatorStage<StreamEvent, StreamEvent> {
  const { windowMs, scheduler } = parseOptions('sortByIndex', SortByIndexOptions, options);
  return ({ subscriber }) => {
    const held = new Map<number, ReasoningEntry[]>();
    let current: number | undefined;
    let highestReleased = -1;
    let windowTimer: Subscription | undefined;

    const release = (entry: ReasoningEntry) => {
      highestReleased = Math.max(highestReleased, entry.index);
      subscriber.next(entry);
    };

    const takeLowestHeld = (): [number, ReasoningEntry[]] | undefined => {
      if (held.size === 0) return undefined;
      const index = Math.min(...held.keys());
      const entries = held.get(index)!;
      held.delete(index);
      return [index, entries];
    };

    // The current index ended: held indices leave lowest first, whole, until one that has not
    // ended yet, which becomes current.
    const advance = () => {
      current = undefined;
      for (let next = takeLowestHeld(); next; next = takeLowestHeld()) {
        const [index, entries] = next;
        entries.forEach(release);
        if (entries[entries.length - 1].type !== 'reasoning-end') {
          current = index;
          break;
        }
      }
      syncWindow();
    };

    const releaseAll = () => {
      for (let next = takeLowestHeld(); next; next = takeLowestHeld()) next[1].forEach(release);
      current = undefined;
      syncWindow();
    };

    // The window runs while anything is held, from when the first held entry arrived; when it
    // passes, everything held leaves, so no entry waits longer than windowMs.
    const syncWindow = () => {
      if (held.size === 0) {
        windowTimer?.unsubscribe();
        windowTimer = undefined;
      } else if (!windowTimer) {
        windowTimer = scheduler.schedule(() => {
          windowTimer = undefined;
          releaseAll();
        }, windowMs);
      }
    };

    const onEntry = (entry: ReasoningEntry) => {
      const { index } = entry;
      const passes =
        index === current ||
        (current === undefined ? index <= highestReleased + 1 : index < current);
      if (!passes) {
        const entries = held.get(index);
        if (entries) entries.push(entry);
        else held.set(index, [entry]);
        return syncWindow();
      }
      // A late entry of a lower index passes without taking over from the frontier.
      if (current === undefined && index >= highestReleased) current = index;
      release(entry);
      if (entry.type === 'reasoning-end' && index === current) advance();
    };

    return {
      next(event) {
        if (isReasoningEntry(event)) return onEntry(event);
        // The common case, nothing held (so no window timer either): pass at once.
        if (held.size === 0) current = undefined;
        else releaseAll();
        subscriber.next(event);
      },
      error(error) {
        releaseAll();
        subscriber.error(error);
      },
      complete() {
        releaseAll();
        subscriber.complete();
      },
      teardown() {
        windowTimer?.unsubscribe();
        held.clear();
      },
    };
  };
}
