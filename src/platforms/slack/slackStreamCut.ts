// Where a Slack stream's text is cut: what fits a part's character and byte budgets, after a
// line (else a space), and, inside a fenced code block, with room for the block's closer.

import { closingLine, fenceAtEnd } from './slackFences';

/** What a part may hold: the message text before it, and the budgets of one stream. */
export interface PartRoom {
  /** The chat message's text in the parts so far (their shares joined). */
  streamed: string;
  /** The most characters and UTF-8 bytes one stream shows. */
  chars: number;
  bytes: number;
  /** The text is the message's final one: a part that takes all of it needs no closer. */
  final: boolean;
}

/**
 * `rest` cut for a part showing `opening` + `share`: `[chunk, after, closing]`, where `closing` is
 * the closer the part ends with when the cut falls inside a code block (none when it takes the
 * whole text). Room is kept for that closer while the text ends inside a block, so a later stop
 * (full, or for age) can still close it; a final text that fits needs none.
 */
export function cutForPart(
  rest: string,
  opening: string,
  share: string,
  room: PartRoom,
): [string, string, string] {
  const { streamed, chars, bytes } = room;
  const shown = opening + share;
  const charsLeft = chars - shown.length;
  const bytesLeft = bytes - utf8Length(shown);
  // The closer's length only grows from round to round (it is ASCII: bytes = characters).
  for (let reserve = 0; ;) {
    let [chunk, after] = cutToFit(rest, charsLeft - reserve, bytesLeft - reserve);
    if (room.final && after === '') return [chunk, '', ''];
    let fence = fenceAtEnd(streamed + chunk);
    // Inside a code block the part ends after a line of code in its second half, even when
    // that line ended before this chunk (a part with code of its own stops with nothing more).
    const line = (shown + chunk).lastIndexOf('\n') + 1 - shown.length;
    const lineFits = line > 0 || (line === 0 && share !== '');
    if (
      after !== '' &&
      fence !== null &&
      lineFits &&
      shown.length + line >= (shown.length + chunk.length) / 2
    ) {
      [chunk, after] = [rest.slice(0, line), rest.slice(line)];
      fence = fenceAtEnd(streamed + chunk);
    }
    const opener = fence === null ? -1 : fence.start - streamed.length;
    if (after !== '' && opener > 0 && fence!.contentStart === streamed.length + chunk.length)
      // A cut right after an opener line goes before it: no part shows an empty code block.
      return [rest.slice(0, opener), rest.slice(opener), ''];
    const closing = closingLine(fence, shown + chunk, chars, bytes);
    if (closing !== '' && after !== '') {
      // The text's own closer comes next: it ends this part (the next one starts after the
      // block), rather than an added closer and a next part reopening an empty block.
      const line = after.slice(0, (after.indexOf('\n') + 1 || after.length + 1) - 1);
      const whole = shown + chunk + line;
      if (
        whole.length <= chars &&
        utf8Length(whole) <= bytes &&
        fenceAtEnd(streamed + chunk + line) === null
      )
        return [chunk + line, after.slice(line.length), ''];
    }
    if (closing.length <= reserve || reserve >= Math.min(charsLeft, bytesLeft))
      return [chunk, after, after === '' ? '' : closing];
    reserve = closing.length;
  }
}

/** A line that reads as a fence line once it starts a message. */
const FENCE_LIKE = /^ {0,3}(```|~~~)/;

/**
 * How a stream stopped for its age ends: `[chunk, closing]` (the chunk finishes the line it
 * stopped in, when that is a line of code or could read as a fence line, or the opener line
 * just streamed gets its first code line: no part shows an empty block, starts its code with
 * an empty line or starts inside a fence line), or
 * null: inside a code block with no text yet to go on with, the stream takes what there is
 * and waits for that text, so a closer is added only where a next part reopens the block.
 */
export function ageStop(rest: string, shown: string, room: PartRoom, tasks: boolean) {
  const { streamed, chars, bytes } = room;
  const lineEnd = rest.indexOf('\n') + 1;
  const lineStart = streamed.lastIndexOf('\n') + 1;
  let fence = fenceAtEnd(streamed);
  let chunk = '';
  const midLine =
    lineStart < streamed.length &&
    (fence !== null || FENCE_LIKE.test(streamed.slice(lineStart) + rest) || FENCE_LIKE.test(rest));
  if (lineEnd > 0 && (midLine || fence?.contentStart === streamed.length)) {
    const line = rest.slice(0, lineEnd);
    const lineFence = fenceAtEnd(streamed + line);
    const whole = shown + line + closingLine(lineFence, shown + line, chars, bytes);
    if (whole.length <= chars && utf8Length(whole) <= bytes) [chunk, fence] = [line, lineFence];
  }
  const after = rest.slice(chunk.length);
  if (after === '' && room.final) return [chunk, ''] as const;
  if (fence !== null && after === '' && !tasks) return null;
  return [chunk, closingLine(fence, shown + chunk, chars, bytes)] as const;
}

/** The UTF-8 length of `text` (what Slack's undocumented stream cap counts). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * `text` cut after at most `chars` characters and `bytes` UTF-8 bytes, never inside a
 * surrogate pair: `[what fits, the rest]`.
 */
export function cutToFit(text: string, chars: number, bytes: number): [string, string] {
  let at = 0;
  let used = 0;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    const pair = code >= 0xd800 && code <= 0xdbff && at + 1 < text.length;
    const width = pair ? 2 : 1;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : pair ? 4 : 3;
    if (at + width > chars || used + size > bytes) break;
    at += width;
    used += size;
  }
  if (at >= text.length) return [text, ''];
  if (at === 0) return ['', text];
  // A part ends after a line, else after a space, in the fitting prefix's second half: a
  // rotated message never splits a word when it can help it.
  const line = text.lastIndexOf('\n', at - 1);
  const space = text.slice(0, at).search(/\s\S*$/);
  const cut = line >= at / 2 ? line + 1 : space >= at / 2 ? space + 1 : at;
  return [text.slice(0, cut), text.slice(cut)];
}
