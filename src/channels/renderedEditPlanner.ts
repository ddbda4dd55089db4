// The message planner with rendering: the same messages as the plain planner (cut from the
// model's text alone, by the block rules), measured as the chat app counts them once rendered.

import type { BlockOrigin } from '../chunking/blockOrigin';
import { MIN_MAX_CHARS } from '../chunking/chunkingOptions';
import { cutMessage, type MessageCut } from '../chunking/messageCut';
import { healMarkdown } from '../render/healMarkdown';
import { renderMessages } from '../render/renderMarkdown';
import type { RenderFormat, RenderedMessage } from '../render/types';
import type { MessageEdit, MessageEditPlanner, MessageEditPlannerOptions } from './messageSteps';
import { finalText, joinBlock, startMessage, type OpenMessage } from './openMessage';

/**
 * Whether a cut inside a paragraph may leave an inline span open: the paragraph up to the cut
 * holds `**`, `__`, `~~`, a backtick, a lone `*` or `_` an odd number of times (list markers
 * aside), or a link whose text or URL is not closed. (The renderer shows such a marker as
 * text; only its own split closes and reopens a span.)
 */
function mayLeaveSpanOpen(cutText: string): boolean {
  const paragraph = cutText
    .slice(cutText.search(/\n[ \t]*\n(?![\s\S]*\n[ \t]*\n)/) + 1)
    .replace(/^[ \t]*[*+-][ \t]/gm, '');
  // A link's address and a bare URL hold no markers.
  const prose = paragraph
    .replace(/\]\((?:[^()\s]|\([^()\s]*\))*\)/g, ']')
    .replace(/https?:\/\/\S+/g, '');
  const singles = prose.replace(/\*\*|__|~~/g, '');
  const odd = (pattern: RegExp, text = prose) => (text.match(pattern)?.length ?? 0) % 2 === 1;
  return (
    odd(/\*\*/g) ||
    odd(/__/g) ||
    odd(/~~/g) ||
    odd(/`/g) ||
    odd(/\*/g, singles) ||
    // An underscore inside a word (snake_case) opens nothing.
    odd(/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, singles) ||
    paragraph.lastIndexOf('[') > paragraph.lastIndexOf(']') ||
    paragraph.lastIndexOf('](') > paragraph.lastIndexOf(')')
  );
}

/**
 * The planner with rendering: every edit carries `rendered` (the message's markdown, `text`,
 * rendered for `render`), and a message fits when its markdown, closed, renders into one
 * message of at most `maxMessageChars` as `renderMarkdown` counts it.
 *
 * - Where a message ends depends on its model text alone, as without `render`: when the
 *   message would not fit, it is cut by `cutMessage` (the block rules: a cut fence closed and
 *   reopened with its info string, never inside a table row) at the largest budget of
 *   markdown whose cut still fits once rendered, trimmed back to that cut (an `edit`, when it
 *   showed more), and the rest goes on in the next message; repeated while the rest does not
 *   fit. A message that passes the limit only by a `**` still open at its end waits for it
 *   to close, and a cut inside a code block for a few more characters (whether the next code
 *   line still fits with its closer); meanwhile the message shows nothing new.
 * - A cut inside a paragraph that may leave an inline span open (`**`, a backtick, a link),
 *   which only the renderer closes and reopens, or no cut at all: then the block goes out in
 *   the pieces `renderMarkdown` cuts, one `send` per piece whose `text` is that piece's
 *   visible text, and the next block starts a new message (a piece is never edited).
 * - A block with nothing visible starts no message; with no separator (live text) the next
 *   block joins it.
 */
export function createRenderedEditPlanner({
  maxMessageChars,
  separator,
  render,
}: MessageEditPlannerOptions & { render: RenderFormat }): MessageEditPlanner {
  let message = -1;
  // The markdown of the current message; undefined before the first and after pieces.
  let open: OpenMessage | undefined;
  // What message `message` shows so far (undefined until it is sent), and the closer it held.
  let shownText: string | undefined;
  let shownCloser = '';

  // The last rendering kept: a fit check and the edit that shows the same text render once.
  let last: { markdown: string; messages: ReturnType<typeof renderMessages> } | undefined;
  const renderText = (markdown: string) => {
    if (last?.markdown !== markdown) {
      last = {
        markdown,
        messages: renderMessages(markdown, render, { maxLength: maxMessageChars }),
      };
    }
    return last.messages;
  };
  // Telegram counts a message's visible text. Without a table (its columns are padded) or a tab,
  // that is never more than 3× the markdown (a list's number and indentation, or a gap between
  // two blocks, add at most that much to the line they stand for): a markdown of at most a
  // third of the limit fits unrendered. Live text asks after every piece; this spares a
  // rendering of the whole message each time.
  const countsVisible = render === 'telegram' || render === 'telegram-html';
  const surelyFits = (markdown: string) =>
    countsVisible && markdown.length * 3 <= maxMessageChars && !/[|\t]/.test(markdown);
  const fits = (markdown: string) => surelyFits(markdown) || renderText(markdown).length <= 1;
  const show = (edits: MessageEdit[], text: string, rendered?: RenderedMessage) => {
    if (text === shownText) return; // nothing new
    // A message already shown stays visible as it grows, but for a reference definition
    // completed (`[1]:` shown, then its URL): other text is rendered to know.
    const stillVisible =
      shownText !== undefined && text.startsWith(shownText) && !text.includes(']:');
    if (!rendered && !stillVisible) {
      rendered = renderText(text)[0]?.rendered;
      if (!rendered) return; // nothing visible: a message is never sent empty
    }
    const op = shownText === undefined ? 'send' : 'edit';
    edits.push(
      rendered
        ? { op, message, text, rendered }
        : withRendered({ op, message, text }, () => renderText(text)[0]?.rendered),
    );
    shownText = text;
    shownCloser = open?.closer ?? '';
  };
  const next = (model: string, closer: string) => {
    message++;
    shownText = undefined;
    open = { model, text: closer ? model.trimEnd() : model, closer };
  };
  const close = (): MessageEdit[] => {
    if (!open) return [];
    // The final text, as it is: a fence the chunker closed is closed there (its closer stands
    // for the model's), a span the model never closed shows its markers.
    const text = finalText(open);
    return settle({ model: text, text, closer: '' }, undefined, true);
  };
  /** How much of the limit `markdown` takes once rendered (its visible text, all messages). */
  const visibleLength = (markdown: string) =>
    renderText(markdown).reduce((sum, { plain }) => sum + plain.length, 0);
  // From maxMessageChars on, every budget's cut window starts at half the limit: a larger
  // budget then never cuts earlier, so a longer cut never fits where a shorter one did not.
  const windowStart = Math.floor(maxMessageChars / 2);
  /**
   * The cut of `model` that fits once rendered: the block rules' cut at the largest budget of
   * markdown (from `maxMessageChars` on) whose cut still fits, found by bisection; below it
   * (rendered longer than its markdown, a table's padding) budgets made smaller by the excess.
   * The same text in other blocks gives the same cut: a budget past the text so far cuts
   * where the last one within it does (a cut taking all of the text does not fit: it is why
   * the message is cut), but for a cut inside a code block, whose next code line may need the
   * room of its closer: that waits for a few more characters (`wait`) unless `final`.
   */
  const cutToFit = (model: string, final: boolean): MessageCut | 'wait' | undefined => {
    const length = model.trimEnd().length;
    // Rendered longer than its markdown (a table's padding) before the markdown passes the
    // limit: the first budget is the limit, so more text decides.
    if (length <= maxMessageChars && !final) return 'wait';
    let budget = Math.min(maxMessageChars, length - 1);
    let cut = budget < MIN_MAX_CHARS ? undefined : cutMessage(model, budget, windowStart);
    if (cut && fits(cut.text)) {
      // Past the text so far a budget cuts where the last one within it does, or takes all
      // of it (which does not fit), but for a code line whose closer did not fit yet: wait.
      const atEnd = cutMessage(model, length - 1, windowStart);
      let low = budget + 1;
      let high = length - 1 + MIN_MAX_CHARS;
      while (low <= high) {
        const middle = (low + high) >>> 1;
        if (middle >= length && atEnd?.inFence && !final) return 'wait';
        const longer = middle >= length ? atEnd : cutMessage(model, middle, windowStart);
        if (longer && fits(longer.text)) {
          cut = longer;
          low = middle + 1;
        } else high = middle - 1;
      }
      return cut;
    }
    while (cut && !fits(cut.text)) {
      const over = visibleLength(cut.text) - maxMessageChars;
      budget = Math.min(budget - 1, cut.text.length - over);
      cut = budget < MIN_MAX_CHARS ? undefined : cutMessage(model, budget);
    }
    return cut;
  };
  /**
   * Shows `open`, first cutting every message that does not fit back to its cut. A message
   * that passes the limit only by the markers of a span still open at its end (`**wor`, shown
   * as text until it closes) waits for more text: cut there, a prefix would be longer than the
   * whole. As the answer ends (`final`) it is measured as it is.
   */
  const settle = (current: OpenMessage, blockText?: string, final = false): MessageEdit[] => {
    const edits: MessageEdit[] = [];
    open = current;
    // Each round sends at least one character on, so the loop ends.
    for (let round = 0; !fits(finalText(open)) && round < 1e6; round++) {
      if (!final && fits(healMarkdown(finalText(open)))) return edits;
      const cut = cutToFit(open.model, final);
      if (cut === 'wait') return edits;
      if (!cut || (cut.inParagraph && mayLeaveSpanOpen(cut.text))) {
        return [...edits, ...inPieces(blockText)];
      }
      show(edits, cut.text);
      // The chunker drops the indentation a message's first line starts with when it cuts
      // it: drop it at once, so the message's texts only grow.
      next(cut.rest.replace(/^[ \t]+/, ''), open.closer);
    }
    show(edits, open.text);
    return edits;
  };
  /**
   * No cut the block rules take: the message as it was shown is closed, and the block goes
   * out in the pieces renderMarkdown cuts; a message not shown yet (or the last one, as the
   * answer ends) goes out in pieces whole.
   */
  const inPieces = (blockText?: string): MessageEdit[] => {
    const edits: MessageEdit[] = [];
    let markdown = finalText(open!);
    if (shownText !== undefined && blockText !== undefined) {
      if (shownCloser) show(edits, shownText + shownCloser);
      markdown = blockText;
      message++;
      shownText = undefined;
    }
    renderText(markdown).forEach(({ rendered, plain }, index) => {
      if (index > 0) {
        message++;
        shownText = undefined;
      }
      show(edits, plain, rendered);
    });
    open = undefined;
    return edits;
  };

  return {
    push(blockText: string, origin?: BlockOrigin): MessageEdit[] {
      if (blockText === '') return [];
      if (open) return settle(joinBlock(open, blockText, origin, separator), blockText);
      // Nothing visible yet (live text's first piece may be a bare "```"): kept for the next
      // block when blocks are one text (no separator), else it changes nothing.
      if (separator !== '' && renderText(blockText).length === 0) return [];
      next('', '');
      return settle(startMessage(blockText, origin), blockText);
    },
    close,
  };
}

/**
 * `edit` with `rendered` as a property read when first asked for: an edit that `deliver`
 * supersedes (live text pushes several per call) is never rendered. It is an own, enumerable
 * property like any other (a spread or `toEqual` sees it).
 */
function withRendered(edit: MessageEdit, render: () => RenderedMessage | undefined): MessageEdit {
  let rendered: RenderedMessage | undefined;
  let done = false;
  return Object.defineProperty(edit, 'rendered', {
    enumerable: true,
    configurable: true,
    get() {
      if (!done) ((rendered = render()), (done = true));
      return rendered;
    },
  });
}
