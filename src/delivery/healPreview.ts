// Previews of an unfinished message, healed: the markdown the model has not closed yet (a `**`,
// a backtick, a half link) is closed for the preview, so a chat never shows raw markers and
// Telegram never rejects its entities. Only previews: a message's final text is never healed.
import remend from 'remend';
import type { MessageEdit } from '../channels/messageEditPlanner';
import { withStatusLine } from './statusLine';

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

/**
 * The preview of `edit` (a send or an edit of a message still growing): its text healed by
 * {@link healMarkdown}. A rendering made from the unhealed text is dropped, so the transport
 * renders the healed text in its own format. An edit whose text needs no healing is returned
 * as it is. Never for a `finish`.
 *
 * @example
 * ```ts
 * edit: (ref, edit, call) => update(ref, healPreview(edit), call),
 * finish: (ref, edit, call) => update(ref, edit, call), // the final text, as written
 * ```
 * @param edit - a non-final edit
 */
export function healPreview(edit: MessageEdit): MessageEdit {
  const healed = healMarkdown(edit.text);
  if (healed === edit.text) return edit;
  const { rendered: _unhealed, ...rest } = edit;
  return { ...rest, text: healed };
}

/**
 * What a transport shows while a message grows: {@link healPreview}, then the tool status
 * line of `withStatusLine` (within `maxChars`).
 *
 * @param edit - a non-final edit
 * @param maxChars - the transport's limit for one message
 */
export function previewOf(edit: MessageEdit, maxChars: number): MessageEdit {
  return withStatusLine(healPreview(edit), maxChars);
}
