// Reads markdown one character at a time and records where a block may end, by kind, and which
// spans (fences, tables) should stay whole. Each character is looked at once; nothing already
// read is read again. A break is recorded only once text follows it, so no cut can leave an empty
// block behind it; breaks inside a fence wait until more code of the same fence follows.
// Words, sentence ends and list markers are tracked here; lines, fences, tables and headings
// in lineTracker.ts.

import { createBreakPoints, type BreakPoints } from './breakPoints';
import type { FenceRegion, MarkdownRegion } from './fenceTracker';
import * as lineKinds from './lineTracker';
import * as sentenceEnds from './sentenceEnds';

// Module-local copies of what the per-character loop uses. Compiled to CommonJS (tsx, ts-jest),
// every use of an imported name is a read of the other module's exports object, under tsx
// through a getter call: a few per character, together as costly as the scan itself.
const { MARKER, LineTracker } = lineKinds;
const {
  WORD_CODE_LENGTH,
  extendWordCode,
  isAbbreviation,
  isDigit,
  isSentenceCloser,
  isSentencePunctuation,
  isListMarkerChar,
} = sentenceEnds;

/** The structure read so far from the text of one part. */
export interface MarkdownScanner {
  /** Reads appended text. */
  scan(text: string): void;
  /** The text is complete: settles the last line. */
  finish(): void;
  readonly breaks: BreakPoints;
  /** Characters read so far. */
  readonly length: number;
  /** After the last non-whitespace character read (0 when none). */
  readonly contentEnd: number;
  /** The fence the text currently ends in, or null. */
  readonly openFence: FenceRegion | null;
  /** The region containing `position` (start ≤ position < end), forgetting those before `cursor`. */
  regionContaining(position: number, cursor: number): MarkdownRegion | undefined;
  /**
   * Where a flush that is not the end may stop: before a line that could still become a fence
   * opener or closer, and before a fence with no code yet (never an empty code block).
   */
  safeFlushEnd(): number;
}

const LINE_FEED = 10;
const SPACE = 32;
const TAB = 9;
const DOT = 46;

/** A scanner for one text part; `maxChars` sizes the reopen line of split fences. */
export function createMarkdownScanner(maxChars: number): MarkdownScanner {
  return new Scanner(maxChars);
}

// A class, not a closure factory: `scan` runs for every delta of every chunker. As a prototype
// method its optimized code is shared by all instances and outlives any one of them; a closure
// per chunker lost it at each full GC that freed the chunker, and ran unoptimized again.
class Scanner implements MarkdownScanner {
  readonly breaks: BreakPoints = createBreakPoints();
  length = 0;
  contentEnd = 0;
  private readonly lines: lineKinds.LineTracker;
  private lineContentEnd = 0;
  // Mirrors of the line tracker's state, read after each call that may change it.
  private lineStarted = false;
  private lineKind = 0;

  // The current word.
  private inWord = false;
  private lastWordEnd = -1;
  private previousWordEndsSentence = false;
  private wordCode = 0;
  private wordLength = 0;
  private wordAllDigits = true;
  private wordIsFirstOnLine = true;
  private sentenceMark = false;
  // The word so far could be a list marker (`-`, `*`, `+`, `1.`, `1)`) and is first on its line.
  private listMarker = false;

  constructor(maxChars: number) {
    this.lines = new LineTracker(this.breaks, maxChars);
  }

  get openFence(): FenceRegion | null {
    return this.lines.openFence;
  }

  finish(): void {
    this.lines.finish(this.length, this.lineContentEnd);
  }

  regionContaining(position: number, cursor: number): MarkdownRegion | undefined {
    return this.lines.regionContaining(position, cursor);
  }

  safeFlushEnd(): number {
    return this.lines.safeFlushEnd(this.contentEnd, this.wordIsFirstOnLine && this.listMarker);
  }

  scan(text: string): void {
    const lines = this.lines;
    // The hot loop works on locals (registers), written back once at the end.
    let started = this.lineStarted;
    let kind = this.lineKind;
    let content = this.contentEnd;
    let lineContent = this.lineContentEnd;
    let word = this.inWord;
    let wordEnd = this.lastWordEnd;
    let endsSentence = this.previousWordEndsSentence;
    let code = this.wordCode;
    let size = this.wordLength;
    let allDigits = this.wordAllDigits;
    let firstOnLine = this.wordIsFirstOnLine;
    let mark = this.sentenceMark;
    let marker = this.listMarker;
    const base = this.length;
    for (let index = 0; index < text.length; index++) {
      const char = text.charCodeAt(index);
      const position = base + index;
      if (char === LINE_FEED) {
        lines.end(position, lineContent);
        started = false;
        word = false;
        wordEnd = -1;
        continue;
      }
      if (char === SPACE || char === TAB || char === 13 || char === 11 || char === 12) {
        if (!started) {
          lines.indent += char === TAB ? 4 : 1;
          continue;
        }
        if (kind >= MARKER) {
          lines.markerChar(char, true);
          kind = lines.kind;
        }
        if (word) {
          word = false;
          wordEnd = position;
          endsSentence = mark;
        }
        continue;
      }
      if (!started) {
        lines.start(char, content);
        started = true;
        kind = lines.kind;
      }

      if (kind >= MARKER) {
        lines.markerChar(char, false);
        kind = lines.kind;
      }
      if (!word) {
        if (wordEnd === position && (isSentencePunctuation(char) || isSentenceCloser(char))) {
          // Glued to the fullwidth sentence end before it (see below): the break moves on.
          wordEnd = position + 1;
          lineContent = position + 1;
          content = position + 1;
          continue;
        }
        // A second word on this line: the gap before it is a break (a sentence end, maybe),
        // unless the first word is a list marker.
        if (wordEnd >= 0) {
          // (`marker && !allDigits`: a whole marker, not `12` which may be a number.)
          if (firstOnLine && marker && !allDigits) lines.commitListGap(wordEnd);
          else lines.commitInline(wordEnd, endsSentence);
        }
        firstOnLine = wordEnd < 0;
        marker = firstOnLine;
        word = true;
        code = 0;
        size = 0;
        allDigits = true;
        mark = false;
      }
      const lowerCase = char | 32;
      if (lowerCase >= 97 && lowerCase <= 122) {
        // The common case, an ASCII letter, decided in two comparisons.
        mark = false;
        allDigits = false;
        marker = false;
      } else {
        if (isSentencePunctuation(char)) {
          // "e.g." and a list marker "1." end no sentence.
          mark = !(
            char === DOT &&
            (isAbbreviation(code) || (firstOnLine && allDigits && size > 0))
          );
          if (char > 0xff) {
            // A fullwidth end (。！？．): the word ends here, so text right after it, even
            // with no space, starts the next sentence (and the gap is a sentence break).
            word = false;
            wordEnd = position + 1;
            endsSentence = true;
          }
        } else if (!isSentenceCloser(char)) {
          mark = false;
        }
        if (marker) marker = isListMarkerChar(char, size, allDigits);
        if (!isDigit(char)) allDigits = false;
      }
      // Up to one character past the longest code, which marks the word too long for one.
      if (size <= WORD_CODE_LENGTH) code = extendWordCode(code, size, char);
      size++;
      lineContent = position + 1;
      content = position + 1;
    }
    this.length = base + text.length;
    this.lineStarted = started;
    this.lineKind = kind;
    this.contentEnd = content;
    this.lineContentEnd = lineContent;
    this.inWord = word;
    this.lastWordEnd = wordEnd;
    this.previousWordEndsSentence = endsSentence;
    this.wordCode = code;
    this.wordLength = size;
    this.wordAllDigits = allDigits;
    this.wordIsFirstOnLine = firstOnLine;
    this.sentenceMark = mark;
    this.listMarker = marker;
  }
}
