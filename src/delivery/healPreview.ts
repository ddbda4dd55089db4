// Previews of an unfinished message, healed: the markdown the model has not closed yet (a `**`,
// a backtick, a half link) is closed for the preview, so a chat never shows raw markers and
// Telegram never rejects its entities. Only previews: a message's final text is never healed.
import type { MessageEdit } from '../channels/messageEditPlanner';
import { healMarkdown } from '../render/healMarkdown';
import { withStatusLine, withoutRendered } from './statusLine';

export { healMarkdown } from '../render/healMarkdown';

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
  return { ...withoutRendered(edit), text: healed };
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
