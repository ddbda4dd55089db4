// Reader-facing quality of chunked markdown, measured against the input with line regexes (no
// incremental state, nothing from src/chunking): blocks that end with a heading, table rows cut
// in the middle, table pieces without their header, unbalanced fences. The property specs and
// `npm run bench:quality` both use it.

import { alignBlocks, fencesBalanced } from './markdownChecks';

const FENCE_OPENER = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSER = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
const HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/;
const TABLE_ROW = /^ {0,3}\|/;
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]/;
const CJK_SENTENCE_END = /[。！？．」』）]/;
const LIST_MARKER = /^[ \t]*(?:[-*+]|\d{1,9}[.)])$/;
const DELIMITER_ROW = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

/** One table of the input: lines that start with `|` outside fences, one after another. */
export interface InputTable {
  /** Start of its first row. */
  start: number;
  /** After the last non-whitespace character of its last row. */
  end: number;
  /** The rows, as written. */
  rows: Array<{ start: number; end: number; text: string }>;
  /** Header row + "\n" + delimiter row, when the second row is a delimiter row (GFM). */
  header: string | null;
}

/** The tables of `input` (lines in a fence are code, never rows). */
export function findTables(input: string): InputTable[] {
  const tables: InputTable[] = [];
  let open: string | null = null;
  let current: InputTable | null = null;
  let at = 0;
  for (const line of input.split('\n')) {
    const lineStart = at;
    at += line.length + 1;
    if (open !== null) {
      const match = FENCE_CLOSER.exec(line);
      if (match && match[1][0] === open[0] && match[1].length >= open.length) open = null;
      current = null;
      continue;
    }
    const opener = FENCE_OPENER.exec(line);
    if (opener && !(opener[1][0] === '`' && opener[2].includes('`'))) {
      open = opener[1];
      current = null;
      continue;
    }
    if (!TABLE_ROW.test(line)) {
      current = null;
      continue;
    }
    const text = line.trimEnd();
    const row = { start: lineStart, end: lineStart + text.length, text };
    if (!current) {
      current = { start: lineStart, end: row.end, rows: [], header: null };
      tables.push(current);
    }
    current.rows.push(row);
    current.end = row.end;
    if (current.rows.length === 2 && DELIMITER_ROW.test(text)) {
      current.header = `${current.rows[0].text}\n${text}`;
    }
  }
  return tables;
}

/** True when the header of `table` is repeated at `maxChars`: it takes at most half a block. */
export function repeatsHeader(table: InputTable, maxChars: number): boolean {
  return table.header !== null && (table.header.length + 1) * 2 <= maxChars;
}

/**
 * True when a block holding `table`'s rows from `start` on should begin with its header: the
 * header is repeated at `maxChars` and fits beside the (rest of the) row at `start`. When it
 * does not, the block goes without it rather than cut that row.
 */
export function headerFitsBeside(table: InputTable, start: number, maxChars: number): boolean {
  const row = table.rows.find((candidate) => candidate.end > start);
  const rest = row ? row.end - Math.max(start, row.start) : 0;
  return repeatsHeader(table, maxChars) && table.header!.length + 1 + rest <= maxChars;
}

/** True when the last line of `block` is an ATX heading outside a fence. */
export function endsWithHeading(block: string): boolean {
  const lines = block.trimEnd().split('\n');
  return HEADING.test(lines[lines.length - 1]) && fencesBalanced(lines.slice(0, -1).join('\n'));
}

/**
 * True when `block` holds only headings: the one case a heading may end a block, when what
 * starts its section cannot share a block with it (a table's header + delimiter rows, a fence's
 * opener, some code and a closer): parting those would break the table or the code block.
 */
function onlyHeadings(block: string): boolean {
  return block.split('\n').every((line) => line.trim() === '' || HEADING.test(line));
}

/** True when the last line of `block` is a list marker without its item text. */
export function endsWithListMarker(block: string): boolean {
  const lines = block.trimEnd().split('\n');
  return LIST_MARKER.test(lines[lines.length - 1]) && fencesBalanced(block);
}

/** What a reader would notice in `blocks` cut from `input` at `maxChars`. */
export interface BlockQuality {
  blocks: number;
  longest: number;
  /** Non-final blocks whose last line is a heading. */
  endingWithHeading: number;
  /** Non-final blocks whose last line is a bare list marker. */
  endingWithListMarker: number;
  /** Cuts (between two blocks) inside a table row: the row goes on after the cut. */
  midRowCuts: number;
  /** The same, for rows that fit in maxChars: those the chunker must never cut. */
  midRowCutsWhereRowsFit: number;
  /** Cuts between two CJK characters that are not after a sentence end (mid-sentence). */
  cjkMidSentenceCuts: number;
  /** Blocks holding rows of a GFM table but not its start, without its header + delimiter rows. */
  headerlessTablePieces: number;
  /** The same, where the header is repeated and fits beside the next row (see headerFitsBeside). */
  headerlessWhereRepeated: number;
  /** Blocks in which a fence is opened and not closed. */
  unbalancedFences: number;
  /** Null, or why the blocks are not the input again (then the counts by position are 0). */
  mismatch: string | null;
}

/** Measures `blocks`, cut from `input` at `maxChars` (see BlockQuality). */
export function measureBlocks(input: string, blocks: string[], maxChars: number): BlockQuality {
  const quality: BlockQuality = {
    blocks: blocks.length,
    longest: Math.max(0, ...blocks.map((block) => block.length)),
    endingWithHeading: blocks
      .slice(0, -1)
      .filter((block) => endsWithHeading(block) && !onlyHeadings(block)).length,
    endingWithListMarker: 0,
    midRowCuts: 0,
    midRowCutsWhereRowsFit: 0,
    cjkMidSentenceCuts: 0,
    headerlessTablePieces: 0,
    headerlessWhereRepeated: 0,
    unbalancedFences: blocks.filter((block) => !fencesBalanced(block)).length,
    mismatch: null,
  };
  const aligned = alignBlocks(input, blocks);
  if (typeof aligned === 'string') return { ...quality, mismatch: aligned };
  const tables = findTables(input);
  for (const [index, { start, end }] of aligned.entries()) {
    if (index < blocks.length - 1 && endsWithListMarker(blocks[index])) {
      // Only a marker that starts a line of the input ("end. 1." cut after "end." is not one)
      // and has its item text after the cut on the same line.
      const lastLine = blocks[index].trimEnd().split('\n').pop()!.trim();
      const lineStart = input.lastIndexOf('\n', end - lastLine.length - 1) + 1;
      const lineEnd = input.indexOf('\n', end);
      const rest = input.slice(end, lineEnd < 0 ? input.length : lineEnd);
      // (A marker is followed by a space: "*em*" cut after "*" is a hard cut, not a marker.)
      if (input.slice(lineStart, end).trim() === lastLine && /^[ \t]+\S/.test(rest)) {
        quality.endingWithListMarker++;
      }
    }
    if (index < blocks.length - 1) {
      const [before, after] = [input[end - 1] ?? '', input[end] ?? ''];
      if (CJK.test(before) && CJK.test(after) && !CJK_SENTENCE_END.test(before)) {
        quality.cjkMidSentenceCuts++;
      }
      const cutRow = tables
        .flatMap((candidate) => candidate.rows)
        .find((row) => row.start < end && end < row.end);
      if (cutRow) {
        quality.midRowCuts++;
        if (cutRow.text.length <= maxChars) quality.midRowCutsWhereRowsFit++;
      }
    }
    for (const table of tables) {
      if (table.header === null || !(table.start < start && start < table.end)) continue;
      if (blocks[index].startsWith(`${table.header}\n`)) continue;
      quality.headerlessTablePieces++;
      if (headerFitsBeside(table, start, maxChars)) quality.headerlessWhereRepeated++;
    }
  }
  return quality;
}
