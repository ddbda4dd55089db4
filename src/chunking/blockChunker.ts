// The incremental block chunker's public entry: options checked here, the work done by
// IncrementalChunker (incrementalChunker.ts).

import { BlockChunkerOptions, type BlockChunker } from './chunkingOptions';
import { IncrementalChunker } from './incrementalChunker';
import { parseOptions } from '../internal/parseOptions';

export type { BlockChunker, BlockChunkerOptions, BlockReason, ChunkBlock } from './chunkingOptions';

/**
 * A fence-aware, incremental markdown chunker (no RxJS): constant work per appended character.
 *
 * ```
 * minChars 5, maxChars 25, mode end
 * "Intro\n\n```bash\nline1\nline2\n```\n\nOutro"  →  "Intro" | "```bash\nline1\nline2\n```" | "Outro"
 * ```
 *
 * - A cut goes at the last break in [minChars, maxChars] of the best kind: paragraph > newline >
 *   sentence end > whitespace, else a hard cut at maxChars (never inside a surrogate pair).
 * - `breakPreference` is the finest kind that may end a block *early* (mode `stream`, held text
 *   still ≤ maxChars): `paragraph` (default) only paragraph breaks, `newline` also line breaks,
 *   `sentence` also sentence ends. Once the held text passes maxChars, every kind may be used.
 * - Fences and tables stay whole when they fit: if the only breaks in range are inside one, the
 *   cut goes just before it, even below minChars. A fence too long for one block is cut at a line
 *   (else word) break inside it, closed at the block's end and reopened (same marker and info) at
 *   the next block's start; every block, with those lines, is ≤ maxChars; no code block is empty.
 *   (That needs room for the opener line, a closer and some code: a fence whose opener line
 *   crowds maxChars is reopened without its info string, or cut as plain text as a last resort.)
 * - A heading belongs to its section: no block but the last ends with an ATX heading line, nor
 *   between a list marker and its item text; the cut moves to the line break before them, even
 *   below minChars. (A heading goes alone only when what starts its section cannot share a
 *   block with it: a table's header and delimiter rows, or a fence too long to split there.)
 * - A table that does not fit is cut only between rows when a row ends in reach (even below
 *   minChars), never between its header and delimiter rows while a later row will do. Every
 *   continuation block of a GFM table starts with its header and delimiter rows, counted inside
 *   maxChars, like a reopened fence; a header taking more than half of maxChars is not repeated.
 *   A row that fits maxChars is never cut: when the header and the next row do not fit together,
 *   that block goes without the header (the blocks after it get it again).
 * - `。！？．` (and `.!?`) end a sentence; the fullwidth ones (closing quotes and brackets may
 *   follow) end it even with no space after them, so Chinese and Japanese text is cut after a
 *   sentence rather than mid-sentence.
 * - A flush (idle, before a tool) holds back what could still change meaning: a line that may
 *   become a fence line, a trailing heading, a bare list marker, a table row still being written,
 *   a table whose header rows are not complete.
 * - `flushOnParagraph`: cut at the first paragraph break that gives ≥ minChars (reason
 *   `paragraph` while streaming) instead of the last.
 * - Whitespace at cuts is trimmed (the indentation of a block's first line is kept); no block is
 *   empty or whitespace only.
 *
 * @example
 * ```ts
 * const chunker = createBlockChunker({ minChars: 800, maxChars: 1200 });
 * for (const delta of deltas) for (const block of chunker.append(delta)) send(block.text);
 * for (const block of chunker.end('end')) send(block.text);
 * ```
 * @param options - `minChars`, `maxChars` (≥ 16), `breakPreference` @defaultValue `'paragraph'`,
 *   `flushOnParagraph` @defaultValue false, `mode` @defaultValue `'stream'`
 */
export function createBlockChunker(options: BlockChunkerOptions): BlockChunker {
  return createIncrementalChunker(options);
}

/**
 * createBlockChunker for bufferChunk: the same chunker, with `appendTo`, which collects the
 * blocks into the caller's array instead of a new one per delta.
 */
export function createIncrementalChunker(options: BlockChunkerOptions): IncrementalChunker {
  return new IncrementalChunker(parseOptions('createBlockChunker', BlockChunkerOptions, options));
}
