import type { SchedulerLike, Subscription } from 'rxjs';
import { createLiveText } from '../chunking/liveText';
import type { BlockEvent, StreamEvent } from '../events';
import type { OperatorStage } from '../internal/createOperator';
import { isTerminal } from '../terminalEvents';

/** Settings of {@link liveChunkStage} (checked by `channel()`). */
export interface LiveChunkSettings {
  /** Text goes out at most this long after its delta. */
  liveIntervalMs: number;
  scheduler: SchedulerLike;
}

/**
 * What `channel(name, { live: true })` runs in place of bufferChunk: small `block` events, as
 * the model writes, whole words only.
 *
 * ```
 * liveIntervalMs 5
 * source:   -a-b--c 10ms |      a = "Hel"  b = "lo wo"  c = "rld"
 * result:   ------x------y|     x = block "Hello " (5 ms after a)  y = block "world" (5 ms quiet)
 * ```
 *
 * - The first delta held starts one timer of `liveIntervalMs`; when it fires, every whole word
 *   held goes out as one block (reason `size`), so a delta's text waits at most
 *   `liveIntervalMs`. Deltas arriving meanwhile join that block: one block per interval.
 * - A word's unfinished tail (no whitespace after it yet) stays held until its word ends, or
 *   until `liveIntervalMs` passed without a delta: then it goes out whole (reason `idle`).
 * - Before `tool-input-start`, `tool-start`, `text-end` and any terminal everything held goes
 *   out (`flush`); on completion (`end`); before an error (`flush`). Unsubscribe cancels the
 *   timer.
 * - The blocks joined in order are exactly the text: whitespace at a cut stays in the block
 *   before it (so join them with no separator: `toMessageEdits({ separator: '' })`).
 */
export function liveChunkStage({
  liveIntervalMs,
  scheduler,
}: LiveChunkSettings): OperatorStage<StreamEvent, StreamEvent> {
  return ({ subscriber }) => {
    const held = createLiveText();
    let seq = 0;
    let timer: Subscription | undefined;
    let lastDeltaAt = -Infinity;

    const emit = (text: string, reason: BlockEvent['reason']) => {
      if (text !== '') subscriber.next({ type: 'block', text, seq: seq++, reason });
    };
    const cancel = () => {
      timer?.unsubscribe();
      timer = undefined;
    };
    const onTimer = () => {
      timer = undefined;
      try {
        const quietFor = scheduler.now() - lastDeltaAt;
        if (quietFor >= liveIntervalMs) return emit(held.takeAll(), 'idle');
        emit(held.takeWords(), 'size');
        if (held.holding) timer = scheduler.schedule(onTimer, liveIntervalMs - quietFor);
      } catch (error) {
        subscriber.error(error);
      }
    };

    return {
      next(event) {
        if (event.type === 'text-delta') {
          if (event.delta === '') return;
          held.append(event.delta);
          lastDeltaAt = scheduler.now();
          if (!timer) timer = scheduler.schedule(onTimer, liveIntervalMs);
          return;
        }
        const flushes =
          event.type === 'text-end' ||
          event.type === 'tool-input-start' ||
          event.type === 'tool-start' ||
          isTerminal(event);
        if (flushes) {
          cancel();
          emit(held.takeAll(), 'flush');
        }
        subscriber.next(event);
      },
      error(error) {
        cancel();
        emit(held.takeAll(), 'flush');
        subscriber.error(error);
      },
      complete() {
        cancel();
        emit(held.takeAll(), 'end');
        subscriber.complete();
      },
      teardown: cancel,
    };
  };
}
