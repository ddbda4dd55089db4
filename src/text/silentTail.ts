// The tail automaton behind the silent-token matcher (silentTokens.ts): the places in a text
// where a token tail could still start, read by UTF-16 char code. Pure, no RxJS. It runs on
// every delta of every reply, so it allocates nothing per character and skips what cannot
// matter (see `read`).

// States, as small integers: before the first token without or with a separator seen, in
// decoration after a token, or inside a token (TOKEN_STATES + a table index).
const LEAD = 0;
const LEAD_SEPARATED = 1;
const GAP = 2;
const TOKEN_STATES = 3;

/**
 * One place where a tail may start; alive while its text so far is a prefix of some tail.
 * Candidates are reused (see TailAutomaton.pool), and so are their state lists: a delta that
 * starts and ends candidates allocates nothing.
 */
export class TailCandidate {
  /** Offset of the tail's first character in the whole text. */
  start = 0;
  /** True for the candidate at offset 0: only it may start a token without a separator. */
  atTextStart = false;
  /** The automaton states it is in: the first `count` entries (0 means dead). */
  states: number[] = [];
  count = 0;
  /** The list the next step writes into; then the two swap. */
  spare: number[] = [];

  /** True when one of its states is `state`. */
  has(state: number): boolean {
    for (let index = 0; index < this.count; index++) if (this.states[index] === state) return true;
    return false;
  }
}

/** Decoration: whitespace and markdown emphasis (`*` `_` `~`). */
export function isDecorationCode(code: number): boolean {
  if (code === 32 || code === 42 || code === 95 || code === 126 || (code >= 9 && code <= 13))
    return true;
  return code >= 160 && isWideWhitespace(code);
}

// The code units ≥ 160 that the RegExp `\s` matches, without building a string per character.
function isWideWhitespace(code: number): boolean {
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

// Lower case of one code unit, as the code unit a token's lowered text would hold; -1 when it
// lowers to several units (`İ`), which no token unit can equal.
function lowerCode(code: number): number {
  if (code < 128) return code >= 65 && code <= 90 ? code + 32 : code;
  let lower = LOWER_CODES[code];
  if (lower === 0) {
    const text = String.fromCharCode(code).toLowerCase();
    lower = text.length === 1 ? text.charCodeAt(0) : -1;
    LOWER_CODES[code] = lower;
  }
  return lower;
}

// lowerCode of each code unit once computed (0: not yet; no code unit ≥ 128 lowers to 0).
const LOWER_CODES = new Int32Array(0x10000);

// Adds `state` to the first `count` entries of `states` unless there; returns the new count.
function addState(states: number[], count: number, state: number): number {
  for (let index = 0; index < count; index++) if (states[index] === state) return count;
  states[count] = state;
  return count + 1;
}

/** The token tables an automaton reads with, built once per token list. */
interface TokenTables {
  /** Inside-token state TOKEN_STATES + k expects expectedCode[k], then goes to afterMatch[k]. */
  expectedCode: number[];
  afterMatch: number[];
  /** First lowered code → states after it; ASCII codes also by array. */
  startStates: Map<number, number[]>;
  asciiStartStates: Array<number[] | undefined>;
  /** 1 where an ASCII code can keep a candidate alive (decoration or a token's letter). */
  asciiContinuesTail: Uint8Array;
  tokenCodes: Set<number>;
}

// The tables of each token list met so far, shared by every automaton reading with that list.
// One object per list, built once, so every automaton sees the same hidden class: tables built
// per reply were garbage after it, and V8 threw away the optimized automaton code each time a
// GC collected them (a "wrong map" deopt per reply). Bounded: lists past the bound are built
// for their automaton alone.
const tablesByTokens = new Map<string, TokenTables>();
const MAX_CACHED_TOKEN_LISTS = 64;

function tokenTablesFor(tokens: readonly string[]): TokenTables {
  const key = tokens.join('\u0000');
  let tables = tablesByTokens.get(key);
  if (tables === undefined) {
    tables = buildTokenTables(tokens);
    if (tablesByTokens.size < MAX_CACHED_TOKEN_LISTS) tablesByTokens.set(key, tables);
  }
  return tables;
}

function buildTokenTables(tokens: readonly string[]): TokenTables {
  const expectedCode: number[] = [];
  const afterMatch: number[] = [];
  const startStates = new Map<number, number[]>();
  const tokenCodes = new Set<number>();
  for (const token of tokens.map((each) => each.toLowerCase())) {
    const base = TOKEN_STATES + expectedCode.length;
    for (let matched = 1; matched < token.length; matched++) {
      expectedCode.push(token.charCodeAt(matched));
      afterMatch.push(matched + 1 === token.length ? GAP : base + matched);
    }
    const first = token.charCodeAt(0);
    const starts = startStates.get(first) ?? [];
    startStates.set(first, [...starts, token.length === 1 ? GAP : base]);
    for (let index = 0; index < token.length; index++) tokenCodes.add(token.charCodeAt(index));
  }
  return {
    expectedCode,
    afterMatch,
    startStates,
    asciiStartStates: Array.from({ length: 128 }, (_, code) => startStates.get(code)),
    asciiContinuesTail: new Uint8Array(128).map((_, code) =>
      continuesTail({ tokenCodes }, code) ? 1 : 0,
    ),
    tokenCodes,
  };
}

// Whether a character can keep a candidate alive: decoration, or a token's letter in any case.
function continuesTail(tables: Pick<TokenTables, 'tokenCodes'>, code: number): boolean {
  return isDecorationCode(code) || tables.tokenCodes.has(lowerCode(code));
}

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
  }

  /** Reads a delta. */
  read(delta: string): void {
    let index = 0;
    while (
      index < delta.length &&
      (!this.skipAhead || this.candidates.length > 0 || this.length === 0)
    )
      this.readCode(delta.charCodeAt(index++));
    if (index === delta.length) return;
    const resume = this.resumeAt(delta, index);
    if (resume > index) {
      this.length += resume - index;
      this.previousDecoration = false;
      index = resume;
    }
    while (index < delta.length) this.readCode(delta.charCodeAt(index++));
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

  private readCode(code: number): void {
    const decoration = isDecorationCode(code);
    const { candidates } = this;
    if (
      this.length === 0 ||
      (decoration && !this.previousDecoration && !this.coveredByLiveCandidate())
    ) {
      const candidate = this.pool.pop() ?? new TailCandidate();
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
        this.step(candidate, lower, decoration, code);
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

  private step(candidate: TailCandidate, lower: number, decoration: boolean, code: number): void {
    const { expectedCode, afterMatch, asciiStartStates, startStates } = this.tables;
    const { states, count, atTextStart } = candidate;
    // Written into the candidate's spare list (never shrunk: `count` says what is valid, as
    // setting `length` is a slow runtime call in V8), then the two lists swap.
    const next = candidate.spare;
    let nextCount = 0;
    const starts = lower >= 0 && lower < 128 ? asciiStartStates[lower] : startStates.get(lower);
    for (let index = 0; index < count; index++) {
      const state = states[index];
      if (state >= TOKEN_STATES) {
        const entry = state - TOKEN_STATES;
        if (expectedCode[entry] === lower) nextCount = addState(next, nextCount, afterMatch[entry]);
        continue;
      }
      if (decoration) {
        // `_` alone is snake_case glue, not a separator from the content before.
        const separated = state === LEAD_SEPARATED || (state === LEAD && code !== 95);
        nextCount = addState(
          next,
          nextCount,
          state === GAP ? GAP : separated ? LEAD_SEPARATED : LEAD,
        );
      }
      if (starts !== undefined && (state !== LEAD || atTextStart))
        for (let start = 0; start < starts.length; start++)
          nextCount = addState(next, nextCount, starts[start]);
    }
    candidate.spare = states;
    candidate.states = next;
    candidate.count = nextCount;
  }
}
