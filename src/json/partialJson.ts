/**
 * An incremental JSON parser for tool-call arguments that arrive in pieces: `push` each piece,
 * read `value()` whenever a partial view is wanted. Pure (no RxJS, no timers).
 *
 * It keeps its state across pieces and never re-reads what it has read: every character is
 * looked at once, so a whole input costs O(its length) however it is split. The partial view
 * follows these rules:
 * - Containers appear as soon as they open (`{` → `{}`, `[` → `[]`).
 * - An object key appears once its name is complete and its value has begun.
 * - Strings grow: an open string shows what has arrived (an escape is shown once complete).
 * - Numbers, `true`, `false` and `null` appear only once complete (a delimiter follows, or
 *   `finish()` ends the input), so `12` never shows before it becomes `123`.
 * So every partial view is prefix-consistent with the final value, and after `finish()` of a
 * valid input, `value()` equals `JSON.parse` of the whole input.
 */
import { createOpenStack, type OpenStack } from './openStack';

/** Where an input stopped being JSON: what was wrong and the character's offset. */
export interface PartialJsonError {
  message: string;
  offset: number;
}

/** The parse state of one JSON text that arrives in pieces. */
export interface PartialJsonParser {
  /** Reads the next piece; returns the error, if the input is not JSON. After one it reads nothing. */
  push(piece: string): PartialJsonError | undefined;
  /** The input ended: completes a trailing number or literal, and says what is still open. */
  finish(): void;
  /** A snapshot of the value parsed so far (`undefined` before any value began). */
  value(): unknown;
  /** Whether the visible value changed since the last `value()`. */
  readonly changed: boolean;
  /** The whole input was one complete JSON value (only after `finish()`). */
  readonly complete: boolean;
  /** Set once the input is not JSON. */
  readonly error: PartialJsonError | undefined;
}

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

const enum Token {
  None,
  String,
  Escape,
  Unicode,
  Number,
  Literal,
}

/** A new parser for one JSON text. */
export function createPartialJsonParser(): PartialJsonParser {
  const stack: OpenStack = createOpenStack();
  let token = Token.None;
  let scalar = ''; // number or literal text so far
  let unicode = ''; // hex digits of a \u escape so far
  let offset = 0;
  let error: PartialJsonError | undefined;
  let complete = false;

  const fail = (message: string, at: number): void => {
    error = { message: `${message} at offset ${at}`, offset: at };
  };

  /** A number or literal ended (delimiter or end of input): check it, then place it. */
  const endScalar = (at: number): boolean => {
    const text = scalar;
    scalar = '';
    token = Token.None;
    if (text === 'true' || text === 'false' || text === 'null') {
      stack.place(text === 'null' ? null : text === 'true');
      return true;
    }
    if (NUMBER.test(text)) {
      stack.place(Number(text));
      return true;
    }
    fail(`${JSON.stringify(text.slice(0, 20))} is not a JSON value`, at - text.length);
    return false;
  };

  const readString = (piece: string, start: number): number => {
    let i = start;
    while (i < piece.length) {
      if (token === Token.String) {
        let run = i;
        while (run < piece.length) {
          const code = piece.charCodeAt(run);
          if (code === 34 || code === 92 || code < 32) break;
          run++;
        }
        if (run > i) stack.appendText(piece.slice(i, run));
        i = run;
        if (i === piece.length) break;
        const code = piece.charCodeAt(i);
        if (code === 34) {
          token = Token.None;
          stack.closeString();
          return i + 1;
        }
        if (code < 32) {
          fail('Unescaped control character in a string', offset + i);
          return piece.length;
        }
        token = Token.Escape;
        i++;
      } else if (token === Token.Escape) {
        const char = piece[i++]!;
        if (char === 'u') {
          token = Token.Unicode;
          unicode = '';
        } else if (ESCAPES[char] !== undefined) {
          stack.appendText(ESCAPES[char]);
          token = Token.String;
        } else {
          fail(`Bad escape \\${char}`, offset + i - 1);
          return piece.length;
        }
      } else {
        const char = piece[i++]!;
        if (!/[0-9a-fA-F]/.test(char)) {
          fail(`Bad \\u escape digit ${JSON.stringify(char)}`, offset + i - 1);
          return piece.length;
        }
        unicode += char;
        if (unicode.length === 4) {
          stack.appendText(String.fromCharCode(parseInt(unicode, 16)));
          token = Token.String;
        }
      }
    }
    return i;
  };

  const readStructure = (char: string, at: number): void => {
    const expect = stack.expecting();
    if (char === ' ' || char === '\t' || char === '\n' || char === '\r') return;
    if (expect === 'end') return fail(`Unexpected ${JSON.stringify(char)} after the value`, at);
    if (char === '"' && expect !== 'colon' && expect !== 'comma-or-end') {
      stack.openString(expect === 'key' || expect === 'key-or-end');
      token = Token.String;
      return;
    }
    if (expect === 'value' || expect === 'value-or-end') {
      if (char === '{' || char === '[') return stack.openContainer(char === '[');
      if (char === ']' && expect === 'value-or-end') return stack.closeContainer();
      if (
        char === '-' ||
        (char >= '0' && char <= '9') ||
        char === 't' ||
        char === 'f' ||
        char === 'n'
      ) {
        token = char === 't' || char === 'f' || char === 'n' ? Token.Literal : Token.Number;
        scalar = char;
        return;
      }
    }
    if (char === '}' && (expect === 'key-or-end' || expect === 'comma-or-end') && stack.inObject())
      return stack.closeContainer();
    if (char === ']' && expect === 'comma-or-end' && !stack.inObject())
      return stack.closeContainer();
    if (char === ',' && expect === 'comma-or-end') return stack.comma();
    if (char === ':' && expect === 'colon') return stack.colon();
    fail(`Unexpected ${JSON.stringify(char)} (expected ${expect.replace(/-/g, ' ')})`, at);
  };

  return {
    push(piece) {
      let i = 0;
      while (i < piece.length && !error) {
        if (token === Token.String || token === Token.Escape || token === Token.Unicode) {
          i = readString(piece, i);
          continue;
        }
        const char = piece[i]!;
        if (token === Token.Number || token === Token.Literal) {
          const code = char.charCodeAt(0);
          const inScalar =
            token === Token.Literal
              ? code >= 97 && code <= 122
              : (code >= 48 && code <= 57) ||
                char === '.' ||
                char === 'e' ||
                char === 'E' ||
                char === '+' ||
                char === '-';
          if (inScalar) {
            scalar += char;
            i++;
            continue;
          }
          if (!endScalar(offset + i)) break;
        }
        readStructure(char, offset + i);
        i++;
      }
      offset += piece.length;
      return error;
    },
    finish() {
      if (error) return;
      if (token === Token.Number || token === Token.Literal) endScalar(offset);
      if (!error) complete = token === Token.None && stack.expecting() === 'end';
    },
    value: () => stack.snapshot(),
    get changed() {
      return stack.changed;
    },
    get complete() {
      return complete;
    },
    get error() {
      return error;
    },
  };
}
