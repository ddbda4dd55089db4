// The format-neutral shape `renderMarkdown` works on: blocks of styled text and code blocks,
// built once from markdown-it's token stream, rendered per format, split between and inside.

/** An inline style. One object per markdown span, shared by every run inside that span. */
export interface Mark {
  type: 'bold' | 'italic' | 'strikethrough' | 'code' | 'link';
  /** For `link`: an absolute URL a chat app accepts. */
  url?: string;
  /** For `link`: written as a bare URL (`<https://…>` or linkified), its text is the address. */
  bare?: boolean;
}

/** Text with the marks that apply to it, outermost first. */
export interface Run {
  text: string;
  marks: readonly Mark[];
}

/** What separates a block from the one before it in the same message. */
export type Gap = '\n' | '\n\n';

/** A paragraph, heading or list item: styled runs (a list bullet is a run of its own). */
export interface TextBlock {
  kind: 'text';
  runs: Run[];
  /** Inside a blockquote. */
  quote: boolean;
  /** Heading level 1–6; rendered as a bold line (Discord: `#` kept). */
  heading?: number;
  gap: Gap;
}

/** A fenced or indented code block, or a table laid out as monospace lines. */
export interface CodeBlock {
  kind: 'code';
  code: string;
  /** The fence's language ('' when none, or when it is no plain language name). */
  language: string;
  quote: boolean;
  gap: Gap;
}

export type Block = TextBlock | CodeBlock;

/** The text a reader sees in a block, markers aside. */
export function blockText(block: Block): string {
  return block.kind === 'code' ? block.code : block.runs.map((run) => run.text).join('');
}

/** The part of `block` between visible offsets `start` and `end` (marks kept on every run). */
export function sliceBlock<B extends Block>(block: B, start: number, end: number): B {
  if (block.kind === 'code') return { ...block, code: block.code.slice(start, end) };
  const runs: Run[] = [];
  let at = 0;
  for (const run of block.runs) {
    const from = Math.max(start - at, 0);
    const to = Math.min(end - at, run.text.length);
    if (from < to) runs.push({ text: run.text.slice(from, to), marks: run.marks });
    at += run.text.length;
  }
  return { ...block, runs };
}

/** `block` with its marks dropped (the last resort when one character with its marks is too long). */
export function withoutMarks<B extends Block>(block: B): B {
  if (block.kind === 'code') return block;
  return { ...block, runs: [{ text: blockText(block), marks: [] }], heading: undefined };
}
