import fc from 'fast-check';
import { from } from 'rxjs';
import { LlmRxError } from '../../src/errors';
import type { StreamEvent } from '../../src/events';
import { suppressSilent } from '../../src/operators/suppressSilent';
import { collect } from '../helpers/bytes';

/** Every way to cut `text` once into two deltas, one delta per character, and random n-delta cuts. */
function deltaSplits(text: string): string[][] {
  const splits: string[][] = [[text], [...text]];
  for (let cut = 1; cut < text.length; cut++) splits.push([text.slice(0, cut), text.slice(cut)]);
  const cutLists = fc.sample(fc.array(fc.integer({ min: 1, max: Math.max(1, text.length - 1) })), {
    numRuns: 40,
    seed: 3,
  });
  for (const cuts of cutLists) {
    const sorted = [...new Set(cuts)].sort((a, b) => a - b);
    splits.push(
      sorted
        .map((cut, i) => text.slice(sorted[i - 1] ?? 0, cut))
        .concat(text.slice(sorted.at(-1) ?? 0)),
    );
  }
  return splits;
}

/** A whole response around the given deltas. */
function response(deltas: string[]): StreamEvent[] {
  return [
    { type: 'text-start', id: 't' },
    ...deltas.map((delta): StreamEvent => ({ type: 'text-delta', id: 't', delta })),
    { type: 'text-end', id: 't' },
    { type: 'finish', reason: 'stop' },
    { type: 'completed', finishReason: 'stop' },
  ];
}

async function suppress(deltas: string[]) {
  const out = await collect(from(response(deltas)).pipe(suppressSilent()));
  const text = out.flatMap((event) => (event.type === 'text-delta' ? [event.delta] : []));
  return { out, text: text.join(''), releases: text };
}

describe('suppressSilent over whole responses', () => {
  it.each([
    ['NO_REPLY', 'NO_REPLY'],
    ['  NO_REPLY  ', 'NO_REPLY'],
    ['no_reply', 'NO_REPLY'],
    ['**NO_REPLY**', 'NO_REPLY'],
    ['NO_REPLY NO_REPLY', 'NO_REPLY'],
    ['ANNOUNCE_SKIP', 'ANNOUNCE_SKIP'],
    ['REPLY_SKIP', 'REPLY_SKIP'],
  ])('%j: zero text characters and one silent, for every split', async (input, token) => {
    for (const deltas of deltaSplits(input)) {
      const { out } = await suppress(deltas);
      expect({ deltas, out }).toEqual({
        deltas,
        out: [
          { type: 'silent', token },
          { type: 'finish', reason: 'stop' },
          { type: 'completed', finishReason: 'stop' },
        ],
      });
    }
  });

  it.each([
    'No, thanks',
    'NOTE: done',
    'Hello',
    'NO_X',
    'NO-',
    'NO_REPLY but here is more content',
    'NO_REPLY 👍',
    'Please NO_REPLY to this',
    'interject.NO_REPLY',
  ])('%j: exactly the input out, for every split', async (input) => {
    for (const deltas of deltaSplits(input)) {
      const { out, text } = await suppress(deltas);
      expect({ deltas, text }).toEqual({ deltas, text: input });
      expect(out[0]).toEqual({ type: 'text-start', id: 't' });
      expect(out.filter((event) => event.type === 'silent')).toEqual([]);
      expect(out.filter((event) => event.type === 'text-end')).toEqual([
        { type: 'text-end', id: 't' },
      ]);
    }
  });

  it('"Done.\\n\\nNO_REPLY": exactly "Done." for every split, and no "N" or "NO" ever after it', async () => {
    for (const deltas of deltaSplits('Done.\n\nNO_REPLY')) {
      const { out, text, releases } = await suppress(deltas);
      expect({ deltas, text }).toEqual({ deltas, text: 'Done.' });
      // Every release is a prefix step of "Done.": nothing after it, not even whitespace.
      let soFar = '';
      for (const release of releases) {
        soFar += release;
        expect('Done.'.startsWith(soFar)).toBe(true);
      }
      expect(out.filter((event) => event.type === 'silent')).toEqual([]);
      expect(out.at(-3)).toEqual({ type: 'text-end', id: 't' });
    }
  });
});

describe('suppressSilent options', () => {
  it('rejects an empty token list and a token of only emphasis, at construction', () => {
    expect(() => suppressSilent({ tokens: [] })).toThrow(LlmRxError);
    expect(() => suppressSilent({ tokens: ['**'] })).toThrow(/invalid options/);
    expect(() => suppressSilent({ tokens: ['NO_REPLY', ' ** '] })).toThrow(
      expect.objectContaining({
        code: 'invalid-options',
        message:
          'suppressSilent: invalid options\n✖ a token needs a character that is not whitespace or * _ ~ emphasis\n  → at tokens[1]',
      }),
    );
  });

  it('uses custom tokens', async () => {
    const out = await collect(
      from(response(['[[sk', 'ip]]'])).pipe(suppressSilent({ tokens: ['[[SKIP]]'] })),
    );
    expect(out[0]).toEqual({ type: 'silent', token: '[[SKIP]]' });
  });
});
