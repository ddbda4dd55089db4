// The chat message a planner is growing: the model's text behind it, what it shows, and the
// closer of a fence the chunker cut at its end. Shared by the plain and the rendered planner.

import type { BlockOrigin } from '../chunking/blockOrigin';

/** The message being grown: the model's text so far (to join the next block to) and what it shows. */
export interface OpenMessage {
  /** The model's text (with the first block's reopen line or table header), untrimmed. */
  model: string;
  /** What the message shows while it may still grow: each next text starts with it. */
  text: string;
  /** The chunker's closer of a fence cut at the message's end, shown once the message closes. */
  closer: string;
}

/** The message's text once it closes. */
export const finalText = (open: OpenMessage) => open.text + open.closer;

/**
 * The message once `blockText` joins it. A block that continues the same text part (its
 * `origin` says so) is joined as the model wrote it: the previous block's closer and this
 * block's reopen line go, the model's own text between them comes back. Any other block (a
 * new text part, a block made by hand) follows the message's final text after `separator`.
 */
export function joinBlock(
  open: OpenMessage,
  blockText: string,
  origin: BlockOrigin | undefined,
  separator: string,
): OpenMessage {
  if (origin?.continues) {
    const model = open.model + origin.lead + origin.body;
    return { model, text: model.trimEnd(), closer: origin.closer };
  }
  const before = finalText(open) + separator;
  const start = startMessage(blockText, origin);
  return { model: before + start.model, text: before + start.text, closer: start.closer };
}

/** A message that starts with the block: its text as the chunker made it, the closer held. */
export function startMessage(blockText: string, origin: BlockOrigin | undefined): OpenMessage {
  if (!origin) return { model: blockText, text: blockText, closer: '' };
  const model = origin.prefix + origin.body;
  return { model, text: model.trimEnd(), closer: origin.closer };
}
