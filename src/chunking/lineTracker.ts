// The line-level half of the markdown scanner: what kind each line is (text, table row, code,
// fence opener or closer), the break at each line's end, and the regions (fences, tables) that
// should stay whole. The scanner calls it at line starts and ends, and for fence-marker lines.

import type { BreakPoints } from './breakPoints';
import {
  readFenceLine,
  reopenLine,
  type FenceRegion,
  type MarkdownRegion,
  type MarkerLineRegion,
  type TableRegion,
} from './fenceTracker';

// Line kinds. MARKER: starts with ``` or ~~~, HASHES: starts with #; both are not settled until
// more of the line is read (kinds ≥ MARKER are read character by character). HEADING: an ATX
// heading, whose breaks are held back: a heading belongs to the section after it.
export const TEXT = 0;
export const TABLE = 1;
export const CODE = 2;
export const HEADING = 3;
export const MARKER = 4;
const HASHES = 5;
const OPENER = 6;
const CLOSER = 7;
const END = 8;

const BACKTICK = 96;
const TILDE = 126;
const PIPE = 124;
const HASH = 35;

/** A line tracker filling `breaks`; `maxChars` sizes the reopen line of split fences. */
export function createLineTracker(breaks: BreakPoints, maxChars: number): LineTracker {
  return new LineTracker(breaks, maxChars);
}

/**
 * Line state for one text part (see the file comment). A class, not a closure factory: its
 * methods run for every line and are shared by all instances, so their optimized code survives
 * a GC that frees every chunker (see MarkdownScanner).
 */
export class LineTracker {
  /** The current line's kind (TEXT, TABLE, CODE or MARKER while it is being read). */
  kind = TEXT;
  /** True once the current line has a non-whitespace character. */
  started = false;
  /** Leading indentation of the current line, in columns (a tab counts 4). */
  indent = 0;

  private readonly regions: MarkdownRegion[] = [];
  private regionHead = 0;
  private fence: FenceRegion | null = null;
  private openTable: TableRegion | null = null;
  private heading: MarkerLineRegion | null = null;
  private lastFreeLineBreak = -1;
  private lineStart = 0;
  private contentEndBeforeLine = 0;
  private markerText = '';
  private markerCode = 0;
  private markerRunOpen = false;
  private markerRun = 0;
  // Breaks of a MARKER line wait for its kind: position, and 1 when it is a sentence end.
  private readonly deferred: number[] = [];
  // The break at the end of the last non-blank line, until the next line says what it is.
  private pending = -1;
  private pendingKind = TEXT;
  // The end of the last heading line, and the end of the text before it (before the run of
  // headings it closes): a flush that would end there stops before the heading instead.
  private lastHeadingEnd = -1;
  private beforeLastHeading = -1;

  constructor(
    private readonly breaks: BreakPoints,
    private readonly maxChars: number,
  ) {}

  get openFence(): FenceRegion | null {
    return this.fence;
  }

  /** A break between two words of the current line. */
  commitInline(position: number, sentence: boolean): void {
    this.commitInlineAs(position, sentence, this.kind);
  }

  /** The first non-whitespace character of a line, at `contentEnd` so far. */
  start(char: number, contentEnd: number): void {
    this.started = true;
    this.contentEndBeforeLine = contentEnd;
    const openFence = this.fence;
    let kind: number;
    if (this.indent >= 4) kind = openFence ? CODE : TEXT;
    else if (char === HASH && !openFence) {
      kind = HASHES;
      this.markerRun = 0;
    } else if ((char === BACKTICK || char === TILDE) && (!openFence || char === this.markerCode)) {
      kind = MARKER;
      this.markerText = '';
      if (!openFence) this.markerCode = char;
      this.markerRunOpen = true;
      this.markerRun = 0;
    } else if (!openFence && char === PIPE) kind = TABLE;
    else kind = openFence ? CODE : TEXT;
    this.kind = kind;
    this.resolvePending(kind);
    if (kind === TABLE) {
      if (!this.openTable) {
        this.openTable = {
          kind: 'table',
          start: this.lineStart,
          breakBefore: this.lastFreeLineBreak,
          end: Infinity,
          contentEndBefore: contentEnd,
          rows: 0,
          firstRowEnd: -1,
          headerEnd: -1,
          header: undefined,
        };
        this.regions.push(this.openTable);
      }
      this.openTable.rows++;
    }
  }

  /** A character of a MARKER or HASHES line; settles the line once it knows what it is. */
  markerChar(char: number, whitespace: boolean): void {
    if (this.kind === HASHES) {
      // 1–6 `#` then whitespace (or the line's end, see `end`) is a heading; anything else text.
      if (char === HASH && this.markerRun < 6) this.markerRun++;
      else this.settleLine(whitespace ? HEADING : TEXT);
      return;
    }
    this.markerText += whitespace ? ' ' : String.fromCharCode(char);
    const plainKind = this.fence ? CODE : TEXT;
    if (this.markerRunOpen) {
      if (char === this.markerCode) {
        this.markerRun++;
        return;
      }
      this.markerRunOpen = false;
      if (this.markerRun < 3) this.settleLine(plainKind);
    } else if (!whitespace && (this.fence || (this.markerCode === BACKTICK && char === BACKTICK))) {
      this.settleLine(plainKind); // text after a closer run, or a backtick in a backtick info string
    }
  }

  /** A line feed at `position`; the line's last non-whitespace character ended at `contentEnd`. */
  end(position: number, contentEnd: number): void {
    if (!this.started) {
      // A blank line: a paragraph break, except inside a fence where it is just code, and
      // after a heading (still held back, settled by the next line).
      if (this.pending >= 0 && this.pendingKind !== CODE && this.pendingKind !== HEADING) {
        if (this.pendingKind === TABLE) this.closeTable(this.pending);
        this.freeLineBreak(this.pending, true);
        this.pending = -1;
      }
    } else {
      this.settleLineAtEnd(position + 1, contentEnd);
      if (this.kind !== OPENER) {
        this.pending = contentEnd;
        this.pendingKind = this.kind === CLOSER ? TEXT : this.kind;
      }
    }
    this.lineStart = position + 1;
    this.started = false;
    this.indent = 0;
  }

  /** The text ended at `length`, its last line's content at `contentEnd`. */
  finish(length: number, contentEnd: number): void {
    if (this.started) this.settleLineAtEnd(length, contentEnd);
    this.resolvePending(END);
    if (this.started && this.kind === TABLE) this.closeTable(contentEnd);
    this.started = false;
  }

  /** The region containing `position` (start ≤ position < end), forgetting those before `cursor`. */
  regionContaining(position: number, cursor: number): MarkdownRegion | undefined {
    const regions = this.regions;
    while (this.regionHead < regions.length && regions[this.regionHead].end <= cursor) {
      this.regionHead++;
    }
    for (let index = this.regionHead; index < regions.length; index++) {
      const region = regions[index];
      if (region.start > position) return undefined;
      if (position < region.end) return region;
    }
    // The last line may still become a fence opener or a heading: cut before it, not through it.
    const kind = this.kind;
    if (
      this.started &&
      ((kind === MARKER && !this.fence) || kind === HASHES) &&
      this.lineStart <= position
    ) {
      return {
        kind: 'marker-line',
        start: this.lineStart,
        breakBefore: this.lastFreeLineBreak,
        end: Infinity,
      };
    }
    return undefined;
  }

  /** See MarkdownScanner.safeFlushEnd; `lineIsListMarker`: the line so far is a list marker. */
  safeFlushEnd(contentEnd: number, lineIsListMarker: boolean): number {
    let end = contentEnd;
    const kind = this.kind;
    // A line still unsettled, a heading, a table row that may grow, or a bare list marker.
    if (
      this.started &&
      (kind >= MARKER || kind === HEADING || kind === TABLE || lineIsListMarker)
    ) {
      end = this.contentEndBeforeLine;
    }
    const fence = this.fence;
    if (fence && fence.lastContentEnd < 0 && !(this.started && kind === CODE)) {
      end = Math.min(end, fence.contentEndBefore);
    }
    // A table goes out once its header and delimiter rows are complete.
    const table = this.openTable;
    if (table && table.headerEnd < 0) end = Math.min(end, table.contentEndBefore);
    // Never a heading last: it waits for its section.
    return end === this.lastHeadingEnd ? this.beforeLastHeading : end;
  }

  /** The current table row has a character no delimiter row has (`|`, `-`, `:`, spaces). */
  notDelimiterRow(): void {
    const table = this.openTable;
    if (table && table.rows === 2 && table.header === undefined) {
      table.header = ''; // no GFM table: no header to repeat, and its first two rows may part
      this.breaks.tableNewline.push(table.firstRowEnd);
    }
  }

  /** The gap after a list marker that starts the line: never a cut in text (held back). */
  commitListGap(position: number): void {
    if (this.kind === TEXT) this.breaks.listMarker.push(position);
    else this.commitInline(position, false);
  }

  private commitInlineAs(position: number, sentence: boolean, kind: number): void {
    const breaks = this.breaks;
    if (kind === TEXT) (sentence ? breaks.sentence : breaks.whitespace).push(position);
    else if (kind === CODE) breaks.fenceWhitespace.push(position);
    else if (kind === TABLE) breaks.tableWhitespace.push(position);
    else if (kind === HEADING) breaks.headingWhitespace.push(position);
    else this.deferred.push(position, sentence ? 1 : 0);
  }

  private freeLineBreak(position: number, paragraph: boolean): void {
    (paragraph ? this.breaks.paragraph : this.breaks.newline).push(position);
    this.lastFreeLineBreak = position;
  }

  private closeTable(end: number): void {
    if (this.openTable) this.openTable.end = end;
    this.openTable = null;
  }

  /** Settles the previous line's end break now that the next line's kind is known. */
  private resolvePending(nextKind: number): void {
    const pending = this.pending;
    if (pending < 0) return;
    const pendingKind = this.pendingKind;
    if (pendingKind === CODE) {
      if (nextKind === MARKER) return; // may still be the closer
      // Before the closer it is still a good cut: the next block, only the closer, is skipped
      // (the synthetic closer stands for it). Before the end of the text it is no cut at all.
      if (nextKind === CODE || nextKind === CLOSER) this.breaks.fenceNewline.push(pending);
    } else if (pendingKind === HEADING) {
      this.breaks.headingEnd.push(pending); // the next block starts with the heading
    } else if (pendingKind === TABLE && nextKind === TABLE) {
      // Between the first two rows only once the second is known not to be a delimiter row
      // (see settleLineAtEnd): a header and its delimiter row go out together.
      if (this.openTable!.rows > 1) this.breaks.tableNewline.push(pending);
      else this.openTable!.firstRowEnd = pending;
    } else if (nextKind !== END) {
      if (pendingKind === TABLE) this.closeTable(pending);
      this.freeLineBreak(pending, false);
    } else if (pendingKind === TABLE) {
      this.closeTable(pending);
    }
    this.pending = -1;
  }

  private settleLine(kind: number): void {
    this.kind = kind;
    if (kind === HEADING) {
      this.heading = {
        kind: 'heading',
        start: this.lineStart,
        breakBefore: this.lastFreeLineBreak,
        end: Infinity,
      };
      this.regions.push(this.heading);
    }
    this.resolvePending(kind);
    const deferred = this.deferred;
    for (let index = 0; index < deferred.length; index += 2) {
      this.commitInlineAs(deferred[index], deferred[index + 1] === 1, kind);
    }
    deferred.length = 0;
  }

  /** The current line ends at `nextLineStart`: settles its kind and what it closes. */
  private settleLineAtEnd(nextLineStart: number, contentEnd: number): void {
    if (this.kind === MARKER) this.settleMarkerLine(nextLineStart, contentEnd);
    else if (this.kind === HASHES) this.settleLine(HEADING); // `##` alone: an empty heading
    if (this.kind === HEADING) {
      this.heading!.end = contentEnd;
      const before = this.contentEndBeforeLine;
      this.beforeLastHeading = before === this.lastHeadingEnd ? this.beforeLastHeading : before;
      this.lastHeadingEnd = contentEnd;
    }
    if (this.kind === CODE && this.fence) this.fence.lastContentEnd = contentEnd;
    const table = this.openTable;
    if (this.kind === TABLE && table!.rows === 2) table!.headerEnd = contentEnd;
  }

  /** A MARKER line is complete: opener, closer, or plain text / code after all. */
  private settleMarkerLine(nextLineStart: number, contentEnd: number): void {
    const line = readFenceLine(this.markerText, this.fence);
    if (line.kind === 'closer' || line.kind === 'opener') this.deferred.length = 0; // no cut in them
    const openFence = this.fence;
    if (line.kind === 'closer' && openFence) {
      this.resolvePending(CLOSER);
      openFence.closerStart = this.lineStart;
      openFence.end = contentEnd;
      this.fence = null;
      this.kind = CLOSER;
    } else if (line.kind === 'opener') {
      this.resolvePending(OPENER);
      this.fence = {
        kind: 'fence',
        start: this.lineStart,
        breakBefore: this.lastFreeLineBreak,
        contentEndBefore: this.contentEndBeforeLine,
        contentStart: nextLineStart,
        lastContentEnd: -1,
        closerStart: Infinity,
        end: Infinity,
        marker: line.marker,
        info: line.info,
        reopen: reopenLine(line.marker, line.info, this.maxChars),
      };
      this.regions.push(this.fence);
      this.kind = OPENER;
    } else {
      this.settleLine(this.fence ? CODE : TEXT);
    }
  }
}
