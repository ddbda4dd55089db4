// Knows, character by character, whether streamed Markdown is inside code: a fenced code block
// or an inline code span. Pure and incremental (constant work per character, no RxJS), so tag
// scanners can ask "is this `<` inside code?" without rescanning what came before.

/** An open fence: its character and how many of them opened it. */
interface OpenFence {
  char: '`' | '~';
  length: number;
}

/**
 * Where the tracker is in the current line. Fences are only recognised at a line start
 * (CommonMark: 0–3 spaces of indentation, then a run of ≥ 3 backticks or tildes).
 */
type LinePhase =
  | { kind: 'indent'; spaces: number }
  | { kind: 'fence-run'; char: '`' | '~'; length: number }
  | { kind: 'closer-tail' }
  | { kind: 'rest' };

/** Incremental "inside code?" state of a Markdown text; see {@link createMarkdownCodeTracker}. */
export interface MarkdownCodeTracker {
  /** Feeds one UTF-16 code unit of the text. */
  feed(char: string): void;
  /**
   * Feeds a whole piece of text: the same as feeding each of its code units, but mid-line it
   * jumps to the next character that can change anything (a line break; a backtick outside a
   * fence) instead of visiting every character.
   */
  feedText(text: string): void;
  /**
   * True when a `<` (any character but a space or a backtick) fed next would be inside a fenced
   * block or an inline code span.
   */
  insideCode(): boolean;
  /**
   * True when text without a line break or a backtick would change nothing: mid-line, no
   * backtick run pending. (Feeding such text may then be skipped.)
   */
  midLine(): boolean;
}

/**
 * Tracks fenced code blocks and inline code spans of Markdown as it streams.
 *
 * - A fence opens at a line start: 0–3 spaces, then ≥ 3 backticks or tildes; the rest of that
 *   line (the info string) is inside the block. It closes at a line of 0–3 spaces, the same
 *   character at least as many times, and only spaces or tabs after.
 * - Outside fences, a run of N backticks opens an inline code span that closes at the next run of
 *   exactly N backticks. Unlike CommonMark, a span also ends at the line break: a stray backtick
 *   then hides at most the rest of its line, never a whole reply (spans rarely cross lines).
 * - Not modelled: fences indented inside list items, and the rule that a backtick fence's info
 *   string may not contain a backtick.
 *
 * @example
 * ```ts
 * const code = createMarkdownCodeTracker();
 * for (const char of 'Use `x') code.feed(char);
 * code.insideCode(); // true: inside the inline code span
 * ```
 */
export function createMarkdownCodeTracker(): MarkdownCodeTracker {
  let fence: OpenFence | undefined;
  let inlineSpanLength = 0;
  let pendingBackticks = 0;
  let phase: LinePhase = { kind: 'indent', spaces: 0 };

  // A run of backticks in mid-line ends: it opens or closes an inline code span.
  const resolveBacktickRun = (length: number) => {
    if (inlineSpanLength === 0) inlineSpanLength = length;
    else if (inlineSpanLength === length) inlineSpanLength = 0;
  };

  // A run of fence characters at a line start ends (at `next`, or undefined at a line break).
  const resolveLineStartRun = (run: { char: '`' | '~'; length: number }, next?: string) => {
    if (fence) {
      const closes = run.char === fence.char && run.length >= fence.length;
      phase = closes && (next === undefined || isSpace(next)) ? { kind: 'closer-tail' } : rest;
      return;
    }
    phase = rest;
    if (run.length >= 3) fence = { char: run.char, length: run.length };
    else if (run.char === '`') resolveBacktickRun(run.length);
  };

  // Resolves what a following `<` would end: a line-start run, or a mid-line backtick run.
  const settle = () => {
    if (phase.kind === 'fence-run') resolveLineStartRun(phase, '<');
    if (pendingBackticks > 0) {
      resolveBacktickRun(pendingBackticks);
      pendingBackticks = 0;
    }
  };

  const feedRest = (char: string) => {
    if (fence) return;
    if (char === '`') {
      pendingBackticks++;
      return;
    }
    if (pendingBackticks > 0) {
      resolveBacktickRun(pendingBackticks);
      pendingBackticks = 0;
    }
  };

  const feed = (char: string) => {
    if (char === '\n') {
      if (phase.kind === 'fence-run') resolveLineStartRun(phase);
      if (fence && phase.kind === 'closer-tail') fence = undefined;
      inlineSpanLength = 0;
      pendingBackticks = 0;
      phase = { kind: 'indent', spaces: 0 };
      return;
    }
    switch (phase.kind) {
      case 'indent':
        if (char === ' ' && phase.spaces < 3) phase = { kind: 'indent', spaces: phase.spaces + 1 };
        else if (char === '`' || char === '~') phase = { kind: 'fence-run', char, length: 1 };
        else {
          phase = rest;
          feedRest(char);
        }
        return;
      case 'fence-run':
        if (char === phase.char) {
          phase = { kind: 'fence-run', char: phase.char, length: phase.length + 1 };
          return;
        }
        resolveLineStartRun(phase, char);
        // Inside a fence (the info string of one just opened included) this does nothing.
        feedRest(char);
        return;
      case 'closer-tail':
        if (!isSpace(char)) phase = rest;
        return;
      case 'rest':
        feedRest(char);
    }
  };

  // Mid-line with no backtick run pending, only a line break (and, outside a fence, a backtick)
  // changes the state: spaces, tildes and fence characters only count at a line start.
  const nextSignificant = (text: string, from: number): number => {
    const lineBreak = text.indexOf('\n', from);
    if (fence) return lineBreak;
    const backtick = text.indexOf('`', from);
    if (backtick < 0 || (lineBreak >= 0 && lineBreak < backtick)) return lineBreak;
    return backtick;
  };

  return {
    feed,
    feedText(text) {
      let index = 0;
      while (index < text.length) {
        if (phase.kind === 'rest' && pendingBackticks === 0) {
          index = nextSignificant(text, index);
          if (index < 0) return;
        }
        feed(text[index++]);
      }
    },
    insideCode() {
      settle();
      return fence !== undefined || inlineSpanLength > 0;
    },
    midLine() {
      return phase.kind === 'rest' && pendingBackticks === 0;
    },
  };
}

const rest: LinePhase = { kind: 'rest' };

function isSpace(char: string): boolean {
  return char === ' ' || char === '\t';
}
