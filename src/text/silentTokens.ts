// The incremental silent-token matcher behind suppressSilent: pure string logic, no RxJS.
//
// A "tail" is decoration, then one or more tokens separated by decoration, then decoration:
//   tail = D TOKEN (D TOKEN)* D        D = whitespace and markdown emphasis (* _ ~)
// A tail at the very start of a reply makes the whole reply silent. A tail after real content is
// stripped only when its leading decoration separates it from that content (whitespace, * or ~;
// a lone `_` is snake_case glue), so "interject.NO_REPLY" and "foo_NO_REPLY" stay content.
// While streaming, the matcher holds the text from the earliest place where such a tail could
// still start, and releases everything before it.

/** The tokens suppressSilent looks for when none are given. */
export const DEFAULT_SILENT_TOKENS: readonly string[] = ['NO_REPLY', 'ANNOUNCE_SKIP', 'REPLY_SKIP'];

/** How a text part ended, once its whole text is known. */
export interface SilentResolution {
  /** The visible text not yet released (empty when the tail was stripped or the reply is silent). */
  release: string;
  /** True when the whole reply was tokens and decoration: the channel should stay silent. */
  silent: boolean;
  /** The token found (as configured, not as written), when a tail was stripped or silent. */
  token?: string;
}

/** Feeds a text part delta by delta; returns what is safe to show at each step. */
export interface SilentTokenMatcher {
  /** Adds a delta; returns the text that can no longer become part of a token tail. */
  push(delta: string): string;
  /** Ends the text part: decides what the held text was. The matcher must not be used after. */
  end(): SilentResolution;
  /** The text currently held back (for tests and diagnostics). */
  readonly held: string;
}

const WHITESPACE = /\s/;

// Decoration: whitespace and markdown emphasis. Checked by char code: it runs per character.
function isDecoration(char: string): boolean {
  const code = char.charCodeAt(0);
  return code === 42 || code === 95 || code === 126 || isWhitespace(char, code);
}

// Decoration that separates a trailing tail from real content; `_` alone is snake_case glue.
function isSeparator(char: string): boolean {
  const code = char.charCodeAt(0);
  return code === 42 || code === 126 || isWhitespace(char, code);
}

function isWhitespace(char: string, code: number): boolean {
  if (code === 32 || (code >= 9 && code <= 13)) return true;
  return code >= 160 && WHITESPACE.test(char);
}

// States of the tail automaton, as small integers: before the first token without or with a
// separator seen, in decoration after a token, or inside a token (TOKEN_STATES + a table index).
const LEAD = 0;
const LEAD_SEPARATED = 1;
const GAP = 2;
const TOKEN_STATES = 3;

// One place where a tail may start; alive while its text is a prefix of some tail.
interface TailCandidate {
  start: number;
  atTextStart: boolean;
  states: number[];
}

/**
 * Creates a matcher for one text part. Matching ignores case; `tokens` must each contain a
 * character that is not whitespace or emphasis.
 *
 * @example
 * ```ts
 * const matcher = createSilentTokenMatcher(['NO_REPLY']);
 * matcher.push('Done.\n\nNO'); // 'Done.'
 * matcher.push('_REPLY');      // ''
 * matcher.end();               // { release: '', silent: false, token: 'NO_REPLY' }
 * ```
 * @param tokens - the silent tokens. @defaultValue {@link DEFAULT_SILENT_TOKENS}
 */
export function createSilentTokenMatcher(
  tokens: readonly string[] = DEFAULT_SILENT_TOKENS,
): SilentTokenMatcher {
  // Inside-token states: entry k stands for "token tokenOf[k] matched up to matchedOf[k] chars".
  const lowered = tokens.map((token) => token.toLowerCase());
  const tokenOf: number[] = [];
  const matchedOf: number[] = [];
  const tokenStartStates = new Map<string, number[]>(); // first char → states after it
  lowered.forEach((token, index) => {
    const first = token.length === 1 ? GAP : TOKEN_STATES + tokenOf.length;
    for (let matched = 1; matched < token.length; matched++) {
      tokenOf.push(index);
      matchedOf.push(matched);
    }
    tokenStartStates.set(token[0], [...(tokenStartStates.get(token[0]) ?? []), first]);
  });

  let candidates: TailCandidate[] = [];
  let held = '';
  let heldStart = 0; // offset of `held` in the whole text
  let length = 0; // characters seen so far
  let previous = ''; // the character before the current one

  // No closures are made per character: this runs for every character a candidate sees.
  const step = (candidate: TailCandidate, char: string, decoration: boolean): number[] => {
    const lower = char.toLowerCase();
    const starts = tokenStartStates.get(lower);
    const next: number[] = [];
    for (const state of candidate.states) {
      if (state >= TOKEN_STATES) {
        const entry = state - TOKEN_STATES;
        const token = lowered[tokenOf[entry]];
        const matched = matchedOf[entry];
        if (token[matched] === lower)
          addState(next, matched + 1 === token.length ? GAP : state + 1);
        continue;
      }
      if (decoration) {
        const separated = state === LEAD_SEPARATED || (state === LEAD && isSeparator(char));
        addState(next, state === GAP ? GAP : separated ? LEAD_SEPARATED : LEAD);
      }
      const mayStartToken = state !== LEAD || candidate.atTextStart;
      if (starts && mayStartToken) for (const start of starts) addState(next, start);
    }
    return next;
  };

  // A new candidate is needed only where no live one can already read decoration: a live
  // candidate in a lead or gap state accepts every tail the new one could, and starts earlier.
  const coveredByLiveCandidate = () =>
    candidates.some((candidate) => candidate.states.some((state) => state < TOKEN_STATES));

  const pushChar = (char: string) => {
    const decoration = isDecoration(char);
    if (length === 0) {
      candidates.push({ start: 0, atTextStart: true, states: [LEAD] });
    } else if (decoration && !isDecoration(previous) && !coveredByLiveCandidate()) {
      candidates.push({ start: length, atTextStart: false, states: [LEAD] });
    }
    if (candidates.length > 0) {
      for (const candidate of candidates) candidate.states = step(candidate, char, decoration);
      candidates = candidates.filter((candidate) => candidate.states.length > 0);
    }
    previous = char;
    length++;
  };

  const releaseBefore = (offset: number): string => {
    // Slicing nothing off would still flatten a long held string: skip it.
    if (offset === heldStart) return '';
    const released = held.slice(0, offset - heldStart);
    held = held.slice(offset - heldStart);
    heldStart = offset;
    return released;
  };

  return {
    push(delta) {
      held += delta;
      // By UTF-16 unit, so offsets are string indices; half a surrogate pair is never
      // decoration nor a token's letter, so it ends a candidate like any other content.
      for (let index = 0; index < delta.length; index++) pushChar(delta[index]);
      const holdFrom = candidates.length > 0 ? candidates[0].start : length;
      return releaseBefore(holdFrom);
    },
    end() {
      const complete = candidates.find((candidate) => candidate.states.includes(GAP));
      candidates = [];
      if (!complete) return { release: releaseBefore(length), silent: false };
      const tail = held.slice(complete.start - heldStart);
      const token = firstToken(tail, tokens);
      if (complete.atTextStart) {
        held = '';
        return { release: '', silent: true, token };
      }
      // Emphasis that closes the content ("**Done.** NO_REPLY") stays; the tail is cut from
      // its first whitespace. Without whitespace ("Done.**NO_REPLY**") all of it goes.
      const leadLength = tail.search(/[^\s*_~]/);
      const firstSpace = tail.slice(0, leadLength).search(WHITESPACE);
      const kept = firstSpace > 0 ? tail.slice(0, firstSpace) : '';
      const release = releaseBefore(complete.start) + kept;
      held = '';
      return { release, silent: false, token };
    },
    get held() {
      return held;
    },
  };
}

/**
 * Resolves a whole text at once: the visible text with any token tail removed, and whether the
 * text was silent. The same rules as {@link createSilentTokenMatcher}.
 *
 * @example
 * ```ts
 * stripSilentTokens('Done.\n\nNO_REPLY'); // { text: 'Done.', silent: false, token: 'NO_REPLY' }
 * stripSilentTokens('**no_reply**');      // { text: '', silent: true, token: 'NO_REPLY' }
 * ```
 * @param text - the whole text of a reply
 * @param tokens - the silent tokens. @defaultValue {@link DEFAULT_SILENT_TOKENS}
 */
export function stripSilentTokens(
  text: string,
  tokens: readonly string[] = DEFAULT_SILENT_TOKENS,
): { text: string; silent: boolean; token?: string } {
  const matcher = createSilentTokenMatcher(tokens);
  const released = matcher.push(text);
  const { release, silent, token } = matcher.end();
  const result: { text: string; silent: boolean; token?: string } = {
    text: released + release,
    silent,
  };
  if (token !== undefined) result.token = token;
  return result;
}

function addState(states: number[], state: number): void {
  if (!states.includes(state)) states.push(state);
}

// The configured token written first in the tail (the longest one where two start together).
function firstToken(tail: string, tokens: readonly string[]): string | undefined {
  const lower = tail.toLowerCase();
  let best: { token: string; at: number } | undefined;
  for (const token of tokens) {
    const at = lower.indexOf(token.toLowerCase());
    if (at < 0) continue;
    if (!best || at < best.at || (at === best.at && token.length > best.token.length)) {
      best = { token, at };
    }
  }
  return best?.token;
}
