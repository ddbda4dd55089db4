// What ends a sentence, decided one character at a time: a word ending in `.`, `!` or `?`
// (closing quotes, brackets and emphasis may follow) that is not a known abbreviation.

/** Abbreviations whose final `.` does not end a sentence (lower case, without that `.`). */
export const ABBREVIATIONS: readonly string[] = [
  'e.g',
  'i.e',
  'cf',
  'vs',
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'sr',
  'jr',
  'st',
  'approx',
  'incl',
  'fig',
  'al',
  'ca',
  'resp',
  'z.b',
  'd.h',
  'u.a',
  'bzw',
];

// A word is encoded exactly (no collisions) while it has at most 6 letters or dots: 5 bits each.
/** Words longer than this are never abbreviations (their code is NOT_ENCODABLE). */
export const WORD_CODE_LENGTH = 6;
const NOT_ENCODABLE = -1;

/** The next code of a word after `charCode`, or NOT_ENCODABLE once it cannot be an abbreviation. */
export function extendWordCode(code: number, length: number, charCode: number): number {
  if (code === NOT_ENCODABLE || length >= WORD_CODE_LENGTH) return NOT_ENCODABLE;
  let letter: number;
  if (charCode >= 97 && charCode <= 122) letter = charCode - 96;
  else if (charCode >= 65 && charCode <= 90) letter = charCode - 64;
  else if (charCode === 46) letter = 27;
  else return NOT_ENCODABLE;
  return code * 32 + letter;
}

function encodeWord(word: string): number {
  let code = 0;
  for (let index = 0; index < word.length; index++) {
    code = extendWordCode(code, index, word.charCodeAt(index));
  }
  return code;
}

const abbreviationCodes = new Set(ABBREVIATIONS.map(encodeWord));

/** True when the word read so far (its code) is an abbreviation, so a `.` now ends nothing. */
export function isAbbreviation(wordCode: number): boolean {
  return wordCode !== NOT_ENCODABLE && abbreviationCodes.has(wordCode);
}

/** `.`, `!`, `?`, the ideographic full stop `。` and the fullwidth `．！？`. */
export function isSentencePunctuation(charCode: number): boolean {
  return (
    charCode === 46 ||
    charCode === 33 ||
    charCode === 63 ||
    charCode === 0x3002 ||
    charCode === 0xff0e ||
    charCode === 0xff01 ||
    charCode === 0xff1f
  );
}

/** Characters that stay with the sentence they close: quotes, brackets, emphasis marks. */
export function isSentenceCloser(charCode: number): boolean {
  switch (charCode) {
    case 41: // )
    case 93: // ]
    case 34: // "
    case 39: // '
    case 42: // *
    case 95: // _
    case 0x201d: // ”
    case 0x2019: // ’
    case 0xbb: // »
    case 0x300d: // 」
    case 0x300f: // 』
    case 0xff09: // ）
    case 0x3011: // 】
    case 0x300b: // 》
    case 0xff02: // ＂
      return true;
    default:
      return false;
  }
}

/** ASCII digits, to tell an ordered-list marker (`1.`) from a sentence end. */
export function isDigit(charCode: number): boolean {
  return charCode >= 48 && charCode <= 57;
}

/**
 * True while a word that has read `size` characters (all digits when `allDigits`) and now reads
 * `charCode` can still be a list marker: `-`, `*` or `+` alone, or 1–9 digits then `.` or `)`.
 */
export function isListMarkerChar(charCode: number, size: number, allDigits: boolean): boolean {
  if (size === 0) return charCode === 45 || charCode === 42 || charCode === 43 || isDigit(charCode);
  return allDigits && size <= 9 && (isDigit(charCode) || charCode === 46 || charCode === 41);
}
