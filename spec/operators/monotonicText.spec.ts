import fc from 'fast-check';
import { from } from 'rxjs';
import type { StreamEvent } from '../../src/events';
import { monotonicText } from '../../src/operators/monotonicText';
import {
  MIN_RESEND_OVERLAP,
  longestSuffixPrefixOverlap,
  mergeResentText,
} from '../../src/text/mergeResentText';
import { collect } from '../helpers/bytes';

/** What a user sees for a text part streamed as `deltas` and ended with `resent`. */
async function visibleText(deltas: string[], resent: string) {
  const events = await collect(
    from<StreamEvent[]>([
      ...deltas.map((delta): StreamEvent => ({ type: 'text-delta', id: 't', delta })),
      { type: 'text-end', id: 't', text: resent },
    ]).pipe(monotonicText()),
  );
  const text = events.map((event) => (event.type === 'text-delta' ? event.delta : '')).join('');
  const end = events[events.length - 1];
  const warnings = events.filter((event) => event.type === 'warning');
  return { text, end, warnings, events };
}

describe('monotonicText resend cases', () => {
  it.each([
    ['Hello ', 'Hello world', 'Hello world'],
    ['Hello world', 'Hello', 'Hello world'],
    [
      'This is a very long string ',
      'very long string and then some',
      'This is a very long string and then some',
    ],
    ['Hello world', 'Hello world', 'Hello world'],
  ])('streamed %j then text-end %j gives %j', async (streamed, resent, expected) => {
    const { text, end, warnings } = await visibleText([streamed], resent);
    expect(text).toBe(expected);
    expect(end).toEqual({ type: 'text-end', id: 't', text: expected });
    expect(warnings).toEqual([]);
  });

  it('sends the addition as one text-delta right before the text-end', async () => {
    const { events } = await visibleText(['Hel', 'lo '], 'Hello world');
    expect(events.slice(2)).toEqual([
      { type: 'text-delta', id: 't', delta: 'world' },
      { type: 'text-end', id: 't', text: 'Hello world' },
    ]);
  });

  it('appends a divergent text after one text-end-divergent warning', async () => {
    const { text, warnings } = await visibleText(['Hello'], 'Bye');
    expect(text).toBe('HelloBye');
    expect(warnings).toEqual([
      expect.objectContaining({
        type: 'warning',
        code: 'text-end-divergent',
        detail: { id: 't', streamedChars: 5, resentChars: 3 },
      }),
    ]);
  });
});

describe('monotonicText over long texts', () => {
  // Past 256 deltas an id's text is kept as flattened pieces; two ids interleave so that the
  // current-id shortcut switches back and forth while pieces are moved.
  it("keeps every id's text whole across many interleaved deltas", async () => {
    const delta = fc.string({ unit: fc.constantFrom('a', ' ', 'é', '\n', '🙂'), maxLength: 8 });
    const stream = fc.array(fc.tuple(fc.constantFrom('p', 'q'), delta), {
      minLength: 600,
      maxLength: 1400,
      size: 'max', // else fast-check keeps arrays near minLength
    });
    await fc.assert(
      fc.asyncProperty(stream, async (pairs) => {
        const joined = { p: '', q: '' };
        const events: StreamEvent[] = [];
        for (const [id, text] of pairs) {
          joined[id] += text;
          events.push({ type: 'text-delta', id, delta: text });
        }
        for (const id of ['p', 'q'] as const) {
          events.push({ type: 'text-end', id, text: `${joined[id]} more!` });
          events.push({ type: 'text-end', id, text: `${joined[id]} more!` });
        }
        const out = await collect(from(events).pipe(monotonicText()));
        expect(out.slice(0, pairs.length)).toEqual(events.slice(0, pairs.length));
        expect(out.slice(pairs.length)).toEqual([
          { type: 'text-delta', id: 'p', delta: ' more!' },
          { type: 'text-end', id: 'p', text: `${joined.p} more!` },
          { type: 'text-end', id: 'p', text: `${joined.p} more!` },
          { type: 'text-delta', id: 'q', delta: ' more!' },
          { type: 'text-end', id: 'q', text: `${joined.q} more!` },
          { type: 'text-end', id: 'q', text: `${joined.q} more!` },
        ]);
      }),
      { numRuns: 60, seed: 9 },
    );
  });
});

describe('mergeResentText', () => {
  it('merges on an overlap of exactly MIN_RESEND_OVERLAP characters, not one fewer', () => {
    const overlap = 'x'.repeat(MIN_RESEND_OVERLAP - 1) + 'y';
    expect(mergeResentText(`a ${overlap}`, `${overlap} b`)).toEqual({
      addition: ' b',
      how: 'overlaps',
    });
    const short = overlap.slice(1);
    expect(mergeResentText(`a ${short}`, `${short} b`).how).toBe('divergent');
  });

  it('finds the longest suffix/prefix overlap, like a naive search', () => {
    const naive = (tail: string, head: string) => {
      for (let length = Math.min(tail.length, head.length); length > 0; length--) {
        if (tail.endsWith(head.slice(0, length))) return length;
      }
      return 0;
    };
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 20 });
    fc.assert(
      fc.property(text, text, (tail, head) => {
        expect(longestSuffixPrefixOverlap(tail, head)).toBe(naive(tail, head));
      }),
      { numRuns: 1000, seed: 31 },
    );
  });

  it('the result holds the resent text, adding at most a tail of it', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', ' ', 'é'), maxLength: 30 });
    fc.assert(
      fc.property(text, text, (streamed, resent) => {
        const { addition } = mergeResentText(streamed, resent);
        expect((streamed + addition).includes(resent)).toBe(true);
        // Never more than the resent text itself: nothing is repeated beyond it.
        expect(addition.length).toBeLessThanOrEqual(resent.length);
        expect(resent.endsWith(addition)).toBe(true);
      }),
      { numRuns: 1000, seed: 17 },
    );
  });
});
