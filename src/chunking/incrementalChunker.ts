// The incremental block chunker: appended text in, blocks out. It keeps the text it holds and
// the scanner's break queues; choosing a cut looks only at a few queue ends, never at the text.
// Options are checked by createBlockChunker (blockChunker.ts), which documents the behaviour.

import type * as z from 'zod/mini';
import { dropBreaksThrough, type BreakQueue } from './breakPoints';
import {
  type BlockChunkerOptions,
  type BlockChunker,
  type BlockReason,
  type ChunkBlock,
} from './chunkingOptions';
import type { FenceRegion } from './fenceTracker';
import { createMarkdownScanner, type MarkdownScanner } from './markdownScanner';

/** In mode `end`, appended text is scanned once this much has gathered. */
const END_MODE_SCAN_BATCH = 1024;

/** createBlockChunker's options, checked and with defaults filled in. */
export type ParsedOptions = z.output<typeof BlockChunkerOptions>;

/**
 * The state and cut logic behind createBlockChunker (blockChunker.ts documents the rules).
 *
 * A class, not a closure factory: `append` and the drain run for every delta. As prototype
 * methods their optimized code is shared by all chunkers and survives a GC that frees one; as
 * closures each chunker had its own functions, re-optimized from scratch after every full GC.
 */
export class IncrementalChunker implements BlockChunker {
  private readonly minChars: number;
  private readonly maxChars: number;
  private readonly flushOnParagraph: boolean;
  private readonly mode: 'stream' | 'end';
  private readonly earlyKinds: number;
  // The longest synthetic closer a block can get: a fence gets a reopen line (and so a closer)
  // only when its marker fits twice in maxChars (see reopenLine).
  private readonly longestCloser: number;
  private scanner: MarkdownScanner;
  // The free break queues of the current scanner, best kind first.
  private freeQueues: BreakQueue[];
  // Appended text the scanner has not read yet (see `append`); it joins `buffer` once read.
  private unscanned = '';
  private buffer = '';
  private bufferStart = 0;
  private cursor = 0;
  private needsSkip = true;
  // The fence the next block starts inside (it gets the reopen line), or null.
  private startFence: FenceRegion | null = null;
  // The window [low, high] of block ends that respect minChars and maxChars (set by `window`,
  // kept in two fields rather than a fresh tuple on every delta).
  private low = 0;
  private high = 0;

  // Kept alive for the module's life, so V8 keeps the hidden classes of a chunker's objects: after
  // a full GC freed every chunker, the next got new ones and all optimized code was rebuilt.
  static readonly keepsHiddenClasses = new IncrementalChunker({
    minChars: 0,
    maxChars: 16,
    breakPreference: 'paragraph',
    flushOnParagraph: false,
    mode: 'stream',
  });

  constructor(options: ParsedOptions) {
    const { minChars, maxChars, breakPreference } = options;
    this.minChars = minChars;
    this.maxChars = maxChars;
    this.flushOnParagraph = options.flushOnParagraph;
    this.mode = options.mode;
    this.earlyKinds = breakPreference === 'paragraph' ? 1 : breakPreference === 'newline' ? 2 : 3;
    this.longestCloser = (maxChars - 1) >> 1;
    this.scanner = createMarkdownScanner(maxChars);
    this.freeQueues = freeQueuesOf(this.scanner);
  }

  append(text: string): ChunkBlock[] {
    const blocks: ChunkBlock[] = [];
    if (text === '') return blocks;
    this.unscanned += text;
    // Deltas are read in batches while no cut can be due: one scanner call over a few hundred
    // characters costs far less than one per 1–8 character delta. The result is the same: the
    // scanner reads text the same however it is split, and the cut waits for a break anyway.
    if (this.mode === 'end') {
      if (this.unscanned.length >= END_MODE_SCAN_BATCH) this.scanAppended();
    } else if (!this.noCutPossible()) {
      this.scanAppended();
      this.drainStreaming(blocks);
    }
    return blocks;
  }

  flush(reason: BlockReason): ChunkBlock[] {
    const blocks: ChunkBlock[] = [];
    this.scanAppended();
    this.drainAll(blocks, this.scanner.safeFlushEnd(), reason);
    return blocks;
  }

  end(reason: BlockReason): ChunkBlock[] {
    const blocks: ChunkBlock[] = [];
    this.scanAppended();
    this.scanner.finish();
    this.drainAll(blocks, this.scanner.contentEnd, reason);
    this.scanner = createMarkdownScanner(this.maxChars);
    this.freeQueues = freeQueuesOf(this.scanner);
    this.buffer = '';
    this.bufferStart = 0;
    this.cursor = 0;
    this.needsSkip = true;
    this.startFence = null;
    return blocks;
  }

  get holding(): boolean {
    this.scanAppended();
    return this.scanner.contentEnd > this.cursor;
  }

  private prefixLength(): number {
    const fence = this.startFence;
    return fence?.reopen ? fence.reopen.length + 1 : 0;
  }

  private fenceOpenAt(end: number): FenceRegion | null {
    const fence = this.scanner.openFence;
    return fence && end > fence.start ? fence : null;
  }

  private blockLength(end: number): number {
    return this.prefixLength() + (end - this.cursor) + closerLength(this.fenceOpenAt(end));
  }

  /** Moves the cursor past whitespace (keeping a line's indentation); false if none is left. */
  private settleCursor(end: number): boolean {
    for (;;) {
      if (this.needsSkip) {
        const buffer = this.buffer;
        const bufferStart = this.bufferStart;
        let position = this.cursor;
        let lineStart = -1;
        while (position < end) {
          const char = buffer.charCodeAt(position - bufferStart);
          if (char === 10) lineStart = position + 1;
          else if (char !== 32 && char !== 9 && char !== 13 && char !== 11 && char !== 12) break;
          position++;
        }
        if (position >= end) return false;
        this.cursor = lineStart >= 0 ? lineStart : position;
        this.needsSkip = false;
      }
      const fence = this.startFence;
      // The rest of a reopened fence is only its closer: the last block's closer stands for it.
      if (fence && fence.end !== Infinity && fence.lastContentEnd <= this.cursor) {
        this.cursor = fence.end;
        this.startFence = null;
        this.needsSkip = true;
        continue;
      }
      return true;
    }
  }

  private cut(blocks: ChunkBlock[], end: number, fence: FenceRegion | null, reason: BlockReason) {
    const bufferStart = this.bufferStart;
    const body = this.buffer.slice(this.cursor - bufferStart, end - bufferStart).trimEnd();
    if (body.trim() !== '') {
      const opener = this.startFence?.reopen ? `${this.startFence.reopen}\n` : '';
      const closer = fence?.reopen ? `\n${fence.marker}` : '';
      blocks.push({ text: opener + body + closer, reason });
    }
    this.cursor = end;
    this.startFence = fence?.reopen ? fence : null;
    this.needsSkip = true;
    dropBreaksThrough(this.scanner.breaks, end);
    // Let go of sent text once it is most of the buffer: amortised O(1) per character.
    const sent = end - bufferStart;
    if (sent > 1024 && sent * 2 > this.buffer.length) {
      this.buffer = this.buffer.slice(sent);
      this.bufferStart = end;
    }
  }

  private window(end: number): void {
    const prefix = this.prefixLength();
    this.low = this.cursor + Math.max(1, this.minChars - prefix);
    this.high = Math.min(this.cursor + this.maxChars - prefix, end);
  }

  private cutEarly(blocks: ChunkBlock[], end: number): boolean {
    this.window(end);
    for (let kind = 0; kind < this.earlyKinds; kind++) {
      const position = this.freeQueues[kind].lastInRange(this.low, this.high);
      if (position > 0) {
        this.cut(blocks, position, null, 'size');
        return true;
      }
    }
    return false;
  }

  private cutAtFirstParagraph(blocks: ChunkBlock[], end: number, reason: BlockReason): boolean {
    this.window(end);
    const position = this.scanner.breaks.paragraph.firstInRange(this.low, this.high);
    if (position > 0) this.cut(blocks, position, null, reason);
    return position > 0;
  }

  /** The held text does not fit in one block: cut the best way there is. */
  private cutForced(blocks: ChunkBlock[], end: number, reason: BlockReason): void {
    this.window(end);
    const { low, high, cursor } = this;
    for (const queue of this.freeQueues) {
      const position = queue.lastInRange(low, high);
      if (position > 0) return this.cut(blocks, position, null, reason);
    }
    const region = this.scanner.regionContaining(high, cursor);
    if (region && region.breakBefore > cursor) {
      return this.cut(blocks, region.breakBefore, null, reason);
    }
    const breaks = this.scanner.breaks;
    if (region?.kind === 'table') {
      for (const queue of [breaks.tableNewline, breaks.tableWhitespace]) {
        const position = queue.lastInRange(low, high);
        if (position > 0) return this.cut(blocks, position, null, reason);
      }
    }
    if (region?.kind === 'fence' && region.reopen !== null && high > region.contentStart) {
      const codeHigh = high - closerLength(region);
      for (const queue of [breaks.fenceNewline, breaks.fenceWhitespace]) {
        const position = queue.lastInRange(low, codeHigh);
        if (position > 0) return this.cut(blocks, position, region, reason);
      }
      // A hard cut in the code, never past its last character (a closer-only rest is skipped).
      const lastCode = region.closerStart === Infinity ? Infinity : region.lastContentEnd;
      const hard = this.notInsidePair(Math.min(codeHigh, lastCode));
      const codeStart = Math.max(cursor, region.contentStart);
      if (hard > codeStart && !this.isBlank(codeStart, hard)) {
        return this.cut(blocks, hard, region, reason);
      }
    }
    this.cut(blocks, Math.max(this.notInsidePair(high), cursor + 1), null, reason);
  }

  /** True when the held text in [from, to) is only whitespace (a hard cut, so rare). */
  private isBlank(from: number, to: number): boolean {
    return this.buffer.slice(from - this.bufferStart, to - this.bufferStart).trim() === '';
  }

  /** `position`, moved back one if it would split a surrogate pair. */
  private notInsidePair(position: number): number {
    const before = this.buffer.charCodeAt(position - 1 - this.bufferStart);
    return before >= 0xd800 && before <= 0xdbff ? position - 1 : position; // a high surrogate
  }

  private scanAppended(): void {
    if (this.unscanned === '') return;
    this.scanner.scan(this.unscanned);
    this.buffer += this.unscanned;
    this.unscanned = '';
  }

  /**
   * True while no cut can be due, however the appended text reads: an early cut needs a break at
   * ≥ minChars, a forced one a block past maxChars, and neither fits in the text from the cursor
   * on. (Settling the cursor only moves it on and drops the reopen line: still no cut.)
   */
  private noCutPossible(): boolean {
    const held = this.bufferStart + this.buffer.length + this.unscanned.length - this.cursor;
    const prefix = this.prefixLength();
    return (
      held < Math.max(1, this.minChars - prefix) &&
      prefix + held + this.longestCloser <= this.maxChars
    );
  }

  private drainStreaming(blocks: ChunkBlock[]): void {
    for (;;) {
      const end = this.scanner.contentEnd;
      if (end <= this.cursor || !this.settleCursor(end)) return;
      if (this.blockLength(end) > this.maxChars) this.cutForced(blocks, end, 'size');
      else if (!(this.flushOnParagraph && this.cutAtFirstParagraph(blocks, end, 'paragraph'))) {
        if (!this.cutEarly(blocks, end)) return;
      }
    }
  }

  private drainAll(blocks: ChunkBlock[], end: number, reason: BlockReason): void {
    while (end > this.cursor && this.settleCursor(end)) {
      if (this.blockLength(end) > this.maxChars) this.cutForced(blocks, end, reason);
      else if (!(this.flushOnParagraph && this.cutAtFirstParagraph(blocks, end, reason))) {
        this.cut(blocks, end, this.fenceOpenAt(end), reason);
      }
    }
  }
}

function closerLength(fence: FenceRegion | null): number {
  return fence?.reopen ? fence.marker.length + 1 : 0;
}

function freeQueuesOf(scanner: MarkdownScanner): BreakQueue[] {
  const { paragraph, newline, sentence, whitespace } = scanner.breaks;
  return [paragraph, newline, sentence, whitespace];
}
