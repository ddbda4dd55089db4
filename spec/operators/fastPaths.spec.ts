// normalizeReasoning and suppressSilent with their per-delta fast paths against the same
// operators with the fast paths taken out (modules mocked in isolation): the same events, in
// the same order, split the same way, for random text, deltas and options.
import fc from 'fast-check';
import { from } from 'rxjs';
import type { StreamEvent } from '../../src/events';
import { normalizeReasoning } from '../../src/operators/normalizeReasoning';
import { suppressSilent } from '../../src/operators/suppressSilent';
import type * as SilentTokens from '../../src/text/silentTokens';
import type * as ThinkTags from '../../src/text/thinkTags';
import { collect } from '../helpers/bytes';
import { MARKDOWN_PIECES, SILENT_PIECES, textDeltas } from '../helpers/textPieces';

/** Loads a fresh copy of an operator module with one text module replaced. */
function loadWithMock<T>(operatorPath: string, textPath: string, mock: () => unknown): T {
  let loaded: T | undefined;
  jest.isolateModules(() => {
    jest.doMock(textPath, mock);
    loaded = require(operatorPath) as T;
  });
  jest.dontMock(textPath);
  return loaded!;
}

// The scanner without its fast path: every delta goes through push, character by character.
const slowNormalizeReasoning = loadWithMock<{ normalizeReasoning: typeof normalizeReasoning }>(
  '../../src/operators/normalizeReasoning',
  '../../src/text/thinkTags',
  () => {
    const actual = jest.requireActual<typeof ThinkTags>('../../src/text/thinkTags');
    return {
      ...actual,
      createThinkTagScanner: (options?: ThinkTags.ThinkTagOptions) => ({
        ...actual.createThinkTagScanner(options),
        pushWhole: () => undefined,
      }),
    };
  },
).normalizeReasoning;

// The matcher without skipping ahead: the automaton reads every character.
const slowSuppressSilent = loadWithMock<{ suppressSilent: typeof suppressSilent }>(
  '../../src/operators/suppressSilent',
  '../../src/text/silentTokens',
  () => {
    const actual = jest.requireActual<typeof SilentTokens>('../../src/text/silentTokens');
    return {
      ...actual,
      createSilentTokenMatcher: (tokens?: readonly string[]) =>
        actual.createSilentTokenMatcher(tokens, { skipAhead: false }),
    };
  },
).suppressSilent;

/** Two text parts interleaved with other events, cut into deltas anywhere, then a terminal. */
function responses(pieces: string[]) {
  const part = textDeltas(pieces, 30, 20);
  return fc
    .tuple(part, part, fc.boolean(), fc.boolean())
    .map(([first, second, withTextEnd, withReasoning]) => {
      const events: StreamEvent[] = [{ type: 'text-start', id: 'a' }];
      if (withReasoning) {
        events.push({ type: 'reasoning-start', id: 'r', index: 0 });
        events.push({ type: 'reasoning-delta', id: 'r', index: 0, delta: 'why', kind: 'text' });
        events.push({ type: 'reasoning-end', id: 'r', index: 0 });
      }
      first.forEach((delta, i) => {
        events.push({ type: 'text-delta', id: 'a', delta });
        if (i < second.length) events.push({ type: 'text-delta', id: 'b', delta: second[i] });
      });
      for (const delta of second.slice(first.length))
        events.push({ type: 'text-delta', id: 'b', delta });
      if (withTextEnd) events.push({ type: 'text-end', id: 'a', text: first.join('') });
      events.push({ type: 'finish', reason: 'stop' });
      events.push({ type: 'completed', finishReason: 'stop' });
      return events;
    });
}

describe('normalizeReasoning fast path', () => {
  const pieces = MARKDOWN_PIECES;
  it('gives exactly the events of the character-by-character path', async () => {
    await fc.assert(
      fc.asyncProperty(
        responses(pieces),
        fc.constantFrom<'keep' | 'drop'>('keep', 'drop'),
        async (events, reasoning) => {
          const fast = await collect(from(events).pipe(normalizeReasoning({ reasoning })));
          const slow = await collect(from(events).pipe(slowNormalizeReasoning({ reasoning })));
          expect(fast).toEqual(slow);
        },
      ),
      { numRuns: 1000, seed: 31 },
    );
  });

  it('sends a plain text delta on as the same event object', async () => {
    const plain: StreamEvent = { type: 'text-delta', id: 't', delta: 'no tag here' };
    const out = await collect(from([plain]).pipe(normalizeReasoning()));
    expect(out).toHaveLength(1);
    expect(out[0]).toBe(plain);
  });
});

describe('suppressSilent fast path', () => {
  const pieces = SILENT_PIECES;
  it('gives exactly the events of the character-by-character path', async () => {
    await fc.assert(
      fc.asyncProperty(
        responses(pieces),
        fc.constantFrom<string[] | undefined>(undefined, ['SKIP'], ['x', 'NO_REPLY']),
        async (events, tokens) => {
          const fast = await collect(from(events).pipe(suppressSilent({ tokens })));
          const slow = await collect(from(events).pipe(slowSuppressSilent({ tokens })));
          expect(fast).toEqual(slow);
        },
      ),
      { numRuns: 1000, seed: 37 },
    );
  });

  it('sends a delta that cannot touch a token on as the same event object', async () => {
    const start: StreamEvent = { type: 'text-start', id: 't' };
    const plain: StreamEvent = { type: 'text-delta', id: 't', delta: 'Hello there' };
    const out = await collect(from([start, plain]).pipe(suppressSilent()));
    expect(out).toEqual([start, plain]);
    expect(out[1]).toBe(plain);
  });
});
