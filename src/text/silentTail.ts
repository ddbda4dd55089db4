// The tail automaton behind the silent-token matcher (silentTokens.ts): the places in a text
// where a token tail could still start, read by UTF-16 char code. Pure, no RxJS. It runs on
// every delta of every reply, so it allocates nothing per character and skips what cannot
// matter (see `read`). Its tables and the step of one candidate are in silentTokenTables.ts.

import * as tokenTables from './silentTokenTables';
import type { TailCandidate, TokenTables } from './silentTokenTables';

// Module-local copies of what the per-character code uses: compiled to CommonJS (tsx, ts-jest),
// every use of an imported name is a read of the other module's exports object, under tsx
// through a getter call (see markdownScanner.ts).
const {
  COMPLEX,
  DIES,
  GAP,
  LEAD,
  TOKEN_STATES,
  TailCandidate: Candidate,
  continuesTail,
  isDecorationCode,
  lowerCode,
  stepCandidate,
  tokenTablesFor,
} = tokenTables;

export { TailCandidate, isDecorationCode } from './silentTokenTables';

/**
 * The tail automaton of one text part (see silentTokens.ts for the tail grammar), fed delta by
 * delta. A class rather than a closure factory on purpose: V8 optimizes its methods once for
 * every instance, where closures made per text part were re-optimized for each new reply.
 *
 * @example
 * ```ts
 * const tails = new TailAutomaton(['NO_REPLY']);
 * tails.read('Done. no_rep');
 * tails.holdFrom(); // 5: " no_rep" could still become a tail
 * ```
 */
export class TailAutomaton {
  private readonly tables: TokenTables;
  private candidates: TailCandidate[] = [];
  // Dead candidates, reused by the next ones (so is the `candidates` array itself).
  private readonly pool: TailCandidate[] = [];
  private length = 0; // code units read so far
  private previousDecoration = false;
  private readonly fastSteps: boolean; // readOne may use TokenTables.singleStep

  /**
   * @param tokens - the silent tokens, each with a character that is not decoration
   * @param skipAhead - false reads every character, the reference `read`'s skipping is tested
   *   against. @defaultValue `true`
   */
  constructor(
    tokens: readonly string[],
    private readonly skipAhead = true,
  ) {
    this.tables = tokenTablesFor(tokens);
    this.fastSteps = skipAhead && this.tables.singleStep.length > 0;
  }

  /** Reads a delta. */
  read(delta: string): void {
    let index = 0;
    while (
      index < delta.length &&
      (!this.skipAhead || this.candidates.length > 0 || this.length === 0)
    )
      this.readOne(delta.charCodeAt(index++));
    if (index === delta.length) return;
    const resume = this.resumeAt(delta, index);
    if (resume > index) {
      this.length += resume - index;
      this.previousDecoration = false;
      index = resume;
    }
    while (index < delta.length) this.readOne(delta.charCodeAt(index++));
  }

  /** Offset of the earliest place a tail could still start: the text before it is content. */
  holdFrom(): number {
    return this.candidates.length > 0 ? this.candidates[0].start : this.length;
  }

  /** Ends the text: the earliest candidate whose text is a whole tail, if any. */
  finish(): TailCandidate | undefined {
    const complete = this.candidates.find((candidate) => candidate.has(GAP));
    this.candidates = [];
    return complete;
  }

  // With no candidate alive at `from`: where one must be looked for again. A candidate alive
  // at the end of the delta starts at a decoration character and reads only characters that
  // can continue a tail, so it starts at the first decoration of the delta's longest suffix of
  // such characters. Before that, reading would only have moved `length` (a candidate started
  // there dies at the character before the suffix), and the last character skipped is never
  // decoration.
  private resumeAt(delta: string, from: number): number {
    const { asciiContinuesTail } = this.tables;
    let resume = delta.length;
    while (resume > from) {
      const code = delta.charCodeAt(resume - 1);
      if (code < 128 ? asciiContinuesTail[code] === 0 : !continuesTail(this.tables, code)) break;
      resume--;
    }
    while (resume < delta.length && !isDecorationCode(delta.charCodeAt(resume))) resume++;
    return resume;
  }

  // One character: by TokenTables.singleStep when one candidate in one state reads an ASCII
  // character (the common case: a word after a space), else by readCode. The reference mode
  // (skipAhead false) always takes readCode, so the tests compare the two.
  private readOne(code: number): void {
    const { candidates } = this;
    if (code < 128 && candidates.length === 1 && this.fastSteps) {
      const candidate = candidates[0];
      if (candidate.count === 1 && !candidate.atTextStart) {
        const next = this.tables.singleStep[candidate.states[0] * 128 + code];
        if (next !== COMPLEX) {
          if (next === DIES) this.pool.push(candidates.pop()!);
          else candidate.states[0] = next;
          this.previousDecoration = isDecorationCode(code);
          this.length++;
          return;
        }
      }
    }
    this.readCode(code);
  }

  private readCode(code: number): void {
    const decoration = isDecorationCode(code);
    const { candidates } = this;
    if (
      this.length === 0 ||
      (decoration && !this.previousDecoration && !this.coveredByLiveCandidate())
    ) {
      const candidate = this.pool.pop() ?? new Candidate();
      candidate.start = this.length;
      candidate.atTextStart = this.length === 0;
      candidate.states[0] = LEAD;
      candidate.count = 1;
      candidates.push(candidate);
    }
    if (candidates.length > 0) {
      const lower = lowerCode(code);
      let alive = 0;
      for (let index = 0; index < candidates.length; index++) {
        const candidate = candidates[index];
        stepCandidate(this.tables, candidate, lower, decoration, code);
        if (candidate.count > 0) candidates[alive++] = candidate;
        else this.pool.push(candidate);
      }
      while (candidates.length > alive) candidates.pop();
    }
    this.previousDecoration = decoration;
    this.length++;
  }

  // A new candidate is needed only where no live one can already read decoration: a live
  // candidate in a lead or gap state accepts every tail the new one could, and starts earlier.
  private coveredByLiveCandidate(): boolean {
    for (const candidate of this.candidates)
      for (let index = 0; index < candidate.count; index++)
        if (candidate.states[index] < TOKEN_STATES) return true;
    return false;
  }
}
