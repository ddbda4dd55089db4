// The fence lines a Slack message shows beyond its share of the chat message's text: a share
// that ends inside a fenced code block is closed, and the next one reopens the block with the
// same opening line, so no Slack message shows code as prose (DESIGN §13: a fenced code block
// is never split without closing and reopening it).

import { readFenceLine, reopenLine, type FenceRegion } from '../../chunking/fenceTracker';
import { createMarkdownScanner } from '../../chunking/markdownScanner';

/** The fence a share starts or ends inside: its marker and info string. */
export type OpenFence = Pick<FenceRegion, 'marker' | 'info' | 'start' | 'contentStart'>;

// The scanner sizes its own reopen lines by this; ours are sized by the part's budget.
const UNBOUNDED = Number.MAX_SAFE_INTEGER;
const MARKER_LINE = /^ {0,3}([`~].*)$/;

/**
 * The fenced code block `text` ends inside, or null: its fence lines read as the block chunker
 * reads them (CommonMark). A last line still unfinished that already reads as the block's
 * closer closes it: the part ending there shows the block closed.
 */
export function fenceAtEnd(text: string): OpenFence | null {
  // Most texts have no fence: no scan.
  if (!text.includes('```') && !text.includes('~~~')) return null;
  const scanner = createMarkdownScanner(UNBOUNDED);
  scanner.scan(text);
  const fence = scanner.openFence;
  if (fence === null) return null;
  const last = MARKER_LINE.exec(text.slice(text.lastIndexOf('\n') + 1));
  if (last && readFenceLine(last[1], fence).kind === 'closer') return null;
  return fence;
}

/**
 * The line (with its line feed) that reopens `fence` at the start of a part holding at most
 * `chars` characters and `bytes` UTF-8 bytes; '' outside a fence, or when the bare marker does
 * not fit twice beside some code (the part then goes without fence lines).
 */
export function openingLine(fence: OpenFence | null, chars: number, bytes: number): string {
  if (fence === null) return '';
  const line = reopenLine(fence.marker, fence.info, Math.min(chars, bytes));
  return line === null ? '' : `${line}\n`;
}

/**
 * The closer of `fence` after a part showing `shown` (on a line of its own: a code line cut
 * before its line feed gets one); '' outside a fence, or when `fence` could not be reopened.
 */
export function closingLine(
  fence: OpenFence | null,
  shown: string,
  chars: number,
  bytes: number,
): string {
  if (openingLine(fence, chars, bytes) === '') return '';
  return (shown === '' || shown.endsWith('\n') ? '' : '\n') + fence!.marker;
}

/**
 * `share` (at `offset` in `text`) as complete markdown: the opening line of the block it starts
 * inside, and the closer of the block it ends inside when more of `text` follows.
 */
export function completeShare(
  text: string,
  offset: number,
  share: string,
  limit: number,
): { opening: string; markdown: string; closing: string } {
  const opening = openingLine(fenceAtEnd(text.slice(0, offset)), limit, limit);
  const end = offset + share.length;
  const closing =
    end < text.length
      ? closingLine(fenceAtEnd(text.slice(0, end)), opening + share, limit, limit)
      : '';
  return { opening, markdown: opening + share + closing, closing };
}
