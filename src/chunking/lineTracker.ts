// The line-level half of the markdown scanner: what kind each line is (text, table row, code,
// fence opener or closer, heading), and the break at each line's end. The regions it records
// (fences, tables, headings) and where a flush may stop are in lineRegions.ts. The scanner calls
// it at line starts and ends, and for each character of a fence-marker or `#` line.

import type { BreakPoints } from './breakPoints';
import { readFenceLine, reopenLine } from './fenceTracker';
import * as lineRegions from './lineRegions';

export { CODE, HEADING, MARKER, TABLE, TEXT } from './lineRegions';

// Module-local copies: under tsx every use of an imported name is a getter call (see
// markdownScanner.ts), and these are read for every line.
const { CLOSER, CODE, DELIMITER, END, HASHES, HEADING, LineRegions, MARKER, OPENER, TABLE, TEXT } =
  lineRegions;

const BACKTICK = 96;
const TILDE = 126;
const PIPE = 124;
const HASH = 35;
const DASH = 45;
const COLON = 58;

/**
 * Line state for one text part (see the file comment). A class, not a closure factory: its
 * methods run for every line and are shared by all instances, so their optimized code survives
 * a GC that frees every chunker (see MarkdownScanner).
 */
export class LineTracker extends LineRegions {
  /** Leading indentation of the current line, in columns (a tab counts 4). */
  indent = 0;

  private markerText = '';
  private markerCode = 0;
  private markerRunOpen = false;
  private markerRun = 0;
  // Breaks of a MARKER line wait for its kind: position, and 1 when it is a sentence end.
  private readonly deferred: number[] = [];
  // The break at the end of the last non-blank line, until the next line says what it is.
  private pending = -1;
  private pendingKind = TEXT;

  constructor(
    breaks: BreakPoints,
    private readonly maxChars: number,
  ) {
    super(breaks);
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
      this.tableRowStart(contentEnd);
      if (this.openTable!.rows === 2) this.kind = DELIMITER; // settled by markerChar or end
    }
  }

  /** A character of a MARKER, HASHES or DELIMITER line; settles it once it knows what it is. */
  markerChar(char: number, whitespace: boolean): void {
    if (this.kind === DELIMITER) {
      if (!whitespace && char !== PIPE && char !== DASH && char !== COLON) {
        this.notDelimiterRow();
        this.settleLine(TABLE);
      }
      return;
    }
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
    if (kind === HEADING) this.headingStart();
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
    else if (this.kind === HASHES)
      this.settleLine(HEADING); // `##` alone: an empty heading
    else if (this.kind === DELIMITER) this.settleLine(TABLE); // a delimiter row
    if (this.kind === HEADING) this.headingEnd(contentEnd);
    if (this.kind === CODE && this.fence) this.fence.lastContentEnd = contentEnd;
    if (this.kind === TABLE) this.tableRowEnd(contentEnd);
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
