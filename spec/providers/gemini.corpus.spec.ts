import type { StreamEvent } from '../../src/events';
import { streamEvents } from '../../src/streamEvents';
import { chunksOf, collect, utf8 } from '../helpers/bytes';
import { describeCorpus, type Capture } from '../helpers/corpus';

// decodeGemini on the real Gemini and Vertex captures (real-2026/gemini), compared with what the
// payloads themselves carry, read here without the decoder. everyWire.corpus.spec.ts adds the
// terminal, text and re-chunking checks; detect.corpus.spec.ts the detection.

type Payload = Record<string, any>;

/** Warnings a capture may give, with the reason: [capture, warned field]. */
const EXPECTED_WARNINGS: Array<[string, string]> = [
  // Which URLs the URL context tool fetched: not part of the answer (its sources are grounding).
  [
    'gemini/firebase-vertex-gemini-2.5-flash-url-context-safety-ratings.sse',
    'candidate.urlContextMetadata',
  ],
];

/** Captures that do not end `completed`, and how they end. */
const TERMINALS: Record<string, object> = {
  'gemini/firebase-vertex-gemini-1.5-flash-finish-safety-redacted.sse': {
    type: 'incomplete',
    reason: 'content-filter',
  },
};

function payloadsOf(capture: Capture): Payload[] {
  return capture.sse
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => JSON.parse(line.slice(5)));
}

const partsOf = (payloads: Payload[]): Payload[] =>
  payloads.flatMap((p) => p.candidates?.[0]?.content?.parts ?? []);

describeCorpus(
  'decodeGemini on the real captures',
  (captures) => {
    describe.each(captures.map((capture) => [capture.name, capture] as const))(
      '%s',
      (_name, capture) => {
        const payloads = payloadsOf(capture);
        const parts = partsOf(payloads);
        let events: StreamEvent[];
        beforeAll(async () => {
          events = await collect(streamEvents(chunksOf([utf8(capture.sse)])));
        });
        const ofType = <T extends StreamEvent['type']>(type: T) =>
          events.filter((e): e is Extract<StreamEvent, { type: T }> => e.type === type);

        it('reasoning is the thought parts, in order, kind text', () => {
          const thoughts = parts.filter((p) => p.thought).map((p) => p.text ?? '');
          const deltas = ofType('reasoning-delta');
          expect(deltas.map((d) => d.delta).join('')).toBe(thoughts.join(''));
          expect(deltas.every((d) => d.kind === 'text')).toBe(true);
        });

        it('keeps every thoughtSignature, once: on the tool-call of its function call, else on a reasoning-end', () => {
          const onCalls = parts.filter((p) => p.functionCall?.name && p.thoughtSignature);
          const onOthers = parts.filter((p) => !p.functionCall && p.thoughtSignature);
          const calls = ofType('tool-call').filter((c) => c.signature !== undefined);
          expect(calls.map((c) => [c.name, c.signature])).toEqual(
            onCalls.map((p) => [p.functionCall.name, p.thoughtSignature]),
          );
          expect(
            ofType('reasoning-end').flatMap((e) => (e.signature ? [e.signature] : [])),
          ).toEqual(onOthers.map((p) => p.thoughtSignature));
        });

        it('one tool call per named functionCall, in order; whole calls with their args, wire ids kept', () => {
          const named = parts.filter((p) => p.functionCall?.name).map((p) => p.functionCall);
          const calls = ofType('tool-call');
          expect(calls.map((c) => c.name)).toEqual(named.map((f) => f.name));
          named.forEach((wire, i) => {
            if (!wire.willContinue) expect(calls[i].input).toEqual(wire.args ?? {});
            if (wire.id) expect(calls[i].id).toBe(wire.id);
            expect(calls[i].error).toBeUndefined();
            expect(JSON.parse(calls[i].inputText)).toEqual(calls[i].input);
          });
          expect(new Set(calls.map((c) => c.id)).size).toBe(calls.length);
          // Streamed or whole, a call's deltas add up to its inputText.
          for (const call of calls)
            expect(
              ofType('tool-input-delta')
                .filter((d) => d.id === call.id)
                .map((d) => d.delta)
                .join(''),
            ).toBe(call.inputText);
        });

        it('citations quote the answer where they point, from every grounding source', () => {
          const answer = ofType('text-delta')
            .map((d) => d.delta)
            .join('');
          const citations = ofType('citation');
          for (const c of citations)
            if (c.start !== undefined) expect(answer.slice(c.start, c.end)).toBe(c.text);
          const sources = payloads.flatMap(
            (p) => p.candidates?.[0]?.groundingMetadata?.groundingChunks ?? [],
          );
          expect([...new Set(citations.map((c) => c.url))].sort()).toEqual(
            [...new Set(sources.map((s: Payload) => s.web.uri))].sort(),
          );
        });

        it('code the model ran → tool-start / tool-end, provider-executed, paired by id', () => {
          const code = parts.filter((p) => p.executableCode).map((p) => p.executableCode);
          const results = parts
            .filter((p) => p.codeExecutionResult)
            .map((p) => p.codeExecutionResult);
          expect(ofType('tool-start')).toEqual(
            code.map((c) => ({
              type: 'tool-start',
              id: c.id,
              name: 'code_execution',
              args: { language: c.language, code: c.code },
              providerExecuted: true,
            })),
          );
          expect(ofType('tool-end').map((e) => [e.id, e.result, e.isError])).toEqual(
            results.map((r) => [r.id, { outcome: r.outcome, output: r.output }, false]),
          );
        });

        it('ends as its finishReason says, with the last usageMetadata', () => {
          const last = [...payloads].reverse().find((p) => p.usageMetadata?.totalTokenCount);
          const u = last!.usageMetadata;
          const usage = {
            inputTokens: u.promptTokenCount,
            outputTokens: u.candidatesTokenCount,
            reasoningTokens: u.thoughtsTokenCount,
            totalTokens: u.totalTokenCount,
          };
          for (const key of Object.keys(usage) as Array<keyof typeof usage>)
            if (usage[key] === undefined) delete usage[key];
          expect(ofType('usage').at(-1)).toEqual({ type: 'usage', ...usage });
          const terminal = events.at(-1)!;
          if (TERMINALS[capture.name]) expect(terminal).toMatchObject(TERMINALS[capture.name]);
          else expect(terminal).toEqual(expect.objectContaining({ type: 'completed', usage }));
        });

        it('warns only where the table above gives a reason', () => {
          const expected = EXPECTED_WARNINGS.filter(([name]) => name === capture.name);
          expect(ofType('warning').map((w) => (w.detail as { field: string }).field)).toEqual(
            expected.map(([, field]) => field),
          );
        });
      },
    );

    it('Vertex streamed nested arguments put together: the whole recipe', async () => {
      const nested = captures.find((c) => c.name.includes('streamed-function-args-nested'));
      expect(nested).toBeDefined();
      const events = await collect(streamEvents(chunksOf([utf8(nested!.sse)])));
      const call = events.find((e) => e.type === 'tool-call') as { input: { recipe: any } };
      const recipe = call.input.recipe;
      expect(recipe.name).toBe('Lasagna');
      expect(recipe.ingredients).toHaveLength(10);
      expect(recipe.ingredients[0]).toEqual({ amount: '16 oz', name: 'Lasagna noodles' });
      expect(recipe.ingredients[9]).toEqual({ amount: '1/2 tsp', name: 'Pepper' });
      expect(recipe.steps).toHaveLength(10);
      expect(recipe.steps[1]).toBe(
        'Cook lasagna noodles according to package directions, drain and set aside.',
      );
    });
  },
  ['gemini'],
);
