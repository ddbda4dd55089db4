// The incremental block chunker: appended text in, blocks out. It keeps the text it holds and
// the scanner's break queues; choosing a cut looks only at a few queue ends, never at the text.

import { z } from 'zod';
import { LlmRxError } from '../errors';
import { dropBreaksThrough, type BreakQueue } from './breakPoints';
import {
  BlockChunkerOptions,
  type BlockChunker,
  type BlockReason,
  type ChunkBlock,
} from './chunkingOptions';
import type { FenceRegion } from './fenceTracker';
import { createMarkdownScanner, type MarkdownScanner } from './markdownScanner';

export type { BlockChunker, BlockChunkerOptions, BlockReason, ChunkBlock } from './chunkingOptions';

/**
 * A fence-aware, incremental markdown chunker (no RxJS): constant work per appended character.
 *
 * ```
 * minChars 5, maxChars 25, mode end
 * "Intro\n\n```bash\nline1\nline2\n```\n\nOutro"  →  "Intro" | "```bash\nline1\nline2\n```" | "Outro"
 * ```
 *
 * - A cut goes at the last break in [minChars, maxChars] of the best kind: paragraph > newline >
 *   sentence end > whitespace, else a hard cut at maxChars (never inside a surrogate pair).
 * - `breakPreference` is the finest kind that may end a block *early* (mode `stream`, held text
 *   still ≤ maxChars): `paragraph` (default) only paragraph breaks, `newline` also line breaks,
 *   `sentence` also sentence ends. Once the held text passes maxChars, every kind may be used.
 * - Fences and tables stay whole when they fit: if the only breaks in range are inside one, the
 *   cut goes just before it, even below minChars. A fence too long for one block is cut at a line
 *   (else word) break inside it, closed at the block's end and reopened (same marker and info) at
 *   the next block's start; every block, with those lines, is ≤ maxChars; no code block is empty.
 *   (That needs room for the opener line, a closer and some code: a fence whose opener line
 *   crowds maxChars is reopened without its info string, or cut as plain text as a last resort.)
 * - `flushOnParagraph`: cut at the first paragraph break that gives ≥ minChars (reason
 *   `paragraph` while streaming) instead of the last.
 * - Whitespace at cuts is trimmed (the indentation of a block's first line is kept); no block is
 *   empty or whitespace only.
 *
 * @example
 * ```ts
 * const chunker = createBlockChunker({ minChars: 800, maxChars: 1200 });
 * for (const delta of deltas) for (const block of chunker.append(delta)) send(block.text);
 * for (const block of chunker.end('end')) send(block.text);
 * ```
 * @param options - `minChars`, `maxChars` (≥ 16), `breakPreference` @defaultValue `'paragraph'`,
 *   `flushOnParagraph` @defaultValue false, `mode` @defaultValue `'stream'`
 */
export function createBlockChunker(options: BlockChunkerOptions): BlockChunker {
  const parsed = BlockChunkerOptions.safeParse(options ?? {});
  if (!parsed.success) {
    throw new LlmRxError(
      'invalid-options',
      `createBlockChunker: invalid options\n${z.prettifyError(parsed.error)}`,
    );
  }
  const { minChars, maxChars, breakPreference, flushOnParagraph, mode } = parsed.data;
  const earlyKinds = breakPreference === 'paragraph' ? 1 : breakPreference === 'newline' ? 2 : 3;

  let scanner: MarkdownScanner = createMarkdownScanner(maxChars);
  // Appended text the scanner has not read yet (see `append`); it joins `buffer` once read.
  let unscanned = '';
  let buffer = '';
  let bufferStart = 0;
  let cursor = 0;
  let needsSkip = true;
  // The fence the next block starts inside (it gets the reopen line), or null.
  let startFence: FenceRegion | null = null;

  // The free break queues of the current scanner, best kind first.
  let freeQueues: BreakQueue[] = freeQueuesOf(scanner);
  const prefixLength = () => (startFence?.reopen ? startFence.reopen.length + 1 : 0);
  const closerLength = (fence: FenceRegion | null) => (fence?.reopen ? fence.marker.length + 1 : 0);
  const fenceOpenAt = (end: number): FenceRegion | null => {
    const fence = scanner.openFence;
    return fence && end > fence.start ? fence : null;
  };
  const blockLength = (end: number) =>
    prefixLength() + (end - cursor) + closerLength(fenceOpenAt(end));

  /** Moves the cursor past whitespace (keeping a line's indentation); false if none is left. */
  function settleCursor(end: number): boolean {
    for (;;) {
      if (needsSkip) {
        let position = cursor;
        let lineStart = -1;
        while (position < end) {
          const char = buffer.charCodeAt(position - bufferStart);
          if (char === 10) lineStart = position + 1;
          else if (char !== 32 && char !== 9 && char !== 13 && char !== 11 && char !== 12) break;
          position++;
        }
        if (position >= end) return false;
        cursor = lineStart >= 0 ? lineStart : position;
        needsSkip = false;
      }
      const fence = startFence;
      // The rest of a reopened fence is only its closer: the last block's closer stands for it.
      if (fence && fence.end !== Infinity && fence.lastContentEnd <= cursor) {
        cursor = fence.end;
        startFence = null;
        needsSkip = true;
        continue;
      }
      return true;
    }
  }

  function cut(blocks: ChunkBlock[], end: number, fence: FenceRegion | null, reason: BlockReason) {
    const body = buffer.slice(cursor - bufferStart, end - bufferStart).trimEnd();
    if (body.trim() !== '') {
      const opener = startFence?.reopen ? `${startFence.reopen}\n` : '';
      const closer = fence?.reopen ? `\n${fence.marker}` : '';
      blocks.push({ text: opener + body + closer, reason });
    }
    cursor = end;
    startFence = fence?.reopen ? fence : null;
    needsSkip = true;
    dropBreaksThrough(scanner.breaks, cursor);
    // Let go of sent text once it is most of the buffer: amortised O(1) per character.
    const sent = cursor - bufferStart;
    if (sent > 1024 && sent * 2 > buffer.length) {
      buffer = buffer.slice(sent);
      bufferStart = cursor;
    }
  }

  // The window [low, high] of block ends that respect minChars and maxChars (set by `window`,
  // kept in two variables rather than a fresh tuple on every delta).
  let low = 0;
  let high = 0;
  function window(end: number): void {
    const prefix = prefixLength();
    low = cursor + Math.max(1, minChars - prefix);
    high = Math.min(cursor + maxChars - prefix, end);
  }

  function cutEarly(blocks: ChunkBlock[], end: number): boolean {
    window(end);
    for (let kind = 0; kind < earlyKinds; kind++) {
      const position = freeQueues[kind].lastInRange(low, high);
      if (position > 0) {
        cut(blocks, position, null, 'size');
        return true;
      }
    }
    return false;
  }

  function cutAtFirstParagraph(blocks: ChunkBlock[], end: number, reason: BlockReason): boolean {
    window(end);
    const position = scanner.breaks.paragraph.firstInRange(low, high);
    if (position > 0) cut(blocks, position, null, reason);
    return position > 0;
  }

  /** The held text does not fit in one block: cut the best way there is. */
  function cutForced(blocks: ChunkBlock[], end: number, reason: BlockReason): void {
    window(end);
    for (const queue of freeQueues) {
      const position = queue.lastInRange(low, high);
      if (position > 0) return cut(blocks, position, null, reason);
    }
    const region = scanner.regionContaining(high, cursor);
    if (region && region.breakBefore > cursor) return cut(blocks, region.breakBefore, null, reason);
    const breaks = scanner.breaks;
    if (region?.kind === 'table') {
      for (const queue of [breaks.tableNewline, breaks.tableWhitespace]) {
        const position = queue.lastInRange(low, high);
        if (position > 0) return cut(blocks, position, null, reason);
      }
    }
    if (region?.kind === 'fence' && region.reopen !== null && high > region.contentStart) {
      const codeHigh = high - closerLength(region);
      for (const queue of [breaks.fenceNewline, breaks.fenceWhitespace]) {
        const position = queue.lastInRange(low, codeHigh);
        if (position > 0) return cut(blocks, position, region, reason);
      }
      // A hard cut in the code, never past its last character (a closer-only rest is skipped).
      const lastCode = region.closerStart === Infinity ? Infinity : region.lastContentEnd;
      const hard = notInsidePair(Math.min(codeHigh, lastCode));
      const codeStart = Math.max(cursor, region.contentStart);
      if (hard > codeStart && !isBlank(codeStart, hard)) return cut(blocks, hard, region, reason);
    }
    cut(blocks, Math.max(notInsidePair(high), cursor + 1), null, reason);
  }

  /** True when the held text in [from, to) is only whitespace (a hard cut, so rare). */
  function isBlank(from: number, to: number): boolean {
    return buffer.slice(from - bufferStart, to - bufferStart).trim() === '';
  }

  /** `position`, moved back one if it would split a surrogate pair. */
  function notInsidePair(position: number): number {
    const before = buffer.charCodeAt(position - 1 - bufferStart);
    return before >= 0xd800 && before <= 0xdbff ? position - 1 : position; // a high surrogate
  }

  function scanAppended(): void {
    if (unscanned === '') return;
    scanner.scan(unscanned);
    buffer += unscanned;
    unscanned = '';
  }

  // The longest synthetic closer a block can get: a fence gets a reopen line (and so a closer)
  // only when its marker fits twice in maxChars (see reopenLine).
  const longestCloser = (maxChars - 1) >> 1;

  /**
   * True while no cut can be due, however the appended text reads: an early cut needs a break at
   * ≥ minChars, a forced one a block past maxChars, and neither fits in the text from the cursor
   * on. (Settling the cursor only moves it on and drops the reopen line: still no cut.)
   */
  function noCutPossible(): boolean {
    const held = bufferStart + buffer.length + unscanned.length - cursor;
    const prefix = prefixLength();
    return held < Math.max(1, minChars - prefix) && prefix + held + longestCloser <= maxChars;
  }

  function drainStreaming(blocks: ChunkBlock[]): void {
    for (;;) {
      const end = scanner.contentEnd;
      if (end <= cursor || !settleCursor(end)) return;
      if (blockLength(end) > maxChars) cutForced(blocks, end, 'size');
      else if (!(flushOnParagraph && cutAtFirstParagraph(blocks, end, 'paragraph'))) {
        if (!cutEarly(blocks, end)) return;
      }
    }
  }

  function drainAll(blocks: ChunkBlock[], end: number, reason: BlockReason): void {
    while (end > cursor && settleCursor(end)) {
      if (blockLength(end) > maxChars) cutForced(blocks, end, reason);
      else if (!(flushOnParagraph && cutAtFirstParagraph(blocks, end, reason))) {
        cut(blocks, end, fenceOpenAt(end), reason);
      }
    }
  }

  return {
    append(text) {
      const blocks: ChunkBlock[] = [];
      if (text === '') return blocks;
      unscanned += text;
      // Deltas are read in batches while no cut can be due: one scanner call over a few hundred
      // characters costs far less than one per 1–8 character delta. The result is the same: the
      // scanner reads text the same however it is split, and the cut waits for a break anyway.
      if (mode === 'end') {
        if (unscanned.length >= END_MODE_SCAN_BATCH) scanAppended();
      } else if (!noCutPossible()) {
        scanAppended();
        drainStreaming(blocks);
      }
      return blocks;
    },
    flush(reason) {
      const blocks: ChunkBlock[] = [];
      scanAppended();
      drainAll(blocks, scanner.safeFlushEnd(), reason);
      return blocks;
    },
    end(reason) {
      const blocks: ChunkBlock[] = [];
      scanAppended();
      scanner.finish();
      drainAll(blocks, scanner.contentEnd, reason);
      scanner = createMarkdownScanner(maxChars);
      freeQueues = freeQueuesOf(scanner);
      buffer = '';
      bufferStart = 0;
      cursor = 0;
      needsSkip = true;
      startFence = null;
      return blocks;
    },
    get holding() {
      scanAppended();
      return scanner.contentEnd > cursor;
    },
  };
}

/** In mode `end`, appended text is scanned once this much has gathered. */
const END_MODE_SCAN_BATCH = 1024;

function freeQueuesOf(scanner: MarkdownScanner): BreakQueue[] {
  const { paragraph, newline, sentence, whitespace } = scanner.breaks;
  return [paragraph, newline, sentence, whitespace];
}
