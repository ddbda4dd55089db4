// The token tables of the tail automaton (silentTail.ts): what each character does to a
// candidate, built once per token list and shared. Pure, no RxJS.

// States, as small integers: before the first token without or with a separator seen, in
// decoration after a token, or inside a token (TOKEN_STATES + a table index).
export const LEAD = 0;
export const LEAD_SEPARATED = 1;
export const GAP = 2;
export const TOKEN_STATES = 3;
/** TokenTables.singleStep: the candidate dies, or the step needs the general path. */
export const DIES = -1;
export const COMPLEX = -2;

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
export function lowerCode(code: number): number {
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
export interface TokenTables {
  /** Inside-token state TOKEN_STATES + k expects expectedCode[k], then goes to afterMatch[k]. */
  expectedCode: number[];
  afterMatch: number[];
  /** First lowered code → states after it; ASCII codes also by array. */
  startStates: Map<number, number[]>;
  asciiStartStates: Array<number[] | undefined>;
  /** 1 where an ASCII code can keep a candidate alive (decoration or a token's letter). */
  asciiContinuesTail: Uint8Array;
  tokenCodes: Set<number>;
  /**
   * One candidate in one state `s` (not at the text start) reading ASCII code `c`:
   * `singleStep[s * 128 + c]` is its one next state, DIES, or COMPLEX (several states, or a
   * new candidate could start there): the automaton's fast path (TailAutomaton.readOne).
   * Empty for token lists of more than MAX_SINGLE_STEP_STATES states (no fast path).
   */
  singleStep: Int32Array;
}

// The tables of each token list met so far, shared by every automaton reading with that list.
// One object per list, built once, so every automaton sees the same hidden class: tables built
// per reply were garbage after it, and V8 threw away the optimized automaton code each time a
// GC collected them (a "wrong map" deopt per reply). Bounded: lists past the bound are built
// for their automaton alone.
const tablesByTokens = new Map<string, TokenTables>();
const MAX_CACHED_TOKEN_LISTS = 64;

export function tokenTablesFor(tokens: readonly string[]): TokenTables {
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
  const tables: TokenTables = {
    expectedCode,
    afterMatch,
    startStates,
    asciiStartStates: Array.from({ length: 128 }, (_, code) => startStates.get(code)),
    asciiContinuesTail: new Uint8Array(128).map((_, code) =>
      continuesTail({ tokenCodes }, code) ? 1 : 0,
    ),
    tokenCodes,
    singleStep: new Int32Array(0),
  };
  tables.singleStep = buildSingleStep(tables);
  return tables;
}

// 512 bytes per state: the default tokens take about 30 states.
const MAX_SINGLE_STEP_STATES = 2048;

/** TokenTables.singleStep, computed with the automaton's own `stepCandidate`. */
function buildSingleStep(tables: TokenTables): Int32Array {
  const stateCount = TOKEN_STATES + tables.expectedCode.length;
  if (stateCount > MAX_SINGLE_STEP_STATES) return new Int32Array(0);
  const single = new Int32Array(stateCount * 128);
  const candidate = new TailCandidate();
  for (let state = 0; state < stateCount; state++) {
    for (let code = 0; code < 128; code++) {
      const decoration = isDecorationCode(code);
      // Decoration after a token letter may start a new candidate: not a one-candidate step.
      if (decoration && state >= TOKEN_STATES) {
        single[state * 128 + code] = COMPLEX;
        continue;
      }
      candidate.states[0] = state;
      candidate.count = 1;
      stepCandidate(tables, candidate, lowerCode(code), decoration, code);
      single[state * 128 + code] =
        candidate.count === 0 ? DIES : candidate.count === 1 ? candidate.states[0] : COMPLEX;
    }
  }
  return single;
}

// Whether a character can keep a candidate alive: decoration, or a token's letter in any case.
export function continuesTail(tables: Pick<TokenTables, 'tokenCodes'>, code: number): boolean {
  return isDecorationCode(code) || tables.tokenCodes.has(lowerCode(code));
}

/** One candidate reads one character (`lower` = lowerCode(code)): its states after it. */
export function stepCandidate(
  tables: TokenTables,
  candidate: TailCandidate,
  lower: number,
  decoration: boolean,
  code: number,
): void {
  const { expectedCode, afterMatch, asciiStartStates, startStates } = tables;
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
