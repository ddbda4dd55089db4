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
  readonly size: number;
}

/** A queue of break positions (see {@link BreakQueue}). */
export function createBreakQueue(): BreakQueue {
  let positions: number[] = [];
  let head = 0;

  const compact = () => {
    // Shift out the dropped prefix once it is most of the array: amortised O(1) per entry.
    if (head > 256 && head * 2 > positions.length) {
      positions = positions.slice(head);
      head = 0;
    }
  };
  // Index of the first entry > value (binary search in [head, length)).
  const upperBound = (value: number) => {
    let low = head;
    let high = positions.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (positions[middle] <= value) low = middle + 1;
      else high = middle;
    }
    return low;
  };

  return {
    push(position) {
      positions.push(position);
    },
    lastInRange(low, high) {
      const length = positions.length;
      if (length === head || low > high) return -1;
      // The common streaming case: every stored break is within reach.
      const last = positions[length - 1];
      if (last <= high) return last >= low ? last : -1;
      const index = upperBound(high) - 1;
      return index >= head && positions[index] >= low ? positions[index] : -1;
    },
    firstInRange(low, high) {
      const index = upperBound(low - 1);
      return index < positions.length && positions[index] <= high ? positions[index] : -1;
    },
    dropThrough(cursor) {
      while (head < positions.length && positions[head] <= cursor) head++;
      compact();
    },
    get size() {
      return positions.length - head;
    },
  };
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
  };
}

/** Drops every position `≤ cursor` from all queues. */
export function dropBreaksThrough(breaks: BreakPoints, cursor: number): void {
  for (const queue of Object.values(breaks)) queue.dropThrough(cursor);
}
