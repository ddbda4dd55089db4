// A plain split of a text too long for one message, for limits below the block chunker's 16.

import { cutsSurrogatePair } from '../text/surrogates';

/** `text` in pieces of at most `limit` characters, cut at whitespace where possible. */
export function splitToFit(text: string, limit: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > limit) {
    const cut = cutPosition(rest, limit);
    const piece = rest.slice(0, cut).trimEnd();
    rest = rest.slice(cut).trimStart();
    // A piece that was all whitespace (a long run of spaces) is not worth a message.
    if (piece !== '') pieces.push(piece);
  }
  if (rest !== '') pieces.push(rest);
  return pieces;
}

/** Where to cut `text` so the first part is at most `limit` characters and at least one. */
function cutPosition(text: string, limit: number): number {
  const window = text.slice(0, limit + 1);
  // A line break wins unless it would leave a short first piece; then any whitespace will do.
  const newline = window.lastIndexOf('\n');
  if (newline > limit / 2) return newline;
  const space = window.search(/\s\S*$/);
  if (space > 0) return space;
  // A hard cut keeps a surrogate pair whole, and the first piece at least one code unit long.
  return limit > 1 && cutsSurrogatePair(text, limit) ? limit - 1 : limit;
}
