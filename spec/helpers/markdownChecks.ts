// Reference checks for chunked markdown, written independently of src/chunking (line regexes,
// no incremental state), so the property specs do not grade the chunker with its own logic.

const OPENER = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const CLOSER = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;

/** True when every fence opened in `text` is closed in it (CommonMark fence rules). */
export function fencesBalanced(text: string): boolean {
  let open: string | null = null;
  for (const line of text.split('\n')) {
    if (open === null) {
      const match = OPENER.exec(line);
      if (match && !(match[1][0] === '`' && match[2].includes('`'))) open = match[1];
    } else {
      const match = CLOSER.exec(line);
      if (match && match[1][0] === open[0] && match[1].length >= open.length) open = null;
    }
  }
  return open === null;
}

/** True when a block is a code fence with nothing but whitespace inside. */
export function hasEmptyCodeBlock(text: string): boolean {
  const lines = text.split('\n');
  let open: string | null = null;
  let hasCode = false;
  for (const line of lines) {
    if (open === null) {
      const match = OPENER.exec(line);
      if (match && !(match[1][0] === '`' && match[2].includes('`'))) {
        open = match[1];
        hasCode = false;
      }
    } else {
      const match = CLOSER.exec(line);
      if (match && match[1][0] === open[0] && match[1].length >= open.length) {
        if (!hasCode) return true;
        open = null;
      } else if (line.trim() !== '') hasCode = true;
    }
  }
  return false;
}

const WHITESPACE = /\s/;
const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})[^\n]*/;

/** Where one block's text lies in the input: [start, end), inserted fence and header lines aside. */
export interface BlockSpan {
  start: number;
  end: number;
}

const TABLE_HEADER =
  /^ {0,3}\|[^\n]*\n {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*(?:\n|$)/;

/**
 * Checks that the blocks, with the fence lines the chunker added removed, are the input up to
 * whitespace at the cuts. A block's first line may be a synthetic reopen and its last line a
 * synthetic closer; a real closer with no code left before it may be replaced by the closer of
 * the previous block. Returns null when it holds, else what went wrong.
 */
export function joinMismatch(input: string, blocks: string[]): string | null {
  const aligned = alignBlocks(input, blocks);
  return typeof aligned === 'string' ? aligned : null;
}

/**
 * Finds each block in the input (see joinMismatch; a block may also start with a repeated table
 * header + delimiter row that the input has elsewhere). Returns the spans, or what went wrong.
 */
export function alignBlocks(input: string, blocks: string[]): BlockSpan[] | string {
  const spans: BlockSpan[] = [];
  let at = 0;
  let mayDropCloser = false;
  const skipWhitespace = (from: number) => {
    while (from < input.length && WHITESPACE.test(input[from])) from++;
    return from;
  };
  for (const [index, block] of blocks.entries()) {
    const lines = block.split('\n');
    const reopened = lines.length > 1 && FENCE_LINE.test(lines[0]) ? lines.slice(1) : null;
    const closed = (body: string[]) =>
      body.length > 1 && /^(`{3,}|~{3,})$/.test(body[body.length - 1]) ? body.slice(0, -1) : null;
    const variants: Array<{ body: string[]; closer: boolean }> = [{ body: lines, closer: false }];
    if (closed(lines)) variants.push({ body: closed(lines)!, closer: true });
    if (reopened) {
      variants.push({ body: reopened, closer: false });
      if (closed(reopened)) variants.push({ body: closed(reopened)!, closer: true });
    }
    if (lines.length > 2 && TABLE_HEADER.test(block)) {
      const body = lines.slice(2);
      variants.push({ body, closer: false });
      if (closed(body)) variants.push({ body: closed(body)!, closer: true });
    }
    const starts = [skipWhitespace(at)];
    if (mayDropCloser) {
      const closerMatch = FENCE_LINE.exec(input.slice(starts[0]));
      if (closerMatch) starts.push(skipWhitespace(starts[0] + closerMatch[0].length));
    }
    const found = starts.flatMap((start) =>
      variants
        .map((variant) => ({ ...variant, text: variant.body.join('\n').trimStart(), start }))
        .filter((variant) => input.startsWith(variant.text, variant.start)),
    )[0];
    if (!found) {
      return `block ${index} ${JSON.stringify(block)} does not continue the input at ${at}: ${JSON.stringify(input.slice(at, at + 80))}`;
    }
    at = found.start + found.text.length;
    spans.push({ start: found.start, end: at });
    mayDropCloser = found.closer;
  }
  let rest = skipWhitespace(at);
  if (mayDropCloser) {
    const closerMatch = FENCE_LINE.exec(input.slice(rest));
    if (closerMatch) rest = skipWhitespace(rest + closerMatch[0].length);
  }
  return rest === input.length
    ? spans
    : `input left after the blocks: ${JSON.stringify(input.slice(rest, rest + 80))}`;
}
