// The spans the line tracker records for the chunker: fences, tables and headings, kept whole
// when they fit (a cut goes before them), and where a flush may stop. Also the line kinds the
// tracker and the scanner share. LineTracker (lineTracker.ts) classifies the lines.

import type { BreakPoints } from './breakPoints';
import type { FenceRegion, MarkdownRegion, MarkerLineRegion, TableRegion } from './fenceTracker';

// Line kinds. MARKER: starts with ``` or ~~~, HASHES: starts with #, DELIMITER: a table's second
// row, which may be its delimiter row; none is settled until more of the line is read (kinds ≥
// MARKER are read character by character). HEADING: an ATX heading, whose breaks are held back:
// a heading belongs to the section after it.
export const TEXT = 0;
export const TABLE = 1;
export const CODE = 2;
export const HEADING = 3;
export const MARKER = 4;
export const HASHES = 5;
export const DELIMITER = 6;
export const OPENER = 7;
export const CLOSER = 8;
export const END = 9;

/** The regions of one text part and the line state they need; extended by LineTracker. */
export abstract class LineRegions {
  /** The current line's kind (TEXT, TABLE, CODE, HEADING, or MARKER / HASHES while read). */
  kind = TEXT;
  /** True once the current line has a non-whitespace character. */
  started = false;

  protected readonly regions: MarkdownRegion[] = [];
  private regionHead = 0;
  protected fence: FenceRegion | null = null;
  protected openTable: TableRegion | null = null;
  private heading: MarkerLineRegion | null = null;
  protected lastFreeLineBreak = -1;
  protected lineStart = 0;
  protected contentEndBeforeLine = 0;
  // The end of the last heading line, and the end of the text before it (before the run of
  // headings it closes): a flush that would end there stops before the heading instead.
  private lastHeadingEnd = -1;
  private beforeLastHeading = -1;

  protected constructor(protected readonly breaks: BreakPoints) {}

  get openFence(): FenceRegion | null {
    return this.fence;
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
      (kind >= MARKER || kind === HEADING || kind === TABLE || (lineIsListMarker && kind === TEXT))
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

  /**
   * The table's second row has a character no delimiter row has (`|`, `-`, `:`, spaces). Called
   * once per table, while that row is read (its header is not read before the row ends).
   */
  protected notDelimiterRow(): void {
    const table = this.openTable!;
    table.header = ''; // no GFM table: no header to repeat, and its first two rows may part
    this.breaks.tableNewline.push(table.firstRowEnd);
  }

  /** A table row starts (the text before it ends at `contentEnd`): opens the table if new. */
  protected tableRowStart(contentEnd: number): void {
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

  /** A table row ends at `contentEnd`: the second one completes the header rows. */
  protected tableRowEnd(contentEnd: number): void {
    const table = this.openTable!;
    if (table.rows === 2) table.headerEnd = contentEnd;
  }

  /** The open table ends at `end` (called only while one is open). */
  protected closeTable(end: number): void {
    this.openTable!.end = end;
    this.openTable = null;
  }

  /** The current line is a heading. */
  protected headingStart(): void {
    this.heading = {
      kind: 'heading',
      start: this.lineStart,
      breakBefore: this.lastFreeLineBreak,
      end: Infinity,
    };
    this.regions.push(this.heading);
  }

  /** The heading line ends at `contentEnd`. */
  protected headingEnd(contentEnd: number): void {
    this.heading!.end = contentEnd;
    const before = this.contentEndBeforeLine;
    this.beforeLastHeading = before === this.lastHeadingEnd ? this.beforeLastHeading : before;
    this.lastHeadingEnd = contentEnd;
  }
}
