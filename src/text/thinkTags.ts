// The incremental scanner that splits streamed text on <think>-style tags (no RxJS).
// Each character is looked at once, plus once more at most when a partial tag turns out not to
// be one, so the work is linear in the text length whatever the deltas look like.
import { createMarkdownCodeTracker } from './markdownCodeTracker';

const LESS_THAN = 60;
const LINE_FEED = 10;
const BACKTICK = 96;

/** The reasoning tag names recognised by default (any case). */
export const DEFAULT_THINK_TAGS: readonly string[] = [
  'think',
  'thinking',
  'thought',
  'antthinking',
];

/** Tags removed with their content kept as text (any case). */
const FINAL_TAG = 'final';

/** A tag longer than this (attributes included) is treated as text: bounds what is held back. */
export const MAX_TAG_LENGTH = 256;

/** What the scanner found in the text, in order. Adjacent text pieces are merged. */
export type ThinkTagPart =
  | { type: 'text'; text: string }
  | { type: 'reasoning-start' }
  | { type: 'reasoning'; text: string }
  | { type: 'reasoning-end' };

/** Incremental scanner state for one text part; see {@link createThinkTagScanner}. */
export interface ThinkTagScanner {
  /** Scans the next delta; returns what it can already tell, holding back a possible tag. */
  push(delta: string): ThinkTagPart[];
  /**
   * The fast path for the common delta: when nothing is held and `delta` has no `<`, no tag
   * can start, end or be completed inside it, so all of it is one part. Then records it (its
   * code context included) and returns that part's type, exactly what `push` would have
   * returned as one part; otherwise (and for `''`) records nothing and returns undefined: call
   * `push`.
   */
  pushWhole(delta: string): 'text' | 'reasoning' | undefined;
  /** The text ended: releases what was held as text and closes open reasoning. */
  end(): ThinkTagPart[];
}

/** Options of {@link createThinkTagScanner}. */
export interface ThinkTagOptions {
  /** Reasoning tag names, any case. @defaultValue {@link DEFAULT_THINK_TAGS} */
  tags?: readonly string[];
}

/** Where a possible tag is in `<` WS* (`/` WS*)? NAME ((WS | `/`) attributes)? `>`. */
type TagStage = 'after-lt' | 'after-slash' | 'name' | 'attributes';

/**
 * Splits streamed text into visible text and reasoning at `<think>`-style tags.
 *
 * - A tag is `<`, optional spaces, an optional `/`, a name (any case), then `>` or whitespace or
 *   `/` and attributes up to `>`, all on one line and at most {@link MAX_TAG_LENGTH} characters.
 * - Opening a reasoning tag starts reasoning; any reasoning closing tag ends it. Nested opening
 *   tags, stray closing tags and self-closing tags (`<think/>`) are removed and change nothing.
 * - `<final>` and `</final>` are removed; `<final>` inside reasoning ends the reasoning.
 * - In visible text, tags inside fenced code blocks or inline code are text (see
 *   createMarkdownCodeTracker); after `<think>r</think>` at a line start, a "```" is at the start
 *   of a visible line. In reasoning, tags are read even inside code: a stray backtick or an
 *   unclosed fence in the thinking must never hide the closing tag (the answer would vanish).
 * - While a tag may still be forming, only its characters are held back.
 *
 * @example
 * ```ts
 * const scanner = createThinkTagScanner();
 * scanner.push('Hi <thi'); // [{ type: 'text', text: 'Hi ' }]
 * scanner.push('nk>hm');   // [{ type: 'reasoning-start' }, { type: 'reasoning', text: 'hm' }]
 * scanner.end();           // [{ type: 'reasoning-end' }]
 * ```
 * @param options - {@link ThinkTagOptions}
 */
export function createThinkTagScanner(options: ThinkTagOptions = {}): ThinkTagScanner {
  const reasoningTags = new Set((options.tags ?? DEFAULT_THINK_TAGS).map((t) => t.toLowerCase()));
  const knownNames = [...reasoningTags, FINAL_TAG];
  // Visible text and reasoning are two Markdown documents: each has its own code context.
  const textCode = createMarkdownCodeTracker();
  const reasoningCode = createMarkdownCodeTracker();
  const code = () => (inReasoning ? reasoningCode : textCode);
  let inReasoning = false;
  let parts: ThinkTagPart[] = [];

  // The possible tag being read: its characters so far and where the grammar is.
  let held = '';
  let stage: TagStage = 'after-lt';
  let name = '';
  let closing = false;
  let lastNonSpace = '';

  const emitChar = (char: string) => {
    code().feed(char);
    const type = inReasoning ? 'reasoning' : 'text';
    const last = parts[parts.length - 1];
    if (last?.type === type) last.text += char;
    else parts.push({ type, text: char });
  };

  // The held characters were not a tag: they are text (none of them can start another tag,
  // because `<` ends a possible tag).
  const releaseHeld = () => {
    const text = held;
    held = '';
    for (const char of text) emitChar(char);
  };

  const isNamePrefix = (prefix: string) => knownNames.some((known) => known.startsWith(prefix));

  const applyTag = (selfClosing: boolean) => {
    held = '';
    const tagName = name.toLowerCase();
    if (tagName === FINAL_TAG) {
      if (!closing && !selfClosing && inReasoning) endReasoning();
      return;
    }
    if (selfClosing) return;
    if (!closing && !inReasoning) {
      inReasoning = true;
      parts.push({ type: 'reasoning-start' });
    } else if (closing && inReasoning) endReasoning();
  };

  const endReasoning = () => {
    inReasoning = false;
    parts.push({ type: 'reasoning-end' });
  };

  // One character while a tag may be forming; false when it is not a tag after all.
  const continueTag = (char: string): boolean => {
    if (char === '<' || char === '\n' || held.length >= MAX_TAG_LENGTH) return false;
    switch (stage) {
      case 'after-lt':
      case 'after-slash':
        if (isSpace(char)) break;
        if (char === '/' && stage === 'after-lt') {
          closing = true;
          stage = 'after-slash';
        } else if (isNameChar(char) && isNamePrefix(char.toLowerCase())) {
          stage = 'name';
          name = char;
        } else return false;
        break;
      case 'name':
        if (isNameChar(char)) {
          if (!isNamePrefix((name + char).toLowerCase())) return false;
          name += char;
          break;
        }
        if (!knownNames.includes(name.toLowerCase())) return false;
        if (char === '>') {
          applyTag(false);
          return true;
        }
        if (!isSpace(char) && char !== '/') return false;
        stage = 'attributes';
        lastNonSpace = char;
        break;
      case 'attributes':
        if (char === '>') {
          applyTag(lastNonSpace === '/');
          return true;
        }
        if (!isSpace(char)) lastNonSpace = char;
    }
    held += char;
    return true;
  };

  const scanChar = (char: string) => {
    if (held !== '') {
      if (continueTag(char)) return;
      releaseHeld();
    }
    // In reasoning a tag is always read: a stray backtick or an unclosed fence in the model's
    // thinking must never hide its closing tag, or the whole answer would vanish as reasoning.
    if (char === '<' && (inReasoning || !code().insideCode())) {
      held = '<';
      stage = 'after-lt';
      name = '';
      closing = false;
      return;
    }
    emitChar(char);
  };

  const takeParts = () => {
    const out = parts;
    parts = [];
    return out;
  };

  return {
    push(delta) {
      for (let i = 0; i < delta.length; i++) scanChar(delta[i]);
      return takeParts();
    },
    pushWhole(delta) {
      // A held `<` could be completed or ruled out by any character: only `push` knows.
      if (held !== '' || delta === '') return undefined;
      // One pass over the delta, no string search: a `<` needs `push`; a line break or a
      // backtick is what can move the code context mid-line.
      let plain = true;
      for (let index = 0; index < delta.length; index++) {
        const char = delta.charCodeAt(index);
        if (char === LESS_THAN) return undefined;
        if (char === LINE_FEED || char === BACKTICK) plain = false;
      }
      const tracker = code();
      if (!plain || !tracker.midLine()) tracker.feedText(delta);
      return inReasoning ? 'reasoning' : 'text';
    },
    end() {
      releaseHeld();
      if (inReasoning) endReasoning();
      return takeParts();
    },
  };
}

/**
 * The visible text and the reasoning text of a whole text, tags removed; e.g. for a source that
 * resends the full text at its end.
 *
 * @example
 * ```ts
 * splitThinkTags('<think>why</think>Hi'); // { visible: 'Hi', reasoning: 'why' }
 * ```
 * @param text - the whole text
 * @param options - {@link ThinkTagOptions}
 */
export function splitThinkTags(
  text: string,
  options: ThinkTagOptions = {},
): { visible: string; reasoning: string } {
  const scanner = createThinkTagScanner(options);
  let visible = '';
  let reasoning = '';
  for (const part of [...scanner.push(text), ...scanner.end()]) {
    if (part.type === 'text') visible += part.text;
    else if (part.type === 'reasoning') reasoning += part.text;
  }
  return { visible, reasoning };
}

function isSpace(char: string): boolean {
  return char === ' ' || char === '\t';
}

function isNameChar(char: string): boolean {
  const code = char.charCodeAt(0);
  return (
    (code >= 97 && code <= 122) || // a-z
    (code >= 65 && code <= 90) || // A-Z
    (code >= 48 && code <= 58) || // 0-9 and ':'
    char === '_' ||
    char === '-'
  );
}
