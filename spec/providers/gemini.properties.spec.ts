import fc from 'fast-check';
import type { StreamEvent } from '../../src/events';
import { createGeminiDecoder } from '../../src/providers/gemini';
import { decodePayloads } from './decoderSupport';

// Invariants of decodeGemini over generated streams of parts: thoughts, text, function calls and
// signatures in any order and any grouping into chunks.

const piece = fc.constantFrom('', 'a', ' b', 'é🙂', '\n\n');
const part = fc.oneof(
  fc.record({ text: piece, thought: fc.constant(true) }),
  fc.record({
    text: piece,
    thought: fc.constant(true),
    thoughtSignature: fc.constantFrom('t1', 't2'),
  }),
  fc.record({ text: piece }),
  fc.record({ text: piece, thoughtSignature: fc.constantFrom('s1', 's2') }),
  fc.record({
    functionCall: fc.record({ name: fc.constantFrom('f', 'g'), args: fc.constant({ x: 1 }) }),
    thoughtSignature: fc.constantFrom('c1', 'c2'),
  }),
);
/** Parts grouped into chunks of one to three, the last one with a finish reason. */
const stream = fc
  .array(fc.array(part, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 8 })
  .map((groups) =>
    groups.map((parts, i) => ({
      candidates: [
        {
          content: { role: 'model', parts },
          ...(i === groups.length - 1 ? { finishReason: 'STOP' } : {}),
        },
      ],
    })),
  );

const partsOf = (payloads: Array<{ candidates: Array<{ content: { parts: any[] } }> }>) =>
  payloads.flatMap((p) => p.candidates[0].content.parts);

describe('decodeGemini properties', () => {
  it('text and reasoning are the parts concatenated; every signature kept once; starts and ends pair up', () => {
    fc.assert(
      fc.property(stream, (payloads) => {
        const events: StreamEvent[] = decodePayloads(createGeminiDecoder(), payloads);
        const parts = partsOf(payloads);
        const joined = (type: 'text-delta' | 'reasoning-delta') =>
          events.map((e) => (e.type === type ? e.delta : '')).join('');
        expect(joined('text-delta')).toBe(
          parts.map((p) => (p.thought || p.functionCall ? '' : p.text)).join(''),
        );
        expect(joined('reasoning-delta')).toBe(
          parts.map((p) => (p.thought ? p.text : '')).join(''),
        );
        const kept = events.flatMap((e) =>
          (e.type === 'reasoning-end' || e.type === 'tool-call') && e.signature
            ? [e.signature]
            : [],
        );
        expect(kept.sort()).toEqual(
          parts.flatMap((p) => (p.thoughtSignature ? [p.thoughtSignature] : [])).sort(),
        );
        for (const [start, end] of [
          ['text-start', 'text-end'],
          ['reasoning-start', 'reasoning-end'],
          ['tool-input-start', 'tool-call'],
        ] as const) {
          let open = 0;
          for (const e of events) {
            if (e.type === start) open++;
            if (e.type === end) open--;
            expect(open === 0 || open === 1).toBe(true);
          }
          expect(open).toBe(0);
        }
        expect(events.at(-1)).toEqual(expect.objectContaining({ type: 'finish' }));
      }),
      { numRuns: 300 },
    );
  });
});
