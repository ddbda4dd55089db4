// The incremental JSON parser behind partialToolInput: exact partial views for a known input,
// errors a person can act on, and for any JSON value and any split into pieces, every partial
// view is prefix-consistent with the final value and the last equals JSON.parse.
import fc from 'fast-check';
import { createPartialJsonParser } from '../../src/json/partialJson';

/** Every view a parser shows when `pieces` arrive, one `value()` after each changing piece. */
function viewsOf(pieces: string[]): { views: unknown[]; final: unknown; complete: boolean } {
  const parser = createPartialJsonParser();
  const views: unknown[] = [];
  for (const piece of pieces) {
    parser.push(piece);
    if (parser.changed) views.push(parser.value());
  }
  parser.finish();
  return { views, final: parser.value(), complete: parser.complete };
}

/** `partial` shows nothing the final value does not hold: keys, array prefixes, string prefixes. */
function isPrefixConsistent(partial: unknown, final: unknown): boolean {
  if (typeof final === 'string') return typeof partial === 'string' && final.startsWith(partial);
  if (Array.isArray(final)) {
    if (!Array.isArray(partial) || partial.length > final.length) return false;
    return partial.every((item, i) =>
      i < partial.length - 1
        ? JSON.stringify(item) === JSON.stringify(final[i])
        : isPrefixConsistent(item, final[i]),
    );
  }
  if (final !== null && typeof final === 'object') {
    if (partial === null || typeof partial !== 'object' || Array.isArray(partial)) return false;
    return Object.keys(partial).every(
      (key) =>
        Object.prototype.hasOwnProperty.call(final, key) &&
        isPrefixConsistent(
          (partial as Record<string, unknown>)[key],
          (final as Record<string, unknown>)[key],
        ),
    );
  }
  return Object.is(partial, final);
}

/** `text` cut at the given offsets (sorted, deduplicated), as a list of pieces. */
function cut(text: string, offsets: number[]): string[] {
  const points = [...new Set(offsets.map((o) => o % (text.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const point of [...points, text.length]) {
    if (point > from) pieces.push(text.slice(from, point));
    from = Math.max(from, point);
  }
  return pieces;
}

describe('createPartialJsonParser', () => {
  it('shows containers at once, keys once their value begins, strings growing, scalars complete', () => {
    const { views, final, complete } = viewsOf([...'{"q":"ab","n":12,"t":[true,"x\\u00e9"]}']);
    expect(views).toEqual([
      {},
      { q: '' },
      { q: 'a' },
      { q: 'ab' },
      { q: 'ab', n: 12 },
      { q: 'ab', n: 12, t: [] },
      { q: 'ab', n: 12, t: [true] },
      { q: 'ab', n: 12, t: [true, ''] },
      { q: 'ab', n: 12, t: [true, 'x'] },
      { q: 'ab', n: 12, t: [true, 'xé'] },
    ]);
    expect(final).toEqual({ q: 'ab', n: 12, t: [true, 'xé'] });
    expect(complete).toBe(true);
  });

  it('shows a trailing top-level number only at finish()', () => {
    const parser = createPartialJsonParser();
    parser.push('-12');
    expect(parser.value()).toBeUndefined();
    parser.finish();
    expect(parser.value()).toBe(-12);
    expect(parser.complete).toBe(true);
  });

  it('keeps a view already taken unchanged when the parse goes on', () => {
    const parser = createPartialJsonParser();
    parser.push('{"a":[1,{"b":"x');
    const first = parser.value();
    parser.push('y"},2],"c":3}');
    expect(first).toEqual({ a: [1, { b: 'x' }] });
    expect(parser.value()).toEqual({ a: [1, { b: 'xy' }, 2], c: 3 });
  });

  it('keeps __proto__ as an own key, as JSON.parse does', () => {
    const { final } = viewsOf(['{"__proto__":{"x":1}}']);
    expect(Object.keys(final as object)).toEqual(['__proto__']);
    expect(final).toEqual(JSON.parse('{"__proto__":{"x":1}}'));
  });

  it.each([
    ['{"a": tru }', '"tru" is not a JSON value at offset 6'],
    ['{"a" 1}', 'Unexpected "1" (expected colon) at offset 5'],
    ['[1,]', 'Unexpected "]" (expected value) at offset 3'],
    ['{"a":"\\x"}', 'Bad escape \\x at offset 7'],
    ['{} {}', 'Unexpected "{" after the value at offset 3'],
    ['["a\nb"]', 'Unescaped control character in a string at offset 3'],
  ])('stops at the first error of %j: %s', (input, message) => {
    const parser = createPartialJsonParser();
    for (const char of input) parser.push(char);
    parser.finish();
    expect(parser.error?.message).toBe(message);
    expect(parser.complete).toBe(false);
  });

  it('says an unfinished input is not complete', () => {
    const parser = createPartialJsonParser();
    parser.push('{"a":[1');
    parser.finish();
    expect(parser.error).toBeUndefined();
    expect(parser.complete).toBe(false);
    expect(parser.value()).toEqual({ a: [1] });
  });

  it('for any JSON value and any split, every view is prefix-consistent and the last equals JSON.parse', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 4 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 40 }),
        (value, pretty, offsets) => {
          const text = JSON.stringify(value, null, pretty ? 2 : undefined);
          const expected = JSON.parse(text);
          const { views, final, complete } = viewsOf(cut(text, offsets));
          expect(complete).toBe(true);
          expect(final).toEqual(expected);
          for (const view of views) expect(isPrefixConsistent(view, expected)).toBe(true);
        },
      ),
      { numRuns: 1500, seed: 41 },
    );
  });

  it('gives the same final value for one-character pieces of unicode-heavy strings', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }), { maxLength: 6 }), (strings) => {
        const text = JSON.stringify({ strings });
        const { views, final } = viewsOf(text.split(''));
        expect(final).toEqual({ strings });
        for (const view of views) expect(isPrefixConsistent(view, { strings })).toBe(true);
      }),
      { numRuns: 500, seed: 7 },
    );
  });
});
