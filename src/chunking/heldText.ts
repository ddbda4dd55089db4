// The text a block chunker holds and how a cut is made: the buffer of unsent text, the cursor
// where the next block starts, the lines that block starts with (a reopened fence, a repeated
// table header), and the cut itself. Which cut to make is IncrementalChunker's job.

import type { z } from 'zod';
import { cutsSurrogatePair } from '../text/surrogates';
import { dropBreaksThrough, type BreakQueue } from './breakPoints';
import type { BlockChunkerOptions, BlockReason, ChunkBlock } from './chunkingOptions';
import type { FenceRegion, TableRegion } from './fenceTracker';
import { createMarkdownScanner, type MarkdownScanner } from './markdownScanner';
import { recordBlockOrigin } from './blockOrigin';

/** createBlockChunker's options, checked and with defaults filled in. */
export type ParsedOptions = z.output<typeof BlockChunkerOptions>;

// A GFM delimiter row: cells of dashes, optionally aligned with colons, between pipes. (Its
// leading pipe is not optional here: the line tracker reads a line as a table row only when its
// first character is one.)
const DELIMITER_ROW = /^ {0,3}\|[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

/** The held text and the cut mechanics (see the file comment); subclassed by the chunker. */
export abstract class HeldText {
  protected readonly maxChars: number;
  protected scanner: MarkdownScanner;
  // The free break queues of the current scanner, best kind first.
  protected freeQueues: BreakQueue[];
  // Appended text the scanner has not read yet (see `append`): the first `unscannedCount`
  // entries of `unscanned` (never shrunk), and its length; it joins `buffer` once read. An
  // array rather than `+=`: no string per delta.
  protected unscanned: string[] = [];
  protected unscannedCount = 0;
  protected unscannedLength = 0;
  protected buffer = '';
  protected bufferStart = 0;
  protected cursor = 0;
  protected needsSkip = true;
  // The fence the next block starts inside (it gets the reopen line), or null.
  protected startFence: FenceRegion | null = null;
  // The table the next block starts inside, when it gets the table's header rows; or null.
  protected startTable: TableRegion | null = null;
  // The lines the next block starts with (reopen line or header rows, with a line feed), or ''.
  protected prefix = '';
  // Where the last block of this text part ended (its model text is recorded up to there), or
  // -1 before the first block.
  protected lastBlockEnd = -1;

  protected constructor(options: ParsedOptions) {
    this.maxChars = options.maxChars;
    this.scanner = createMarkdownScanner(options.maxChars);
    this.freeQueues = freeQueuesOf(this.scanner);
  }

  /** Forgets everything: the next text is a new part. */
  protected reset(): void {
    this.scanner = createMarkdownScanner(this.maxChars);
    this.freeQueues = freeQueuesOf(this.scanner);
    this.buffer = '';
    this.bufferStart = 0;
    this.cursor = 0;
    this.needsSkip = true;
    this.startFence = null;
    this.startTable = null;
    this.prefix = '';
    this.lastBlockEnd = -1;
  }

  protected scanAppended(): void {
    if (this.unscannedLength === 0) return;
    const pieces = this.unscanned;
    const count = this.unscannedCount;
    const text =
      count === 1
        ? pieces[0]
        : count === pieces.length
          ? pieces.join('')
          : pieces.slice(0, count).join('');
    this.unscannedCount = 0;
    this.unscannedLength = 0;
    this.scanner.scan(text);
    this.buffer += text;
  }

  protected fenceOpenAt(end: number): FenceRegion | null {
    const fence = this.scanner.openFence;
    return fence && end > fence.start ? fence : null;
  }

  protected blockLength(end: number): number {
    return this.prefix.length + (end - this.cursor) + closerLength(this.fenceOpenAt(end));
  }

  /** Moves the cursor past whitespace (keeping a line's indentation); false if none is left. */
  protected settleCursor(end: number): boolean {
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
      // A table cut after a row that turned out to be its last: no header for what follows.
      const table = this.startTable;
      if (table && table.end <= this.cursor) {
        this.startTable = null;
        this.prefix = '';
      }
      const fence = this.startFence;
      // The rest of a reopened fence is only its closer: the last block's closer stands for it.
      if (fence && fence.end !== Infinity && fence.lastContentEnd <= this.cursor) {
        this.cursor = fence.end;
        this.startFence = null;
        this.prefix = '';
        this.needsSkip = true;
        continue;
      }
      return true;
    }
  }

  /** Sends the held text up to `end` (closing `fence` at the block's end when given). */
  protected cut(blocks: ChunkBlock[], end: number, fence: FenceRegion | null, reason: BlockReason) {
    const bufferStart = this.bufferStart;
    const raw = this.buffer.slice(this.cursor - bufferStart, end - bufferStart);
    const body = raw.trimEnd();
    if (body !== '') {
      const closer = fence?.reopen ? `\n${fence.marker}` : '';
      const block = { text: this.prefix + body + closer, reason };
      const continues = this.lastBlockEnd >= 0;
      const lead = continues
        ? this.buffer.slice(this.lastBlockEnd - bufferStart, this.cursor - bufferStart)
        : '';
      recordBlockOrigin(block, { continues, lead, body: raw, prefix: this.prefix, closer });
      this.lastBlockEnd = end;
      blocks.push(block);
    }
    this.startFence = fence?.reopen ? fence : null;
    this.startTable = this.startFence ? null : this.tableContinuedAt(end);
    this.prefix = this.startFence
      ? `${this.startFence.reopen}\n`
      : this.startTable
        ? this.startTable.header!
        : '';
    this.cursor = end;
    this.needsSkip = true;
    dropBreaksThrough(this.scanner.breaks, end);
    // Let go of sent text once it is most of the buffer: amortised O(1) per character.
    // (Never past the last block's end: the next block's origin reads the text from there.)
    const keepFrom = this.lastBlockEnd >= 0 ? Math.min(end, this.lastBlockEnd) : end;
    const sent = keepFrom - bufferStart;
    // Stryker disable next-line all: memory only, the text from keepFrom on stays either way
    if (sent > 1024 && sent * 2 > this.buffer.length) {
      this.buffer = this.buffer.slice(sent);
      this.bufferStart = keepFrom;
    }
  }

  /**
   * The table whose rows go on after a cut at `end`, when the next block repeats its header
   * and delimiter rows: a GFM table, cut after those rows, whose header takes at most half of
   * maxChars (a longer one is cut without it). Reads the header once per table.
   */
  private tableContinuedAt(end: number): TableRegion | null {
    const region = this.scanner.regionContaining(end, this.cursor);
    if (region?.kind !== 'table' || region.headerEnd < 0 || end < region.headerEnd) return null;
    if (region.header === undefined) {
      region.header = '';
      if (region.start >= this.bufferStart) {
        const from = region.start - this.bufferStart;
        const rows = this.buffer.slice(from, region.headerEnd - this.bufferStart);
        const lineFeed = rows.indexOf('\n');
        const header = `${rows.slice(0, lineFeed).trimEnd()}\n${rows.slice(lineFeed + 1)}\n`;
        const delimiter = rows.slice(lineFeed + 1);
        if (DELIMITER_ROW.test(delimiter) && header.length * 2 <= this.maxChars) {
          region.header = header;
        }
      }
    }
    return region.header === '' ? null : region;
  }

  /** True when the held text in [from, to) is only whitespace (a hard cut, so rare). */
  protected isBlank(from: number, to: number): boolean {
    return this.buffer.slice(from - this.bufferStart, to - this.bufferStart).trim() === '';
  }

  /** `position`, moved back one if it would split a surrogate pair. */
  protected notInsidePair(position: number): number {
    return cutsSurrogatePair(this.buffer, position - this.bufferStart) ? position - 1 : position;
  }
}

/** Length of the closer a block gets when it ends inside `fence`. */
export function closerLength(fence: FenceRegion | null): number {
  return fence?.reopen ? fence.marker.length + 1 : 0;
}

function freeQueuesOf(scanner: MarkdownScanner): BreakQueue[] {
  const { paragraph, newline, sentence, whitespace } = scanner.breaks;
  return [paragraph, newline, sentence, whitespace];
}
