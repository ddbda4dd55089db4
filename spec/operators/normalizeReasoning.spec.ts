import fc from 'fast-check';
import { from } from 'rxjs';
import { LlmRxError } from '../../src/errors';
import type { StreamEvent } from '../../src/events';
import { normalizeReasoning } from '../../src/operators/normalizeReasoning';
import { collect } from '../helpers/bytes';

/** The events for a text part streamed as `deltas` (with start and end). */
function textPart(id: string, deltas: string[]): StreamEvent[] {
  return [
    { type: 'text-start', id },
    ...deltas.map((delta): StreamEvent => ({ type: 'text-delta', id, delta })),
    { type: 'text-end', id },
  ];
}

function joined(events: StreamEvent[], type: 'text-delta' | 'reasoning-delta'): string {
  return events.map((event) => (event.type === type ? event.delta : '')).join('');
}

describe('normalizeReasoning', () => {
  it('rejects bad options at construction with invalid-options', () => {
    for (const options of [{ reasoning: 'hide' }, { tags: [] }, { tags: ['<think>'] }]) {
      let thrown: unknown;
      try {
        normalizeReasoning(options as never);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(LlmRxError);
      expect((thrown as LlmRxError).code).toBe('invalid-options');
      expect((thrown as LlmRxError).message).toMatch(/^normalizeReasoning: invalid options/);
    }
  });

  it.each(['1think', 'think>', 'my think'])(
    'rejects the tag name %j, naming the rule and the offending entry',
    (tag) => {
      expect(() => normalizeReasoning({ tags: ['think', tag] })).toThrow(
        expect.objectContaining({
          code: 'invalid-options',
          message:
            'normalizeReasoning: invalid options\n✖ a tag name: a letter, then letters, digits, _ : -\n  → at tags[1]',
        }),
      );
    },
  );

  it('brackets every tag block and gives each the next index, per stream', async () => {
    const events = await collect(
      from([
        ...textPart('a', ['<think>one</think>x<thi', 'nking>two']),
        ...textPart('b', ['<thought>three</thought>y']),
      ]).pipe(normalizeReasoning()),
    );
    const reasoning = events.filter((event) => event.type.startsWith('reasoning'));
    expect(reasoning.map((event) => [event.type, 'id' in event && event.id])).toEqual([
      ['reasoning-start', 'a:think:0'],
      ['reasoning-delta', 'a:think:0'],
      ['reasoning-end', 'a:think:0'],
      ['reasoning-start', 'a:think:1'],
      ['reasoning-delta', 'a:think:1'],
      ['reasoning-end', 'a:think:1'],
      ['reasoning-start', 'b:think:2'],
      ['reasoning-delta', 'b:think:2'],
      ['reasoning-end', 'b:think:2'],
    ]);
    expect(joined(events, 'text-delta')).toBe('xy');
    expect(joined(events, 'reasoning-delta')).toBe('onetwothree');
  });

  it('gives the same events for any split of the same text, reasoning ids and indices included', async () => {
    const text = 'Hi<think>a `<think>` b</think> there\n```\n<think>\n```\n<final>done</final>';
    const reference = await normalizeOnce([text]);
    expect(reference.filter((event) => event.type === 'reasoning-start')).toHaveLength(1);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: text.length - 1 })), async (cuts) => {
        const deltas = split(text, cuts);
        const events = await collect(from(textPart('t', deltas)).pipe(normalizeReasoning()));
        expect(mergeDeltas(events)).toEqual(reference);
      }),
      { numRuns: 500, seed: 99 },
    );
  });

  it('keeps visible and reasoning text whole and in order for random tagged text and deltas', async () => {
    const pieces = ['a', ' ', '\n', '<', '>', '/', 'think', '<think>', '</think>', '<final>', 'é'];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...pieces), { maxLength: 25 }),
        fc.array(fc.nat()),
        async (tokens, cuts) => {
          const text = tokens.join('');
          const events = await collect(
            from(
              textPart(
                't',
                split(
                  text,
                  cuts.map((cut) => cut % (text.length + 1)),
                ),
              ),
            ).pipe(normalizeReasoning()),
          );
          // Same result as the tags removed by a simple reference on the whole text.
          const expected = referenceSplit(text);
          expect(joined(events, 'text-delta')).toBe(expected.visible);
          expect(joined(events, 'reasoning-delta')).toBe(expected.reasoning);
          expect(events[events.length - 1]).toEqual({ type: 'text-end', id: 't' });
        },
      ),
      { numRuns: 500, seed: 4242 },
    );
  });
});

async function normalizeOnce(deltas: string[]): Promise<StreamEvent[]> {
  return mergeDeltas(await collect(from(textPart('t', deltas)).pipe(normalizeReasoning())));
}

/** Adjacent deltas of the same kind and id joined, so different splits compare equal. */
function mergeDeltas(events: StreamEvent[]): StreamEvent[] {
  const merged: StreamEvent[] = [];
  for (const event of events) {
    const last = merged[merged.length - 1];
    if (
      (event.type === 'text-delta' || event.type === 'reasoning-delta') &&
      last?.type === event.type &&
      last.id === event.id
    ) {
      merged[merged.length - 1] = { ...last, delta: last.delta + event.delta };
    } else merged.push(event);
  }
  return merged;
}

function split(text: string, cuts: number[]): string[] {
  const offsets = [...new Set(cuts.filter((c) => c > 0 && c < text.length))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let start = 0;
  for (const cut of offsets) {
    pieces.push(text.slice(start, cut));
    start = cut;
  }
  pieces.push(text.slice(start));
  return pieces;
}

/**
 * A non-incremental reference for text without code: the tag grammar as one regular expression
 * over the whole text (tags cannot contain "<", so leftmost matches are the scanner's tags).
 */
function referenceSplit(text: string): { visible: string; reasoning: string } {
  const tag = /<[ \t]*(\/[ \t]*)?(think|final)([ \t/][^<>\n]*)?>/gi;
  let visible = '';
  let reasoning = '';
  let inReasoning = false;
  let last = 0;
  const add = (piece: string) => (inReasoning ? (reasoning += piece) : (visible += piece));
  for (let match = tag.exec(text); match; match = tag.exec(text)) {
    add(text.slice(last, match.index));
    last = match.index + match[0].length;
    const closing = match[1] !== undefined;
    const selfClosing = (match[3] ?? '').trim().endsWith('/');
    if (selfClosing) continue;
    if (match[2].toLowerCase() === 'final') {
      if (!closing) inReasoning = false;
    } else inReasoning = !closing;
  }
  add(text.slice(last));
  return { visible, reasoning };
}
