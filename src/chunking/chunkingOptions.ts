// The public shapes of the block chunker: its options (bufferChunk adds its timer options to
// them), the block it yields, and its interface.

import * as z from 'zod/mini';

/** Why a block was cut (the `reason` of a `block` event). */
export type BlockReason = 'size' | 'paragraph' | 'idle' | 'flush' | 'end';

/** One block of text, ready to send. */
export interface ChunkBlock {
  text: string;
  reason: BlockReason;
}

/** The smallest maxChars: a split 3-backtick fence still has room for 8 characters of code. */
export const MIN_MAX_CHARS = 16;

/** The message when minChars > maxChars. */
export const MIN_ABOVE_MAX = 'minChars must not exceed maxChars';

/** Options of {@link createBlockChunker} (also the chunking options of bufferChunk). */
export const BlockChunkerOptions = z
  .object(chunkingOptionsShape())
  .check(z.refine(minNotAboveMax, { message: MIN_ABOVE_MAX, path: ['minChars'] }));
export type BlockChunkerOptions = z.input<typeof BlockChunkerOptions>;

/** The chunking fields, for schemas that add their own (bufferChunk adds idleMs, scheduler). */
export function chunkingOptionsShape() {
  return {
    minChars: z.int().check(z.nonnegative()),
    maxChars: z.int().check(
      z.gte(MIN_MAX_CHARS, {
        message: `maxChars must be at least ${MIN_MAX_CHARS}, to leave room for a fence closed at the end of a block and reopened in the next`,
      }),
    ),
    breakPreference: z._default(z.enum(['paragraph', 'newline', 'sentence']), 'paragraph'),
    flushOnParagraph: z._default(z.boolean(), false),
    mode: z._default(z.enum(['stream', 'end']), 'stream'),
  };
}

/** The cross-field rule of the chunking options. */
export function minNotAboveMax(options: { minChars: number; maxChars: number }): boolean {
  return options.minChars <= options.maxChars;
}

/** An incremental chunker for one stream of text (see {@link createBlockChunker}). */
export interface BlockChunker {
  /** Appends text; returns the blocks it completes (always none in mode `end`). */
  append(text: string): ChunkBlock[];
  /**
   * Sends what is held, even below minChars, keeping the markdown state: an open fence is
   * closed at the end of the block and reopened in the next. A last line that could still
   * become a fence opener or closer, a fence with no code yet, a trailing heading, a bare list
   * marker, a table row still being written or a table without its delimiter row yet stays held.
   */
  flush(reason: BlockReason): ChunkBlock[];
  /** The text is complete: sends everything and starts afresh for the next text. */
  end(reason: BlockReason): ChunkBlock[];
  /** True while some non-whitespace text is held. */
  readonly holding: boolean;
}
