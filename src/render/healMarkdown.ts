// The markdown of an unfinished message with its open markers closed: what a preview shows,
// and how long the message counts while it may still grow (toMessageEdits with render).
import remend from 'remend';

/**
 * The markdown of an unfinished message with its open markers closed (by `remend`, the healer
 * of streamdown): `**wor` → `**wor**`, `` `co `` → `` `co` ``, `[the do` → `the do` (a link
 * without its address shows its text only), `Hello **` → `Hello ` (nothing to close yet). An
 * open fence is left to the renderers, which close it themselves.
 *
 * @example
 * ```ts
 * healMarkdown('Hello **wor'); // 'Hello **wor**'
 * ```
 * @param markdown - the message's text so far
 */
export function healMarkdown(markdown: string): string {
  // An opener with nothing after it yet (`Hello **`) has nothing to close: it waits unseen.
  const healed = remend(markdown, { linkMode: 'text-only', images: false, katex: false });
  return healed.replace(DANGLING_OPENER, '$1');
}

const DANGLING_OPENER = /(^|\s)[*_~`]+$/;
