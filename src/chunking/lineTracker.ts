// The line-level half of the markdown scanner: what kind each line is (text, table row, code,
// fence opener or closer), the break at each line's end, and the regions (fences, tables) that
// should stay whole. The scanner calls it at line starts and ends, and for fence-marker lines.

import type { BreakPoints } from './breakPoints';
import {
  readFenceLine,
  reopenLine,
  type FenceRegion,
  type MarkdownRegion,
  type TableRegion,
} from './fenceTracker';

// Line kinds. MARKER: starts with ``` or ~~~ and is not settled until more of it is read.
export const TEXT = 0;
export const TABLE = 1;
export const CODE = 2;
export const MARKER = 3;
const OPENER = 4;
const CLOSER = 5;
const END = 6;

const BACKTICK = 96;
const TILDE = 126;
const PIPE = 124;

/** Line state for one text part (see the file comment). */
export type LineTracker = ReturnType<typeof createLineTracker>;

/** A line tracker filling `breaks`; `maxChars` sizes the reopen line of split fences. */
export function createLineTracker(breaks: BreakPoints, maxChars: number) {
  const regions: MarkdownRegion[] = [];
  let regionHead = 0;
  let openFence: FenceRegion | null = null;
  let openTable: TableRegion | null = null;
  let lastFreeLineBreak = -1;
  let lineStart = 0;
  let contentEndBeforeLine = 0;
  let markerText = '';
  let markerChar = 0;
  let markerRunOpen = false;
  let markerRun = 0;
  // Breaks of a MARKER line wait for its kind: position, and 1 when it is a sentence end.
  const deferred: number[] = [];
  // The break at the end of the last non-blank line, until the next line says what it is.
  let pending = -1;
  let pendingKind = TEXT;

  const tracker = {
    /** The current line's kind (TEXT, TABLE, CODE or MARKER while it is being read). */
    kind: TEXT,
    /** True once the current line has a non-whitespace character. */
    started: false,
    /** Leading indentation of the current line, in columns (a tab counts 4). */
    indent: 0,
    get openFence() {
      return openFence;
    },
    /** A break between two words of the current line. */
    commitInline(position: number, sentence: boolean): void {
      commitInline(position, sentence, tracker.kind);
    },
    /** The first non-whitespace character of a line, at `contentEnd` so far. */
    start(char: number, contentEnd: number): void {
      tracker.started = true;
      contentEndBeforeLine = contentEnd;
      let kind: number;
      if (tracker.indent >= 4) kind = openFence ? CODE : TEXT;
      else if ((char === BACKTICK || char === TILDE) && (!openFence || char === markerChar)) {
        kind = MARKER;
        markerText = '';
        if (!openFence) markerChar = char;
        markerRunOpen = true;
        markerRun = 0;
      } else if (!openFence && char === PIPE) kind = TABLE;
      else kind = openFence ? CODE : TEXT;
      tracker.kind = kind;
      resolvePending(kind);
      if (kind === TABLE && !openTable) {
        openTable = {
          kind: 'table',
          start: lineStart,
          breakBefore: lastFreeLineBreak,
          end: Infinity,
        };
        regions.push(openTable);
      }
    },
    /** A character of a MARKER line; settles the line early once it cannot be a fence line. */
    markerChar(char: number, whitespace: boolean): void {
      markerText += whitespace ? ' ' : String.fromCharCode(char);
      const plainKind = openFence ? CODE : TEXT;
      if (markerRunOpen) {
        if (char === markerChar) {
          markerRun++;
          return;
        }
        markerRunOpen = false;
        if (markerRun < 3) settleLine(plainKind);
      } else if (!whitespace && (openFence || (markerChar === BACKTICK && char === BACKTICK))) {
        settleLine(plainKind); // text after a closer run, or a backtick in a backtick info string
      }
    },
    /** A line feed at `position`; the line's last non-whitespace character ended at `contentEnd`. */
    end(position: number, contentEnd: number): void {
      if (!tracker.started) {
        // A blank line: a paragraph break, except inside a fence where it is just code.
        if (pending >= 0 && pendingKind !== CODE) {
          if (pendingKind === TABLE) closeTable(pending);
          freeLineBreak(pending, true);
          pending = -1;
        }
      } else {
        if (tracker.kind === MARKER) settleMarkerLine(position + 1, contentEnd);
        if (tracker.kind === CODE && openFence) openFence.lastContentEnd = contentEnd;
        if (tracker.kind !== OPENER) {
          pending = contentEnd;
          pendingKind = tracker.kind === CLOSER ? TEXT : tracker.kind;
        }
      }
      lineStart = position + 1;
      tracker.started = false;
      tracker.indent = 0;
    },
    /** The text ended at `length`, its last line's content at `contentEnd`. */
    finish(length: number, contentEnd: number): void {
      if (tracker.started) {
        if (tracker.kind === MARKER) settleMarkerLine(length, contentEnd);
        if (tracker.kind === CODE && openFence) openFence.lastContentEnd = contentEnd;
      }
      resolvePending(END);
      if (tracker.started && tracker.kind === TABLE) closeTable(contentEnd);
      tracker.started = false;
    },
    /** The region containing `position` (start ≤ position < end), forgetting those before `cursor`. */
    regionContaining(position: number, cursor: number): MarkdownRegion | undefined {
      while (regionHead < regions.length && regions[regionHead].end <= cursor) regionHead++;
      for (let index = regionHead; index < regions.length; index++) {
        const region = regions[index];
        if (region.start > position) return undefined;
        if (position < region.end) return region;
      }
      // The last line may still become a fence opener: cut before it rather than through it.
      if (tracker.started && tracker.kind === MARKER && !openFence && lineStart <= position) {
        return {
          kind: 'marker-line',
          start: lineStart,
          breakBefore: lastFreeLineBreak,
          end: Infinity,
        };
      }
      return undefined;
    },
    /** See MarkdownScanner.safeFlushEnd. */
    safeFlushEnd(contentEnd: number): number {
      let end = contentEnd;
      if (tracker.started && tracker.kind === MARKER) end = contentEndBeforeLine;
      const fence = openFence;
      if (fence && fence.lastContentEnd < 0 && !(tracker.started && tracker.kind === CODE)) {
        end = Math.min(end, fence.contentEndBefore);
      }
      return end;
    },
  };

  function commitInline(position: number, sentence: boolean, kind: number): void {
    if (kind === TEXT) (sentence ? breaks.sentence : breaks.whitespace).push(position);
    else if (kind === CODE) breaks.fenceWhitespace.push(position);
    else if (kind === TABLE) breaks.tableWhitespace.push(position);
    else deferred.push(position, sentence ? 1 : 0);
  }

  function freeLineBreak(position: number, paragraph: boolean): void {
    (paragraph ? breaks.paragraph : breaks.newline).push(position);
    lastFreeLineBreak = position;
  }

  function closeTable(end: number): void {
    if (openTable) openTable.end = end;
    openTable = null;
  }

  /** Settles the previous line's end break now that the next line's kind is known. */
  function resolvePending(nextKind: number): void {
    if (pending < 0) return;
    if (pendingKind === CODE) {
      if (nextKind === MARKER) return; // may still be the closer
      // Before the closer it is still a good cut: the next block, only the closer, is skipped
      // (the synthetic closer stands for it). Before the end of the text it is no cut at all.
      if (nextKind === CODE || nextKind === CLOSER) breaks.fenceNewline.push(pending);
    } else if (pendingKind === TABLE && nextKind === TABLE) {
      breaks.tableNewline.push(pending);
    } else if (nextKind !== END) {
      if (pendingKind === TABLE) closeTable(pending);
      freeLineBreak(pending, false);
    } else if (pendingKind === TABLE) {
      closeTable(pending);
    }
    pending = -1;
  }

  function settleLine(kind: number): void {
    tracker.kind = kind;
    resolvePending(kind);
    for (let index = 0; index < deferred.length; index += 2) {
      commitInline(deferred[index], deferred[index + 1] === 1, kind);
    }
    deferred.length = 0;
  }

  /** A MARKER line is complete: opener, closer, or plain text / code after all. */
  function settleMarkerLine(nextLineStart: number, contentEnd: number): void {
    const line = readFenceLine(markerText, openFence);
    if (line.kind === 'closer' || line.kind === 'opener') deferred.length = 0; // no cut in them
    if (line.kind === 'closer' && openFence) {
      resolvePending(CLOSER);
      openFence.closerStart = lineStart;
      openFence.end = contentEnd;
      openFence = null;
      tracker.kind = CLOSER;
    } else if (line.kind === 'opener') {
      resolvePending(OPENER);
      openFence = {
        kind: 'fence',
        start: lineStart,
        breakBefore: lastFreeLineBreak,
        contentEndBefore: contentEndBeforeLine,
        contentStart: nextLineStart,
        lastContentEnd: -1,
        closerStart: Infinity,
        end: Infinity,
        marker: line.marker,
        info: line.info,
        reopen: reopenLine(line.marker, line.info, maxChars),
      };
      regions.push(openFence);
      tracker.kind = OPENER;
    } else {
      settleLine(openFence ? CODE : TEXT);
    }
  }

  return tracker;
}
