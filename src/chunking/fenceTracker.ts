// Markdown regions a block must not cut casually: fenced code (CommonMark fences) and tables.
// Pure data and line rules; the markdown scanner feeds them one line at a time.

/** A fenced code block, from its opener line to its closer line (or the end of the text). */
export interface FenceRegion {
  kind: 'fence';
  /** Start of the opener line. */
  start: number;
  /** The free break just before the opener line, or -1 (see MarkdownRegion). */
  breakBefore: number;
  /** End of the text before the opener line (after its last non-whitespace character). */
  contentEndBefore: number;
  /** First position after the opener line. */
  contentStart: number;
  /** After the last non-whitespace character of a code line; -1 while there is none. */
  lastContentEnd: number;
  /** Start of the closer line; Infinity while the fence is open. */
  closerStart: number;
  /** After the closer's last character; Infinity while the fence is open. */
  end: number;
  /** The opener's run of backticks or tildes, e.g. "```" or "~~~~". */
  marker: string;
  /** The info string after the marker, trimmed (may be empty). */
  info: string;
  /** The line that reopens this fence in the next block, or null when maxChars leaves no room. */
  reopen: string | null;
}

/** Consecutive lines starting with `|`. */
export interface TableRegion {
  kind: 'table';
  start: number;
  breakBefore: number;
  /** After the last non-whitespace character of its last row; Infinity while it may grow. */
  end: number;
  /** End of the text before its first row (after its last non-whitespace character). */
  contentEndBefore: number;
  /** Rows started so far. */
  rows: number;
  /** After the last non-whitespace character of its first row; -1 until the second starts. */
  firstRowEnd: number;
  /** After the last non-whitespace character of its second row; -1 until that row is read. */
  headerEnd: number;
  /**
   * The lines a continuation block starts with (header row, delimiter row, line feed), '' when
   * they are not repeated; set by the chunker at its first cut after the header rows.
   */
  header: string | undefined;
}

/**
 * A line that may still become a fence opener or a heading (its end not read yet), or an ATX
 * heading line: kept whole too.
 */
export interface MarkerLineRegion {
  kind: 'marker-line' | 'heading';
  start: number;
  breakBefore: number;
  end: number;
}

/**
 * A span kept whole when it fits in one block: a cut goes before it (even below minChars)
 * rather than through it. `breakBefore` is the line break just before the span, if any.
 */
export type MarkdownRegion = FenceRegion | TableRegion | MarkerLineRegion;

/** What a line that starts with ``` or ~~~ turned out to be. */
export type FenceLine =
  { kind: 'opener'; marker: string; info: string } | { kind: 'closer' } | { kind: 'other' };

const OTHER: FenceLine = { kind: 'other' };
const CLOSER: FenceLine = { kind: 'closer' };

/**
 * Reads a complete line that starts (after 0–3 spaces) with a backtick or a tilde, as CommonMark
 * does: ≥ 3 of the same character open a fence (a backtick fence's info string has no backtick);
 * inside a fence, a run of the fence's character at least as long, followed only by
 * whitespace, closes it.
 * @param line - the line from its first marker character, without the line feed
 * @param openFence - the fence this line is inside, or null
 */
export function readFenceLine(line: string, openFence: FenceRegion | null): FenceLine {
  const char = line.charCodeAt(0);
  let run = 0;
  while (line.charCodeAt(run) === char) run++;
  if (run < 3) return OTHER;
  const rest = line.slice(run);
  if (openFence) {
    const closes =
      char === openFence.marker.charCodeAt(0) &&
      run >= openFence.marker.length &&
      rest.trim() === '';
    return closes ? CLOSER : OTHER;
  }
  if (char === 96 && rest.includes('`')) return OTHER;
  return { kind: 'opener', marker: line.slice(0, run), info: rest.trim() };
}

/** Room a split fence keeps for code beside its reopen and closer lines before dropping the info. */
const CODE_ROOM = 8;

/**
 * The line that reopens a fence at the start of the next block: marker and info string; only
 * the marker when the info would leave too little room for code; null when even the bare marker
 * cannot fit twice in maxChars (such a fence is then cut without synthetic lines).
 */
export function reopenLine(marker: string, info: string, maxChars: number): string | null {
  const closer = 1 + marker.length;
  if (info !== '' && marker.length + info.length + 1 + closer + CODE_ROOM <= maxChars) {
    return marker + info;
  }
  if (marker.length + 1 + closer + 1 <= maxChars) return marker;
  return null;
}
