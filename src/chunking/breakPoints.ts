// Candidate cut positions, kept in append order so that choosing a cut never rescans the text.
// A position is an offset into the text of the current part (0 = its first character) and marks
// the end of a block: the character before it is never whitespace.

/**
 * Positions of one kind of break, in ascending order. Entries at or before the chunker's cursor
 * are dropped lazily, so each position is stored and skipped once: constant work per break.
 */
export interface BreakQueue {
  /** Appends a position (never smaller than the last one). */
  push(position: number): void;
  /** The largest position in `[low, high]`, or -1. */
  lastInRange(low: number, high: number): number;
  /** The smallest position in `[low, high]`, or -1. */
  firstInRange(low: number, high: number): number;
  /** Forgets every position `≤ cursor`. */
  dropThrough(cursor: number): void;
}

/** A queue of break positions (see {@link BreakQueue}). */
export function createBreakQueue(): BreakQueue {
  return new SortedBreakQueue();
}

// A class, not a closure factory: its methods are shared by every queue, so their optimized code
// lives as long as the prototype, not as long as one chunker (see MarkdownScanner).
class SortedBreakQueue implements BreakQueue {
  private positions: number[] = [];
  private head = 0;

  push(position: number): void {
    this.positions.push(position);
  }

  lastInRange(low: number, high: number): number {
    const positions = this.positions;
    const length = positions.length;
    // (low > high needs no test: no position is both ≥ low and ≤ high.)
    if (length === this.head) return -1;
    // The common streaming case: every stored break is within reach.
    const last = positions[length - 1];
    if (last <= high) return last >= low ? last : -1;
    const index = this.upperBound(high) - 1;
    return index >= this.head && positions[index] >= low ? positions[index] : -1;
  }

  firstInRange(low: number, high: number): number {
    const positions = this.positions;
    const index = this.upperBound(low - 1);
    return index < positions.length && positions[index] <= high ? positions[index] : -1;
  }

  dropThrough(cursor: number): void {
    const positions = this.positions;
    let head = this.head;
    while (head < positions.length && positions[head] <= cursor) head++;
    // Shift out the dropped prefix once it is most of the array: amortised O(1) per entry.
    // Stryker disable next-line all: memory only, no query's answer depends on when this runs
    if (head > 256 && head * 2 > positions.length) {
      this.positions = positions.slice(head);
      head = 0;
    }
    this.head = head;
  }

  /** Index of the first entry > value (binary search in [head, length)). */
  private upperBound(value: number): number {
    const positions = this.positions;
    let low = this.head;
    let high = positions.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (positions[middle] <= value) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/** The break kinds outside fences and tables, best first. */
export type FreeBreakKind = 'paragraph' | 'newline' | 'sentence' | 'whitespace';

/** Every queue the scanner fills. Breaks inside a fence or a table are used only when forced. */
export interface BreakPoints {
  paragraph: BreakQueue;
  newline: BreakQueue;
  sentence: BreakQueue;
  whitespace: BreakQueue;
  /** Line ends inside a fence, followed by more code of the same fence. */
  fenceNewline: BreakQueue;
  /** Between two words of a code line. */
  fenceWhitespace: BreakQueue;
  /** Between two rows of a table. */
  tableNewline: BreakQueue;
  /** Between two words of a table row. */
  tableWhitespace: BreakQueue;
  /** Between two words of a heading: only when the heading alone is longer than a block. */
  headingWhitespace: BreakQueue;
  /** After a heading line: never a cut; one in range moves the cut before the heading. */
  headingEnd: BreakQueue;
  /** After a list marker that starts a line: never a cut; one in range moves the cut before it. */
  listMarker: BreakQueue;
}

/** Fresh, empty queues. */
export function createBreakPoints(): BreakPoints {
  return {
    paragraph: createBreakQueue(),
    newline: createBreakQueue(),
    sentence: createBreakQueue(),
    whitespace: createBreakQueue(),
    fenceNewline: createBreakQueue(),
    fenceWhitespace: createBreakQueue(),
    tableNewline: createBreakQueue(),
    tableWhitespace: createBreakQueue(),
    headingWhitespace: createBreakQueue(),
    headingEnd: createBreakQueue(),
    listMarker: createBreakQueue(),
  };
}

/** Drops every position `≤ cursor` from all queues. */
export function dropBreaksThrough(breaks: BreakPoints, cursor: number): void {
  for (const queue of Object.values(breaks)) queue.dropThrough(cursor);
}
