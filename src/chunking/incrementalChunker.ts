// The incremental block chunker: appended text in, blocks out. The text it holds and the cut
// itself live in HeldText (heldText.ts); this file chooses where to cut, looking only at a few
// ends of the scanner's break queues, never at the text. Options are checked by
// createBlockChunker (blockChunker.ts), which documents the behaviour.

import { type BlockChunker, type BlockReason, type ChunkBlock } from './chunkingOptions';
import type { TableRegion } from './fenceTracker';
import { closerLength, HeldText, type ParsedOptions } from './heldText';

export type { ParsedOptions } from './heldText';

/** In mode `end`, appended text is scanned once this much has gathered. */
const END_MODE_SCAN_BATCH = 1024;

/**
 * The state and cut logic behind createBlockChunker (blockChunker.ts documents the rules).
 *
 * A class, not a closure factory: `append` and the drain run for every delta. As prototype
 * methods their optimized code is shared by all chunkers and survives a GC that frees one; as
 * closures each chunker had its own functions, re-optimized from scratch after every full GC.
 */
export class IncrementalChunker extends HeldText implements BlockChunker {
  private readonly minChars: number;
  private readonly flushOnParagraph: boolean;
  private readonly mode: 'stream' | 'end';
  private readonly earlyKinds: number;
  // The longest synthetic closer a block can get: a fence gets a reopen line (and so a closer)
  // only when its marker fits twice in maxChars (see reopenLine).
  private readonly longestCloser: number;
  // The window [low, high] of block ends that respect minChars and maxChars (set by `window`,
  // kept in two fields rather than a fresh tuple on every delta).
  private low = 0;
  private high = 0;

  // Kept alive for the module's life, so V8 keeps the hidden classes of a chunker's objects: after
  // a full GC freed every chunker, the next got new ones and all optimized code was rebuilt.
  // Stryker disable all: cost only, nothing reads this chunker, so its options change no output
  static readonly keepsHiddenClasses = new IncrementalChunker({
    minChars: 0,
    maxChars: 16,
    breakPreference: 'paragraph',
    flushOnParagraph: false,
    mode: 'stream',
  });
  // Stryker restore all

  constructor(options: ParsedOptions) {
    super(options);
    const { minChars, maxChars, breakPreference } = options;
    this.minChars = minChars;
    this.flushOnParagraph = options.flushOnParagraph;
    this.mode = options.mode;
    this.earlyKinds = breakPreference === 'paragraph' ? 1 : breakPreference === 'newline' ? 2 : 3;
    this.longestCloser = (maxChars - 1) >> 1;
  }

  append(text: string): ChunkBlock[] {
    const blocks: ChunkBlock[] = [];
    this.appendTo(text, blocks);
    return blocks;
  }

  /** `append`, with the blocks pushed onto `blocks`: no array per delta (bufferChunk's path). */
  appendTo(text: string, blocks: ChunkBlock[]): void {
    if (text === '') return;
    this.unscanned[this.unscannedCount++] = text;
    this.unscannedLength += text.length;
    // Deltas are read in batches while no cut can be due: one scanner call over a few hundred
    // characters costs far less than one per 1–8 character delta. The result is the same: the
    // scanner reads text the same however it is split, and the cut waits for a break anyway.
    // Stryker disable next-line BlockStatement: cost only, mode end cuts nothing before a flush
    if (this.mode === 'end') {
      // Stryker disable next-line all: cost only, the batch size (as above)
      if (this.unscannedLength >= END_MODE_SCAN_BATCH) this.scanAppended();
    } else if (!this.noCutPossible()) {
      this.scanAppended();
      this.drainStreaming(blocks);
    }
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
    this.reset();
    return blocks;
  }

  get holding(): boolean {
    this.scanAppended();
    return this.scanner.contentEnd > this.cursor;
  }

  private window(end: number): void {
    const prefix = this.prefix.length;
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
    const breaks = this.scanner.breaks;
    // The best break would end the block with a heading or a bare list marker: cut at the line
    // break before instead, even below minChars.
    if (
      breaks.headingEnd.lastInRange(low, high) > 0 ||
      breaks.listMarker.lastInRange(low, high) > 0 ||
      breaks.headingWhitespace.lastInRange(low, high) > 0
    ) {
      const before = Math.max(
        breaks.paragraph.lastInRange(cursor + 1, high),
        breaks.newline.lastInRange(cursor + 1, high),
      );
      if (before > 0) return this.cut(blocks, before, null, reason);
    }
    const region = this.scanner.regionContaining(high, cursor);
    if (region && region.breakBefore > cursor) {
      return this.cut(blocks, region.breakBefore, null, reason);
    }
    if (region?.kind === 'table') {
      // The repeated header leaves no room for the next row: this block goes without it
      // rather than cut that row (the drain measures the block again).
      if (region === this.startTable && breaks.tableNewline.lastInRange(cursor + 1, high) < 0) {
        this.startTable = null;
        this.prefix = '';
        return;
      }
      const position = this.tableCut(region, low, high);
      if (position > 0) return this.cut(blocks, position, null, reason);
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
      // (A `hard` at or before codeStart reads as blank: no code to cut.)
      if (!this.isBlank(codeStart, hard)) {
        return this.cut(blocks, hard, region, reason);
      }
    }
    // A heading just before a region (a fence, a marker line) that cannot share its block with
    // it: the heading goes alone.
    const heading = region ? breaks.headingEnd.lastInRange(cursor + 1, region.start) : -1;
    if (heading > 0) return this.cut(blocks, heading, null, reason);
    if (region?.kind === 'heading') {
      // A heading longer than a block: between two of its words rather than through one.
      const inHeading = breaks.headingWhitespace.lastInRange(low, high);
      if (inHeading > 0) return this.cut(blocks, inHeading, null, reason);
    }
    // A hard cut right after a heading or a list marker (only whitespace between) would end
    // the block with it: cut at the line break before it instead.
    // (Failing a line break, after the headings the block starts with: they go alone.)
    const hard = Math.max(this.notInsidePair(high), cursor + 1);
    const held = Math.max(
      breaks.headingEnd.lastInRange(cursor + 1, hard),
      breaks.listMarker.lastInRange(cursor + 1, hard),
    );
    if (held > 0 && this.isBlank(held, hard)) {
      let before = Math.max(
        breaks.paragraph.lastInRange(cursor + 1, held),
        breaks.newline.lastInRange(cursor + 1, held),
      );
      if (before < 0) before = breaks.headingEnd.lastInRange(cursor + 1, held - 1);
      if (before > 0) return this.cut(blocks, before, null, reason);
    }
    this.cut(blocks, hard, null, reason);
  }

  /**
   * Where to cut inside a table that does not fit, or -1: after the last row that ends in reach
   * (even below minChars); else after a heading just before the table (it goes alone rather
   * than part the header from its delimiter row); else between the header and delimiter rows;
   * else between two words of a row.
   */
  private tableCut(table: TableRegion, low: number, high: number): number {
    const breaks = this.scanner.breaks;
    const cursor = this.cursor;
    const row = breaks.tableNewline.lastInRange(cursor + 1, high);
    if (row > 0) return row;
    const heading = breaks.headingEnd.lastInRange(cursor + 1, table.start);
    if (heading > 0) return heading;
    if (table.firstRowEnd > cursor && table.firstRowEnd <= high) return table.firstRowEnd;
    return breaks.tableWhitespace.lastInRange(low, high);
  }

  /**
   * True while no cut can be due, however the appended text reads: an early cut needs a break at
   * ≥ minChars, a forced one a block past maxChars, and neither fits in the text from the cursor
   * on. (Settling the cursor only moves it on and drops the reopen line: still no cut.)
   */
  private noCutPossible(): boolean {
    const held = this.bufferStart + this.buffer.length + this.unscannedLength - this.cursor;
    const prefix = this.prefix.length;
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
