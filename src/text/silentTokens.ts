// The incremental silent-token matcher behind suppressSilent: pure string logic, no RxJS.
//
// A "tail" is decoration, then one or more tokens separated by decoration, then decoration:
//   tail = D TOKEN (D TOKEN)* D        D = whitespace and markdown emphasis (* _ ~)
// A tail at the very start of a reply makes the whole reply silent. A tail after real content is
// stripped only when its leading decoration separates it from that content (whitespace, * or ~;
// a lone `_` is snake_case glue), so "interject.NO_REPLY" and "foo_NO_REPLY" stay content.
// While streaming, the matcher holds the text from the earliest place where such a tail could
// still start (found by the automaton in silentTail.ts), and releases everything before it.

import { TailAutomaton } from './silentTail';

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
 * @param options - `skipAhead: false` makes the automaton read every character, the reference
 *   the skipping is tested against. @defaultValue `{ skipAhead: true }`
 */
export function createSilentTokenMatcher(
  tokens: readonly string[] = DEFAULT_SILENT_TOKENS,
  { skipAhead = true }: { skipAhead?: boolean } = {},
): SilentTokenMatcher {
  return new IncrementalSilentMatcher(tokens, skipAhead);
}

/**
 * The matcher behind createSilentTokenMatcher. A class, not a closure factory: `push` runs for
 * every delta, and as a prototype method its optimized code is shared by every reply and kept
 * across a GC that frees them all (closures made per reply were re-optimized for each).
 */
class IncrementalSilentMatcher implements SilentTokenMatcher {
  private readonly tails: TailAutomaton;
  private heldText = '';
  private heldStart = 0; // offset of `heldText` in the whole text

  // Kept for the module's life, so the hidden classes of a matcher and its automaton outlive a
  // GC that frees every reply (optimized code that depends on them would be thrown away).
  static readonly keepsHiddenClasses = new IncrementalSilentMatcher(['NO_REPLY'], true).warm();

  constructor(
    private readonly tokens: readonly string[],
    skipAhead: boolean,
  ) {
    this.tails = new TailAutomaton(tokens, skipAhead);
  }

  get held(): string {
    return this.heldText;
  }

  push(delta: string): string {
    // Nothing held (the common case): `'' + delta` is `delta` itself, no new string.
    this.heldText += delta;
    this.tails.read(delta);
    return this.releaseBefore(this.tails.holdFrom());
  }

  end(): SilentResolution {
    const complete = this.tails.finish();
    if (!complete) return { release: this.releaseBefore(this.tails.holdFrom()), silent: false };
    const tail = this.heldText.slice(complete.start - this.heldStart);
    const token = firstToken(tail, this.tokens);
    if (complete.atTextStart) {
      this.heldText = '';
      return { release: '', silent: true, token };
    }
    // Emphasis that closes the content ("**Done.** NO_REPLY") stays; the tail is cut from
    // its first whitespace. Without whitespace ("Done.**NO_REPLY**") all of it goes.
    const leadLength = tail.search(/[^\s*_~]/);
    const firstSpace = tail.slice(0, leadLength).search(WHITESPACE);
    const kept = firstSpace > 0 ? tail.slice(0, firstSpace) : '';
    const release = this.releaseBefore(complete.start) + kept;
    this.heldText = '';
    return { release, silent: false, token };
  }

  private releaseBefore(offset: number): string {
    // Slicing nothing off would still flatten a long held string: skip it.
    if (offset === this.heldStart) return '';
    const held = this.heldText;
    if (offset - this.heldStart === held.length) {
      // Everything goes (the common case): no slicing, the caller may get its delta back.
      this.heldText = '';
      this.heldStart = offset;
      return held;
    }
    const released = held.slice(0, offset - this.heldStart);
    this.heldText = held.slice(offset - this.heldStart);
    this.heldStart = offset;
    return released;
  }

  // Feeds the kept instance a little text so the automaton's objects exist in their final shape.
  private warm(): this {
    this.push('Done. no_rep');
    return this;
  }
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
