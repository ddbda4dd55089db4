// The fast paths of the text scanners against the character-by-character paths they skip:
// the same parts, releases and code context for any text and any cut into deltas.
import fc from 'fast-check';
import { createMarkdownCodeTracker } from '../../src/text/markdownCodeTracker';
import { createSilentTokenMatcher } from '../../src/text/silentTokens';
import { createThinkTagScanner, type ThinkTagPart } from '../../src/text/thinkTags';
import { MARKDOWN_PIECES, SILENT_PIECES, textDeltas } from '../helpers/textPieces';

describe('createMarkdownCodeTracker().feedText', () => {
  it('leaves the same code context as feeding every character, checked after each delta', () => {
    fc.assert(
      fc.property(textDeltas(MARKDOWN_PIECES), (deltas) => {
        const whole = createMarkdownCodeTracker();
        const byCharacter = createMarkdownCodeTracker();
        for (const delta of deltas) {
          whole.feedText(delta);
          for (const char of delta.split('')) byCharacter.feed(char);
          // insideCode() settles a pending backtick run: both are asked at the same places.
          expect(whole.insideCode()).toBe(byCharacter.insideCode());
        }
      }),
      { numRuns: 2000, seed: 2024 },
    );
  });
});

describe('createThinkTagScanner().pushWhole', () => {
  it('returns exactly what push would, and leaves the scanner in the same state', () => {
    fc.assert(
      fc.property(textDeltas(MARKDOWN_PIECES), (deltas) => {
        const fast = createThinkTagScanner();
        const slow = createThinkTagScanner();
        for (const delta of deltas) {
          const whole = fast.pushWhole(delta);
          const fastParts: ThinkTagPart[] =
            whole === undefined ? fast.push(delta) : [{ type: whole, text: delta }];
          expect({ delta, parts: fastParts }).toEqual({ delta, parts: slow.push(delta) });
        }
        expect(fast.end()).toEqual(slow.end());
      }),
      { numRuns: 2000, seed: 7 },
    );
  });

  it('declines an empty delta, one with "<", and any delta while a possible tag is held', () => {
    const scanner = createThinkTagScanner();
    expect(scanner.pushWhole('')).toBeUndefined();
    expect(scanner.pushWhole('a <b')).toBeUndefined();
    expect(scanner.push('x <thi')).toEqual([{ type: 'text', text: 'x ' }]);
    expect(scanner.pushWhole('nk')).toBeUndefined();
    expect(scanner.push('nk>')).toEqual([{ type: 'reasoning-start' }]);
    expect(scanner.pushWhole('plan')).toBe('reasoning');
  });
});

describe('createSilentTokenMatcher().push skipping ahead', () => {
  it.each([[undefined], [['SKIP']], [['x', 'NO_REPLY']]])(
    'releases, holds and resolves as the automaton reading every character (tokens %j)',
    (tokens) => {
      fc.assert(
        fc.property(textDeltas(SILENT_PIECES), (deltas) => {
          const fast = createSilentTokenMatcher(tokens);
          const slow = createSilentTokenMatcher(tokens, { skipAhead: false });
          for (const delta of deltas) {
            const released = fast.push(delta);
            const slowReleased = slow.push(delta);
            expect({ delta, released, held: fast.held }).toEqual({
              delta,
              released: slowReleased,
              held: slow.held,
            });
          }
          expect(fast.end()).toEqual(slow.end());
        }),
        { numRuns: 2000, seed: 11 },
      );
    },
  );

  it('gives a delta that cannot touch a token back as the same string, holding nothing', () => {
    const matcher = createSilentTokenMatcher();
    const first = 'Hello';
    const second = ' there, stream';
    expect(matcher.push(first)).toBe(first);
    expect(matcher.push(second)).toBe(second);
    expect(matcher.push(' now ')).toBe(' now');
    expect(matcher.held).toBe(' ');
  });
});
