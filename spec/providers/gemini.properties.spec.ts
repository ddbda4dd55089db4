import fc from 'fast-check';
import type { StreamEvent } from '../../src/events';
import { createGeminiDecoder } from '../../src/providers/gemini';
import { createArgsWriter } from '../../src/providers/geminiArgsWriter';
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

/** A JSON value without empty containers (streamed pieces cannot say `{}` or `[]` inside one). */
const { value: argsValue } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    tie('object'),
    fc.array(tie('value'), { minLength: 1, maxLength: 3 }),
  ),
  object: fc.dictionary(fc.constantFrom('a', 'b c', "it's", 'é'), tie('value'), {
    minKeys: 1,
    maxKeys: 3,
  }),
}));

/** Vertex's pieces for a value, in document order; strings cut at the given points. */
function piecesOf(value: unknown, path: string, cuts: number[]): object[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => piecesOf(v, `${path}[${i}]`, cuts));
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) =>
      piecesOf(v, `${path}['${k.replace(/'/g, "\\'")}']`, cuts),
    );
  if (typeof value !== 'string')
    return [
      typeof value === 'number'
        ? { jsonPath: path, numberValue: value }
        : typeof value === 'boolean'
          ? { jsonPath: path, boolValue: value }
          : { jsonPath: path, nullValue: 'NULL_VALUE' },
    ];
  const at = [...new Set(cuts.map((c) => c % (value.length + 1)))].sort((x, y) => x - y);
  const bounds = [0, ...at, value.length];
  return bounds
    .slice(1)
    .map((end, i) => ({ jsonPath: path, stringValue: value.slice(bounds[i], end) }));
}

describe('the streamed-arguments writer', () => {
  it('pieces in document order give exactly the JSON text of the value, whatever the cuts', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('x', 'y', 'z'), argsValue, { minKeys: 1 }),
        fc.array(fc.nat(20), { maxLength: 3 }),
        (value, cuts) => {
          const writer = createArgsWriter();
          const text = piecesOf(value, '$', cuts)
            .map((piece) => writer.write(piece as never))
            .join('');
          expect(text + writer.end()).toBe(JSON.stringify(value));
        },
      ),
      { numRuns: 300 },
    );
  });
});
