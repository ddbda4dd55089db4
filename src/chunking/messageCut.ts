// Where a chat message ends, from its text alone: the block chunker's first block of the
// message's model text, cut at maxChars by the block rules. toMessageEdits trims a message that
// would pass its limit back to this cut and carries the rest into the next message, so where
// a boundary falls depends on the model's text, never on when its blocks came.

import { blockOriginOf } from './blockOrigin';
import { createBlockChunker } from './blockChunker';
import { MIN_MAX_CHARS } from './chunkingOptions';

/** A message's final text, and the model text the next message starts with. */
export interface MessageCut {
  /** The message's final text: the model's text up to the cut (a cut fence closed). */
  text: string;
  /** The model's text after the cut, after the lines that reopen a cut fence or table. */
  rest: string;
  /**
   * The cut is inside a paragraph (at a line break, a sentence end or a space; not at a blank
   * line nor inside a code block), where an inline span (`**…**`, a link) may be open.
   */
  inParagraph: boolean;
  /** The cut is inside a code block (closed in `text`, reopened in `rest`). */
  inFence: boolean;
}

/**
 * Cuts `model` (the model's text of one chat message, longer than `maxChars`) where the block
 * chunker would: the last paragraph break, else line break, else sentence end, else
 * whitespace in the second half of the limit; never inside a table row that fits, a heading
 * kept with its section, a cut fence closed at the end and reopened with its info string in
 * `rest` (a table's header rows repeated). `text` is at most `maxChars` long. Undefined when
 * `model` fits, or `maxChars` is below the chunker's 16.
 *
 * @example
 * ```ts
 * cutMessage('First paragraph.\n\nSecond one, which is longer.', 24);
 * // { text: 'First paragraph.', rest: 'Second one, which is longer.' }
 * ```
 * @param model - the message's model text (with the lines that reopen what the last cut cut)
 * @param maxChars - the message limit (≥ 16)
 * @param minChars - where the cut's window starts (the break of the best kind at or after it
 *   is taken): a fixed one makes a larger `maxChars` never cut earlier @defaultValue half of
 *   `maxChars`
 */
export function cutMessage(
  model: string,
  maxChars: number,
  minChars = Math.floor(maxChars / 2),
): MessageCut | undefined {
  if (maxChars < MIN_MAX_CHARS || model.trimEnd().length <= maxChars) return undefined;
  const chunker = createBlockChunker({
    minChars: Math.min(minChars, maxChars),
    maxChars,
    mode: 'end',
  });
  chunker.append(model);
  const [first, second] = chunker.end('end');
  const head = first && blockOriginOf(first);
  const next = second && blockOriginOf(second);
  if (!head || !next) return undefined;
  // The body starts at the first line with text (indented or not): no earlier place matches it.
  const end = model.indexOf(head.body) + head.body.length;
  // The whitespace at the cut: a hard cut may fall inside it, leaving part in the body.
  const gap = head.body.slice(head.body.trimEnd().length) + next.lead;
  return {
    text: first.text,
    rest: next.prefix + model.slice(end + next.lead.length),
    inParagraph: head.closer === '' && !/\n[ \t]*\n/.test(gap),
    inFence: head.closer !== '',
  };
}
