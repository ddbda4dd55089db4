import type { MonoTypeOperatorFunction, SchedulerLike, Subscription } from 'rxjs';
import * as z from 'zod/mini';
import { createIncrementalChunker } from '../chunking/blockChunker';
import { blockOriginOf, recordBlockOrigin } from '../chunking/blockOrigin';
import {
  MIN_ABOVE_MAX,
  chunkingOptionsShape,
  minNotAboveMax,
  type ChunkBlock,
} from '../chunking/chunkingOptions';
import { type StreamEvent } from '../events';
import { isTerminal } from '../terminalEvents';
import { createOperator, type OperatorStage } from '../internal/createOperator';
import { durationOption, parseOptions, schedulerOption } from '../internal/options';

const BufferChunkOptions = z
  .object({
    ...chunkingOptionsShape(),
    idleMs: z.optional(durationOption),
    scheduler: schedulerOption,
  })
  .check(z.refine(minNotAboveMax, { message: MIN_ABOVE_MAX, path: ['minChars'] }));

/** Options of {@link bufferChunk}. */
export interface BufferChunkOptions {
  /** A block is not cut early below this many characters (the last block may be shorter). */
  minChars: number;
  /** No block is longer, synthetic fence lines included. At least 16 and ≥ minChars. */
  maxChars: number;
  /**
   * The finest break that may end a block before the held text passes maxChars (mode
   * `stream`): `paragraph` only blank lines, `newline` also line breaks, `sentence` also
   * sentence ends. Past maxChars every kind, then a hard cut, may be used.
   * @defaultValue `'paragraph'`
   */
  breakPreference?: 'paragraph' | 'newline' | 'sentence';
  /** Cut at the first paragraph break that gives ≥ minChars (reason `paragraph`). @defaultValue false */
  flushOnParagraph?: boolean;
  /** Send what is held, even below minChars, after this long without a delta. @defaultValue never */
  idleMs?: number;
  /** `stream`: cut while text arrives; `end`: hold it all and chunk it at `text-end` or the terminal. @defaultValue `'stream'` */
  mode?: 'stream' | 'end';
  /** Where the idle timer runs. @defaultValue asyncScheduler */
  scheduler?: SchedulerLike;
}

/**
 * Turns `text-delta` events into `block` events sized for a chat channel, fence- and
 * table-aware (see `createBlockChunker` for where a cut goes).
 *
 * ```
 * bufferChunk({ minChars: 100, maxChars: 200, idleMs: 5 })
 * source:   -a-b 10ms c-|          a = "Hel"  b = "lo"  c = "!"
 * result:   8ms x 7ms (y|)         x = block "Hello" (idle)   y = block "!" (end)
 * ```
 *
 * - Mode `stream` cuts as soon as the held text has a break of the preferred kind past
 *   minChars (reason `size`; `paragraph` with flushOnParagraph) or passes maxChars (`size`).
 *   Mode `end` holds everything and chunks it at `text-end` or the terminal.
 * - `idleMs` after the last delta, what is held goes out (`idle`), even below minChars; an open
 *   fence is closed at the end of that block and reopened in the next. A delta arriving in the
 *   same frame as the idle deadline comes too late: the idle block goes first, the delta starts
 *   the next block. A last line that could still become a fence line stays held, and so do a
 *   trailing heading, a bare list marker, a table row still being written and a table whose
 *   header and delimiter rows are not complete (they go out with what follows them).
 * - Before `tool-input-start`, `tool-start`, `text-end` and any terminal, the held text goes
 *   out (`flush`), then that event. `text-end` and terminals also end the markdown state (a
 *   fence still open is closed); the next text part starts afresh.
 * - `text-start`, `text-end` and every other event pass unchanged, in order, after the blocks
 *   cut before them; text still held does not delay them (`finish` is not a flush point).
 * - Source completes: held text goes out (`end`), then completion. Source errors: held text goes
 *   out (`flush`), then the error. Unsubscribe: the idle timer is cancelled, nothing held.
 * - `seq` counts blocks from 0 per subscription. Deltas of different text ids are one text.
 *
 * @example
 * ```ts
 * streamEvents(response).pipe(bufferChunk({ minChars: 800, maxChars: 4096, idleMs: 1000 }))
 *   .subscribe((event) => event.type === 'block' && bot.sendMessage(chatId, event.text));
 * ```
 * @param options - {@link BufferChunkOptions}; minChars ≤ maxChars, maxChars ≥ 16, checked at
 *   once (LlmRxError `invalid-options`)
 */
export function bufferChunk(options: BufferChunkOptions): MonoTypeOperatorFunction<StreamEvent> {
  return createOperator(bufferChunkStage(options));
}

/**
 * The logic of {@link bufferChunk} without its RxJS shell (options checked here, at once), for
 * `fuseStages`: `bufferChunk(options)` is `createOperator(bufferChunkStage(options))`.
 */
export function bufferChunkStage(
  options: BufferChunkOptions,
): OperatorStage<StreamEvent, StreamEvent> {
  const { idleMs, scheduler, ...chunking } = parseOptions(
    'bufferChunk',
    BufferChunkOptions,
    options,
  );
  return ({ subscriber }) => {
    const chunker = createIncrementalChunker(chunking);
    // What the next delta's cut collects into: taken (and replaced) only when it holds blocks.
    let collected: ChunkBlock[] = [];
    let seq = 0;
    // One idle timer while text is held; a delta only moves the deadline (the last delta's
    // time + idleMs). A timer that fires before the deadline waits out the rest, as RxJS's
    // debounceTime does: re-creating a timer on every delta cost more than the chunking itself.
    let idleTimer: Subscription | undefined;
    // In a Float64Array: a double written to a closure variable is a new heap number each time.
    const deadline = new Float64Array([Infinity]);

    const emit = (blocks: ChunkBlock[]) => {
      for (let index = 0; index < blocks.length; index++) {
        const block = blocks[index];
        const event: StreamEvent = {
          type: 'block',
          text: block.text,
          seq: seq++,
          reason: block.reason,
        };
        const origin = blockOriginOf(block);
        if (origin) recordBlockOrigin(event, origin);
        subscriber.next(event);
      }
    };
    const cancelIdle = () => {
      idleTimer?.unsubscribe();
      idleTimer = undefined;
      deadline[0] = Infinity;
    };
    const flushIdle = () => {
      cancelIdle();
      emit(chunker.flush('idle'));
    };
    const onIdleTimer = () => {
      try {
        const remaining = deadline[0] - scheduler.now();
        if (remaining > 0) idleTimer = scheduler.schedule(onIdleTimer, remaining);
        else flushIdle();
      } catch (error) {
        subscriber.error(error);
      }
    };
    const append = (delta: string) => {
      chunker.appendTo(delta, collected);
      if (collected.length === 0) return;
      // A new array before emitting: a block's subscriber may feed this operator again.
      const blocks = collected;
      collected = [];
      emit(blocks);
    };
    const onDelta = (delta: string) => {
      if (idleMs === undefined) return append(delta);
      const now = scheduler.now();
      // The deadline passed in this frame before the timer ran: the idle block goes first.
      if (idleTimer && now >= deadline[0]) flushIdle();
      append(delta);
      deadline[0] = now + idleMs;
      if (!idleTimer && chunker.holding) idleTimer = scheduler.schedule(onIdleTimer, idleMs);
    };

    return {
      next(event) {
        if (event.type === 'text-delta') return onDelta(event.delta);
        if (idleTimer && scheduler.now() >= deadline[0]) flushIdle();
        if (event.type === 'text-end' || isTerminal(event)) {
          cancelIdle();
          emit(chunker.end('flush'));
        } else if (event.type === 'tool-input-start' || event.type === 'tool-start') {
          cancelIdle();
          emit(chunker.flush('flush'));
        }
        subscriber.next(event);
      },
      error(error) {
        cancelIdle();
        emit(chunker.end('flush'));
        subscriber.error(error);
      },
      complete() {
        cancelIdle();
        emit(chunker.end('end'));
        subscriber.complete();
      },
      teardown: cancelIdle,
    };
  };
}
