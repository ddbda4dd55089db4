import type { MonoTypeOperatorFunction, SchedulerLike, Subscription } from 'rxjs';
import * as z from 'zod/mini';
import type { StreamEvent } from '../events';
import { createOperator, type OperatorStage } from '../internal/createOperator';
import { durationOption, parseOptions, schedulerOption } from '../internal/options';
import { createPartialJsonParser, type PartialJsonParser } from '../json/partialJson';
import { isTerminal } from '../terminalEvents';

const PartialToolInputOptions = z.object({
  intervalMs: z._default(durationOption, 100),
  scheduler: schedulerOption,
});

/** Options of {@link partialToolInput}. */
export interface PartialToolInputOptions {
  /** The shortest time between two partial views of one call. @defaultValue 100 */
  intervalMs?: number;
  /** Where the interval timers run. @defaultValue asyncScheduler */
  scheduler?: SchedulerLike;
}

/** One streaming call: its parse state and its open interval, if any. */
interface CallState {
  parser: PartialJsonParser;
  window: Subscription | undefined;
}

/**
 * Adds `tool-input-partial { id, value }` events: a streaming tool call's arguments parsed so
 * far, for UIs that show a tool's input while the model writes it.
 *
 * ```
 * partialToolInput({ intervalMs: 8 })
 * source:   -s 2ms a 4ms b----c 4ms d 3ms t|       a, b, c, d = deltas of one call, t = tool-call
 * result:   -s 2ms (ap)-b--x-c 4ms dy 3ms t|       p = at once, x / y = at the end of each interval
 * ```
 *
 * - Each call (by `id`) is parsed incrementally: every character of its input is read once, so
 *   a call costs O(its input length) however finely it is split (`bench/partialJson.bench.ts`).
 * - What a view shows: containers as soon as they open, an object key once its name is complete
 *   and its value has begun, strings growing, numbers and `true` / `false` / `null` only once
 *   complete. A view never shows what the final value will not hold.
 * - Pacing per call: the first change goes out at once, right after its delta; later changes
 *   within `intervalMs` wait for the interval's end and go out as one view. Calls are paced
 *   independently. A delta that changes nothing visible (half a key) emits nothing.
 * - At the call's `tool-call`, a view not yet shown goes out just before it: that last view
 *   equals `JSON.parse` of the whole input. At a terminal, completion or error, views not yet
 *   shown go out first.
 * - An input that stops being JSON gets one `warning` `tool-input-invalid` (with the offset) and
 *   no more views; its `tool-call` says the rest. Every event passes on unchanged, in order.
 * - Unsubscribing cancels every interval timer.
 *
 * @example
 * ```ts
 * streamEvents(response).pipe(partialToolInput({ intervalMs: 50 })).subscribe((event) => {
 *   if (event.type === 'tool-input-partial') showToolInput(event.id, event.value);
 * });
 * ```
 * @param options - {@link PartialToolInputOptions}
 */
export function partialToolInput(
  options: PartialToolInputOptions = {},
): MonoTypeOperatorFunction<StreamEvent> {
  return createOperator(partialToolInputStage(options));
}

/** The logic of {@link partialToolInput} without its RxJS shell (options checked here, at once). */
export function partialToolInputStage(
  options: PartialToolInputOptions = {},
): OperatorStage<StreamEvent, StreamEvent> {
  const { intervalMs, scheduler } = parseOptions(
    'partialToolInput',
    PartialToolInputOptions,
    options,
  );
  return ({ subscriber }) => {
    const calls = new Map<string, CallState>();

    const emitView = (id: string, state: CallState): void => {
      subscriber.next({ type: 'tool-input-partial', id, value: state.parser.value() });
    };

    // The interval after a view: a change made during it goes out at its end, and opens the next.
    const openWindow = (id: string, state: CallState): void => {
      state.window = scheduler.schedule(() => {
        state.window = undefined;
        if (state.parser.error || !state.parser.changed) return;
        emitView(id, state);
        openWindow(id, state);
      }, intervalMs);
    };

    const stateOf = (id: string): CallState => {
      let state = calls.get(id);
      if (!state) calls.set(id, (state = { parser: createPartialJsonParser(), window: undefined }));
      return state;
    };

    const read = (id: string, delta: string): void => {
      const state = stateOf(id);
      const { parser } = state;
      if (parser.error) return;
      const failure = parser.push(delta);
      if (failure) {
        state.window?.unsubscribe();
        subscriber.next({
          type: 'warning',
          code: 'tool-input-invalid',
          message: `partialToolInput: the input of tool call ${id} is not JSON (${failure.message}); no more partial views of it.`,
          detail: { id, offset: failure.offset },
        });
      } else if (parser.changed && !state.window) {
        emitView(id, state);
        openWindow(id, state);
      }
    };

    /** The call ended (`tool-call`, `finish` marks the input whole) or the stream did. */
    const close = (id: string, state: CallState, whole: boolean): void => {
      state.window?.unsubscribe();
      calls.delete(id);
      if (whole) state.parser.finish();
      if (!state.parser.error && state.parser.changed) emitView(id, state);
    };

    const closeAll = (): void => {
      for (const [id, state] of [...calls]) close(id, state, false);
    };

    return {
      next(event) {
        if (event.type === 'tool-input-start') stateOf(event.id);
        else if (event.type === 'tool-call') {
          const state = calls.get(event.id);
          if (state) close(event.id, state, true);
        } else if (isTerminal(event)) closeAll();
        subscriber.next(event);
        if (event.type === 'tool-input-delta') read(event.id, event.delta);
      },
      complete() {
        closeAll();
        subscriber.complete();
      },
      error(error) {
        closeAll();
        subscriber.error(error);
      },
      teardown() {
        for (const state of calls.values()) state.window?.unsubscribe();
        calls.clear();
      },
    };
  };
}
