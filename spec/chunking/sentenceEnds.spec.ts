// The character classes the markdown scanner reads sentences and list markers with, over every
// character of the Basic Multilingual Plane: each is exactly the set its doc comment names.
import {
  ABBREVIATIONS,
  extendWordCode,
  isAbbreviation,
  isDigit,
  isListMarkerChar,
  isSentenceCloser,
  isSentencePunctuation,
} from '../../src/chunking/sentenceEnds';

const every = Array.from({ length: 0x10000 }, (_, code) => code);
const named = (test: (code: number) => boolean) =>
  every.filter(test).map((code) => String.fromCharCode(code));

describe('sentenceEnds character classes', () => {
  it('isDigit: the ASCII digits only', () => {
    expect(named(isDigit).join('')).toBe('0123456789');
  });

  it('isSentencePunctuation: . ! ? and the ideographic and fullwidth stops', () => {
    expect(named(isSentencePunctuation).join('')).toBe('!.?。！．？');
  });

  it('isSentenceCloser: quotes, brackets and emphasis marks that stay with their sentence', () => {
    expect(named(isSentenceCloser).join('')).toBe('"\')*]_»’”》」』】＂）');
  });

  it('isListMarkerChar: a first character of - * + or a digit', () => {
    expect(named((code) => isListMarkerChar(code, 0, true)).join('')).toBe('*+-0123456789');
    // allDigits is not read for the first character.
    expect(named((code) => isListMarkerChar(code, 0, false)).join('')).toBe('*+-0123456789');
  });

  it('isListMarkerChar: after 1-9 digits, another digit, . or )', () => {
    for (const size of [1, 5, 9])
      expect([size, named((code) => isListMarkerChar(code, size, true)).join('')]).toEqual([
        size,
        ').0123456789',
      ]);
    // Ten digits are no list marker; nor is anything after a character that is not a digit.
    expect(named((code) => isListMarkerChar(code, 10, true))).toEqual([]);
    expect(named((code) => isListMarkerChar(code, 1, false))).toEqual([]);
  });
});

describe('sentenceEnds abbreviations', () => {
  /** Every word of one to `length` characters over `alphabet` for which isAbbreviation disagrees with the list. */
  function misread(alphabet: string, length: number): string[] {
    const wrong: string[] = [];
    const visit = (word: string, code: number) => {
      if (word !== '' && isAbbreviation(code) !== ABBREVIATIONS.includes(word.toLowerCase())) {
        wrong.push(word);
      }
      if (word.length === length) return;
      for (const char of alphabet) {
        visit(word + char, extendWordCode(code, word.length, char.charCodeAt(0)));
      }
    };
    visit('', 0);
    return wrong;
  }

  it('reads a word of up to three printable ASCII characters as one exactly when it is listed, in any case', () => {
    const printable = Array.from({ length: 95 }, (_, code) => String.fromCharCode(32 + code));
    expect(misread(printable.join(''), 3)).toEqual([]);
  });

  it('reads no longer word with signs beside the letters as an abbreviation', () => {
    expect(misread('@AGZ[`aegz{.-09', 5)).toEqual([]);
  });
});
