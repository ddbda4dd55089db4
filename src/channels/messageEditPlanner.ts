import type { BlockOrigin } from '../chunking/blockOrigin';
import { MIN_MAX_CHARS } from '../chunking/chunkingOptions';
import { cutMessage } from '../chunking/messageCut';
import type {
  MessageEdit,
  MessageEditPlanner,
  MessageEditPlannerOptions,
  MessageStep,
} from './messageSteps';
import { finalText, joinBlock, startMessage, type OpenMessage } from './openMessage';
import { createRenderedEditPlanner } from './renderedEditPlanner';
import { splitToFit } from './splitToFit';

export type {
  MessageEdit,
  MessageEditPlanner,
  MessageEditPlannerOptions,
  MessageEnd,
  MessageStep,
  ToolStatus,
} from './messageSteps';
export { splitToFit } from './splitToFit';

/**
 * The pure core of `toMessageEdits` (no RxJS): state for one reply. `push(blockText, origin?)`
 * returns the sends and edits that show that block; `close()` ends the reply.
 *
 * - The block fits in the current message: one `edit`. Blocks of one text part are joined as
 *   the model wrote them (`origin`, recorded by bufferChunk): no separator, and a fence the
 *   chunker closed and reopened between them is whole again. Other blocks follow `separator`.
 * - Every text of a message starts with the one before (a streaming app only appends), but
 *   for a trim back to the message's cut. A fence the chunker cut at the message's end is
 *   closed when the message closes: at `close()`, or at the cut. The limit counts it.
 * - It does not fit: the message's model text is cut by `cutMessage` (the block rules), the
 *   message trimmed back to the cut (an `edit`, when it showed more), and the rest `send`s the
 *   next message, a cut fence reopened; repeated while the rest still passes the limit. The
 *   cut depends on the text alone, so the same text in other blocks gives the same messages.
 * - Below 16 characters (no cut there): the block starts a new message, split at the last
 *   whitespace within the limit when it alone is too long (else hard at the limit, never
 *   inside a surrogate pair).
 * - An empty block changes nothing.
 *
 * With `render`, see {@link createRenderedEditPlanner}.
 */
export function createMessageEditPlanner({
  maxMessageChars,
  separator,
  render,
}: MessageEditPlannerOptions): MessageEditPlanner {
  if (render) return createRenderedEditPlanner({ maxMessageChars, separator, render });
  let message = -1;
  let open: OpenMessage | undefined;
  // What message `message` shows so far; undefined until it is sent.
  let shownText: string | undefined;

  const show = (edits: MessageEdit[], text: string) => {
    if (text === shownText) return;
    edits.push({ op: shownText === undefined ? 'send' : 'edit', message, text });
    shownText = text;
  };
  const next = (model: string, closer: string) => {
    message++;
    shownText = undefined;
    // Untrimmed, as a block without origin leaves it: the next such block joins right after.
    open = { model, text: closer ? model.trimEnd() : model, closer };
  };
  const close = (): MessageEdit[] => {
    if (!open?.closer) return [];
    open = { ...open, text: finalText(open), closer: '' };
    const edits: MessageEdit[] = [];
    show(edits, open.text);
    return edits;
  };
  /** Shows `open`, first trimming every message that passes the limit back to its cut. */
  const settle = (current: OpenMessage): MessageEdit[] => {
    const edits: MessageEdit[] = [];
    open = current;
    // Each round sends at least one character on, so the loop ends.
    // (Whitespace at the end does not count: it is shown once the next text follows it.)
    const passes = () => finalText(open!).trimEnd().length > maxMessageChars;
    for (let round = 0; passes() && round < 1e6; round++) {
      const cut =
        cutMessage(open.model, maxMessageChars) ??
        cutMessage(open.model, maxMessageChars - open.closer.length);
      if (!cut) break;
      show(edits, cut.text);
      next(cut.rest, open.closer);
    }
    if (passes()) return [...edits, ...splitOpen()];
    show(edits, open.text.length > maxMessageChars ? open.text.trimEnd() : open.text);
    return edits;
  };
  /** No cut the chunker takes (it found none within the limit): the message split plainly. */
  const splitOpen = (): MessageEdit[] => {
    const edits: MessageEdit[] = [];
    const pieces = splitToFit(finalText(open!), maxMessageChars);
    pieces.forEach((piece, index) => {
      if (index > 0) next(piece, '');
      show(edits, piece);
    });
    const last = pieces.at(-1) ?? '';
    open = { model: last, text: last, closer: '' };
    return edits;
  };
  // Below the chunker's smallest limit (16): a block that does not fit starts the next message.
  const pushWhole = (blockText: string, origin?: BlockOrigin): MessageEdit[] => {
    if (open) {
      const joined = joinBlock(open, blockText, origin, separator);
      if (finalText(joined).length <= maxMessageChars) return settle(joined);
    }
    const edits = close();
    const pieces = splitToFit(blockText, maxMessageChars);
    if (pieces.length === 1 && origin) {
      next('', '');
      return [...edits, ...settle(startMessage(blockText, origin))];
    }
    for (const piece of pieces) {
      next(piece, '');
      show(edits, piece);
    }
    return edits;
  };

  return {
    push(blockText: string, origin?: BlockOrigin): MessageEdit[] {
      if (blockText === '') return [];
      if (maxMessageChars < MIN_MAX_CHARS) return pushWhole(blockText, origin);
      if (open) return settle(joinBlock(open, blockText, origin, separator));
      next('', '');
      return settle(startMessage(blockText, origin));
    },
    close,
  };
}

/** True for a `send` or an `edit`, false for the `end` step: `steps.filter(isMessageEdit)`. */
export function isMessageEdit(step: MessageStep): step is MessageEdit {
  return step.op !== 'end';
}
