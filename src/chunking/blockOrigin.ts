// Where a block's text came from in the model's text: what the chunker trimmed around it and
// the fence or table lines it added. toMessageEdits reads it to join blocks that share one chat
// message back into the model's own text. Kept beside the block objects (a WeakMap), not on
// them: a `block` event's fields stay `text`, `seq` and `reason`.

/** The model's text behind one block, and the lines the chunker added to it. */
export interface BlockOrigin {
  /** A block of the same text part came before it: `lead` joins the two. */
  continues: boolean;
  /** The model's text between the previous block's end and this block's body (whitespace, or a fence closer the previous block's closer stood for). */
  lead: string;
  /** The model's text of the block, untrimmed at its end. */
  body: string;
  /** Lines the chunker put before `body`: a reopened fence's opener, a repeated table header. */
  prefix: string;
  /** The closer the chunker put after `body` when the block ends inside a fence, or `''`. */
  closer: string;
}

const origins = new WeakMap<object, BlockOrigin>();

/** Records `origin` for `block` (a chunk block, or the `block` event made from it). */
export function recordBlockOrigin(block: object, origin: BlockOrigin): void {
  origins.set(block, origin);
}

/** The origin recorded for `block`, or undefined (a block made by hand, or copied). */
export function blockOriginOf(block: object): BlockOrigin | undefined {
  return origins.get(block);
}
