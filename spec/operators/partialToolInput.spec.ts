// partialToolInput over any JSON arguments cut anywhere, with two calls interleaved: every view
// is prefix-consistent with its call's final value, the last view of each call equals
// JSON.parse of its input, and every source event passes once, in order.
import fc from 'fast-check';
import { TestScheduler } from 'rxjs/testing';
import type { StreamEvent } from '../../src/events';
import { partialToolInput } from '../../src/operators/partialToolInput';
import { LlmRxError } from '../../src/errors';

function isPrefixConsistent(partial: unknown, final: unknown): boolean {
  if (typeof final === 'string') return typeof partial === 'string' && final.startsWith(partial);
  if (Array.isArray(final))
    return (
      Array.isArray(partial) &&
      partial.length <= final.length &&
      partial.every((item, i) => isPrefixConsistent(item, final[i]))
    );
  if (final !== null && typeof final === 'object')
    return (
      partial !== null &&
      typeof partial === 'object' &&
      !Array.isArray(partial) &&
      Object.keys(partial).every(
        (key) =>
          Object.prototype.hasOwnProperty.call(final, key) &&
          isPrefixConsistent((partial as any)[key], (final as any)[key]),
      )
    );
  return Object.is(partial, final);
}

const cut = (text: string, sizes: number[]) => {
  const pieces: string[] = [];
  let at = 0;
  for (let i = 0; at < text.length; i++) {
    const size = 1 + (sizes[i % Math.max(1, sizes.length)] ?? 0);
    pieces.push(text.slice(at, at + size));
    at += size;
  }
  return pieces;
};

describe('partialToolInput', () => {
  it('for any arguments, any cut and two calls interleaved: views prefix-consistent, the last equals JSON.parse', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 }),
        fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 }),
        fc.array(fc.nat(7), { maxLength: 12 }),
        fc.array(fc.nat(3), { maxLength: 40 }),
        (first, second, sizes, gaps) => {
          const inputs = { a: JSON.stringify(first), b: JSON.stringify(second) };
          const pieces = { a: cut(inputs.a, sizes), b: cut(inputs.b, [...sizes].reverse()) };
          const events: StreamEvent[] = [
            { type: 'tool-input-start', id: 'a', name: 'one', index: 0 },
            { type: 'tool-input-start', id: 'b', name: 'two', index: 1 },
          ];
          for (let i = 0; i < Math.max(pieces.a.length, pieces.b.length); i++) {
            if (pieces.a[i]) events.push({ type: 'tool-input-delta', id: 'a', delta: pieces.a[i] });
            if (pieces.b[i]) events.push({ type: 'tool-input-delta', id: 'b', delta: pieces.b[i] });
          }
          for (const id of ['a', 'b'] as const)
            events.push({
              type: 'tool-call',
              id,
              name: id,
              input: JSON.parse(inputs[id]),
              inputText: inputs[id],
            });
          const scheduler = new TestScheduler((actual, expected) =>
            expect(actual).toEqual(expected),
          );
          const seen: StreamEvent[] = [];
          scheduler.run(({ cold }) => {
            // Each event 0–3 frames after the one before, so intervals end anywhere.
            const marbles = events
              .map(
                (_, i) =>
                  `${'-'.repeat(gaps[i % Math.max(1, gaps.length)] ?? 0)}${String.fromCharCode(192 + i)}`,
              )
              .join('');
            const values = Object.fromEntries(
              events.map((event, i) => [String.fromCharCode(192 + i), event]),
            );
            cold(`${marbles}|`, values)
              .pipe(partialToolInput({ intervalMs: 2 }))
              .subscribe((event) => seen.push(event));
          });
          expect(seen.filter((event) => event.type !== 'tool-input-partial')).toEqual(events);
          for (const id of ['a', 'b'] as const) {
            const expected = JSON.parse(inputs[id]);
            const views = seen.flatMap((e) =>
              e.type === 'tool-input-partial' && e.id === id ? [e.value] : [],
            );
            expect(views.length).toBeGreaterThan(0);
            for (const view of views) expect(isPrefixConsistent(view, expected)).toBe(true);
            expect(views.at(-1)).toEqual(expected);
            // No view of a call after its tool-call.
            const last = seen
              .map((e) => e.type === 'tool-input-partial' && e.id === id)
              .lastIndexOf(true);
            const call = seen.findIndex((e) => e.type === 'tool-call' && e.id === id);
            expect(last).toBeLessThan(call);
          }
        },
      ),
      { numRuns: 300, seed: 41 },
    );
  });

  it('rejects a bad interval at once with a message naming it', () => {
    expect(() => partialToolInput({ intervalMs: -1 })).toThrow(LlmRxError);
    expect(() => partialToolInput({ intervalMs: -1 })).toThrow(/intervalMs/);
  });
});
