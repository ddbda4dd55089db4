// Packs rendered blocks into messages within the limit: between blocks where it can, inside a
// block (closing and reopening its marks, fence and language) only when the block alone is
// too long.

import { cutsSurrogatePair } from '../text/surrogates';
import { blockText, sliceBlock, withoutMarks, type Block } from './blocks';
import { joinFragments, type FormatWriter, type Fragment } from './fragment';
import type { RenderFormat, RenderedMessage } from './types';

/** One message: as the app gets it, and its visible text (what `plain` would show). */
export interface LaidOutMessage {
  rendered: RenderedMessage;
  plain: string;
}

/** `block` rendered, with its visible text. */
const renderBlock = (writer: FormatWriter, block: Block): Fragment => ({
  ...writer.block(block),
  plain: blockText(block),
});

/** The blocks as messages of at most `limit` (as the writer counts it). */
export function layoutMessages(
  blocks: readonly Block[],
  writer: FormatWriter,
  format: RenderFormat,
  limit: number,
): LaidOutMessage[] {
  const messages: Fragment[] = [];
  let current: Fragment | undefined;
  for (const block of blocks) {
    const rendered = renderBlock(writer, block);
    if (current && current.length + block.gap.length + rendered.length <= limit) {
      current = joinFragments(current, block.gap, rendered);
      continue;
    }
    if (current) messages.push(current);
    const pieces = rendered.length <= limit ? [rendered] : splitBlock(block, writer, limit);
    current = pieces.pop();
    messages.push(...pieces);
  }
  if (current) messages.push(current);
  return messages.map((fragment) => {
    const plain = fragment.plain ?? '';
    return { rendered: { ...writer.message(fragment), format, plain }, plain };
  });
}

/** `block` in pieces that each render within `limit`. */
function splitBlock(block: Block, writer: FormatWriter, limit: number): Fragment[] {
  const pieces: Fragment[] = [];
  let rest: Block | undefined = block;
  while (rest) {
    const rendered = renderBlock(writer, rest);
    if (rendered.length <= limit) {
      pieces.push(rendered);
      break;
    }
    let fit = longestFittingPrefix(rest, writer, limit);
    if (fit === 0) {
      // Not one character fits with its marks (a long link around it): show it unmarked.
      rest = withoutMarks(rest);
      fit = longestFittingPrefix(rest, writer, limit);
      if (fit === 0) throw new Error(`renderMarkdown: limit ${limit} leaves no room for text`);
    }
    const { end, next } = cutAt(rest, fit);
    pieces.push(renderBlock(writer, trimBlock(sliceBlock(rest, 0, end))));
    const text = blockText(rest);
    rest =
      next < text.length
        ? trimBlock(sliceBlock(rest, next, text.length), rest.kind === 'code')
        : undefined;
    if (rest && blockText(rest) === '') rest = undefined;
  }
  return pieces;
}

/** The largest visible length whose prefix of `block` renders within `limit` (binary search). */
function longestFittingPrefix(block: Block, writer: FormatWriter, limit: number): number {
  const text = blockText(block);
  // Every format counts each visible character at least once: no prefix past `limit` fits.
  let low = 0;
  let high = Math.min(text.length, limit);
  while (low < high) {
    let middle = Math.ceil((low + high) / 2);
    // Only whole code points are tried: never half an emoji.
    if (cutsSurrogatePair(text, middle)) middle = middle < high ? middle + 1 : middle - 1;
    if (middle <= low) break;
    if (writer.block(trimBlock(sliceBlock(block, 0, middle))).length <= limit) low = middle;
    else high = middle - 1;
  }
  return low;
}

/**
 * Where to cut a block whose first `fit` characters fit: at a line break, else at whitespace
 * (text: in the second half; code: anywhere, a line is kept whole), else hard at `fit`.
 * `end` closes the first piece, `next` starts the rest (the break itself is dropped).
 */
function cutAt(block: Block, fit: number): { end: number; next: number } {
  const text = blockText(block);
  const window = text.slice(0, fit + 1);
  const newline = window.lastIndexOf('\n');
  if (newline > 0 && (block.kind === 'code' || newline > fit / 2)) {
    return { end: newline, next: newline + 1 };
  }
  const space = window.search(/\s\S*$/);
  if (space > fit / 2) return { end: space, next: space + 1 };
  return { end: fit, next: fit };
}

/** `block` without whitespace at its ends (code keeps its leading indentation). */
function trimBlock<B extends Block>(block: B, keepStart = block.kind === 'code'): B {
  const text = blockText(block);
  const start = keepStart ? 0 : text.length - text.trimStart().length;
  const end = text.trimEnd().length;
  return start === 0 && end === text.length
    ? block
    : sliceBlock(block, start, Math.max(start, end));
}
