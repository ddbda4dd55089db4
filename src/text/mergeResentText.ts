// How a full text resent at the end of a text part merges with what was already streamed
// (no RxJS). Used by monotonicText; linear in the lengths of both texts.

/** The shortest overlap between the streamed tail and the resent head that counts as a match. */
export const MIN_RESEND_OVERLAP = 10;

/** What to append to the streamed text so it holds the resent text, and how it was decided. */
export interface ResentTextMerge {
  /** The text to append; empty when the resent text adds nothing. */
  addition: string;
  /** `contained`: nothing new; `extends`: streamed is its prefix; `overlaps`: ≥ 10 characters of
   * the streamed tail start it; `divergent`: none of these, appended whole. */
  how: 'contained' | 'extends' | 'overlaps' | 'divergent';
}

/**
 * Merges a resent full text into the streamed text so the result only grows and never repeats.
 *
 * @example
 * ```ts
 * mergeResentText('Hello ', 'Hello world') // { addition: 'world', how: 'extends' }
 * mergeResentText('This is a very long string ', 'very long string and then some')
 * // { addition: 'and then some', how: 'overlaps' }
 * ```
 * @param streamed - every delta of the text part so far, joined
 * @param resent - the full text the source resent (`text-end.text`)
 */
export function mergeResentText(streamed: string, resent: string): ResentTextMerge {
  if (streamed.includes(resent)) return { addition: '', how: 'contained' };
  if (resent.startsWith(streamed))
    return { addition: resent.slice(streamed.length), how: 'extends' };
  const overlap = longestSuffixPrefixOverlap(streamed, resent);
  if (overlap >= MIN_RESEND_OVERLAP) return { addition: resent.slice(overlap), how: 'overlaps' };
  return { addition: resent, how: 'divergent' };
}

/**
 * The length of the longest suffix of `tail` that is also a prefix of `head`, by the
 * Knuth–Morris–Pratt failure function: linear, no quadratic re-comparison.
 */
export function longestSuffixPrefixOverlap(tail: string, head: string): number {
  if (tail === '' || head === '') return 0;
  const failure = new Int32Array(head.length);
  for (let i = 1, k = 0; i < head.length; i++) {
    while (k > 0 && head[i] !== head[k]) k = failure[k - 1];
    if (head[i] === head[k]) k++;
    failure[i] = k;
  }
  // Only the last head.length characters of tail can take part in an overlap.
  let matched = 0;
  for (let i = Math.max(0, tail.length - head.length); i < tail.length; i++) {
    while (matched > 0 && (matched === head.length || tail[i] !== head[matched])) {
      matched = failure[matched - 1];
    }
    if (tail[i] === head[matched]) matched++;
  }
  return matched;
}
