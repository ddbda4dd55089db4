// The fence lines a Slack transport adds where it continues a chat message in a new Slack
// message inside a fenced code block: a closer at the end of the part before, the block's
// opening line at the start of the next. Read with a scanner of the specs' own (CommonMark
// fences: 0–3 spaces, ≥ 3 backticks or tildes, a closer as long or longer with nothing after).

/** A fenced code block open at some point: its marker and info string. */
export interface SpecFence {
  marker: string;
  info: string;
}

const OPENER = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const CLOSER = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
const FENCE_RUN = /^ {0,3}(```|~~~)/;

/** The code block `text` ends inside (its complete lines read; or a last line that closes it). */
export function fenceOpenAtEnd(text: string): SpecFence | null {
  let open: SpecFence | null = null;
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    const closer = CLOSER.exec(line);
    if (open) {
      if (closer && closer[1][0] === open.marker[0] && closer[1].length >= open.marker.length)
        open = null;
      continue;
    }
    // The last line is not complete yet: it opens nothing until its line feed.
    if (index === lines.length - 1) break;
    const opener = OPENER.exec(line);
    if (opener && !(opener[1][0] === '`' && opener[2].includes('`')))
      open = { marker: opener[1], info: opener[2].trim() };
  }
  return open;
}

/** The opening line the transport writes to reopen `fence`. */
export const openingLineOf = (fence: SpecFence) => `${fence.marker}${fence.info}\n`;

/** One point where a chat message went on in a new Slack message. */
export interface RotationPoint {
  /** Where in the chat message's text. */
  at: number;
  /** The point lies inside a code block. */
  inside: boolean;
  /** The part before ends with a closer the text does not have there. */
  closed: boolean;
  /** The part after starts with the block's opening line. */
  opened: boolean;
}

/**
 * `parts` (what each Slack message shows, in order) read back against `texts` (each chat
 * message's markdown, in order): each message's shares (the parts with the fence lines added at
 * its rotation points taken off) and its rotation points. A closer is taken off only where the
 * text has none and the next part reopens the same block, so a closer of the text stays.
 */
export function readAddedFences(parts: string[], texts: string[]) {
  let next = 0;
  return texts.map((text) => {
    const shares: string[] = [];
    const points: RotationPoint[] = [];
    let offset = 0;
    do {
      let body = parts[next++] ?? '';
      if (offset > 0) {
        const fence = fenceOpenAtEnd(text.slice(0, offset));
        const opened = fence !== null && body.startsWith(openingLineOf(fence));
        if (opened) body = body.slice(openingLineOf(fence!).length);
        Object.assign(points.at(-1)!, { inside: fence !== null, opened });
      }
      const share = withoutAddedCloser(body, text, offset, parts[next] ?? '');
      shares.push(share);
      const closed = share !== body;
      offset += share.length;
      if (offset < text.length) points.push({ at: offset, inside: false, closed, opened: false });
    } while (offset < text.length && next < parts.length);
    return { text, shares, points };
  });
}

/**
 * `body` (a part at `offset` of `text`, its opening line taken off) without the closer the
 * transport added: one that ends "\n" + marker where the text, at that point inside the block,
 * goes on with what `following` (the next part) shows after reopening the block. Whether the
 * closer's line feed is the text's own is told by where the next part's text starts.
 */
function withoutAddedCloser(body: string, text: string, offset: number, following: string) {
  const closer = /\n(`{3,}|~{3,})$/.exec(body);
  if (closer === null) return body;
  for (const share of [body.slice(0, -closer[1].length), body.slice(0, -closer[0].length)]) {
    const end = offset + share.length;
    if (end >= text.length || !text.startsWith(share, offset)) continue;
    const fence = fenceOpenAtEnd(text.slice(0, end));
    if (fence?.marker !== closer[1] || !following.startsWith(openingLineOf(fence))) continue;
    const next = following.slice(openingLineOf(fence).length).replace(/\n?(`{3,}|~{3,})$/, '');
    if (text.startsWith(next, end)) return share;
  }
  return body;
}

/**
 * The rule for Slack messages `held` (in order) of the chat messages `texts`: each message's
 * shares join to its text exactly; a rotation inside a code block reopens it in the next part
 * and, where the transport stopped the part before (not Slack), closes it there; a rotation
 * outside adds nothing; every part before its message's last balances its fence lines.
 * Returns what was read, for further checks.
 */
export function expectFencedRotations(
  held: Array<{ text: string; stream?: string }>,
  texts: string[],
) {
  const reads = readAddedFences(
    held.map((m) => m.text),
    texts,
  );
  let index = 0;
  for (const read of reads) {
    expect(read.shares.join('')).toBe(read.text);
    const parts = held.slice(index, (index += read.shares.length));
    for (const [i, point] of read.points.entries()) {
      const closes = point.inside && parts[i].stream === 'stopped';
      // `at` names the rotation point in a failure.
      expect([point.at, point.opened, point.closed]).toEqual([point.at, point.inside, closes]);
      // Not told: a part that starts mid-line of the text with ``` / ~~~ (the text's line
      // `a ```ts`), after a stream stopped for its age before the rest of that line came:
      // Slack reads that run as a fence line of its own.
      const start = i === 0 ? 0 : read.points[i - 1].at;
      const midFence = start > 0 && read.text[start - 1] !== '\n' && FENCE_RUN.test(read.shares[i]);
      if (parts[i].stream === 'stopped' && !midFence)
        expect(fenceOpenAtEnd(`${parts[i].text}\n`)).toBeNull();
    }
  }
  expect(index).toBe(held.length);
  return reads;
}
