import { fromSse, type SseMessage } from '../../src/source/fromSse';
import { chunksOf, collect, everySingleSplit, randomSplits } from '../helpers/bytes';
import { cases } from './sseConformanceCases';

// SSE parsing conformance, table-driven (cases in sseConformanceCases.ts). Every body is fed
// whole, byte by byte and in 200 seeded random splits: the same messages, retries and warnings
// each time.

async function parse(
  chunks: Uint8Array[],
): Promise<{ messages: SseMessage[]; retries: number[]; truncated: number }> {
  const retries: number[] = [];
  let truncated = 0;
  const messages = await collect(
    fromSse(chunksOf(chunks), {
      onRetry: (ms) => retries.push(ms),
      onWarning: () => truncated++,
    }),
  );
  return { messages, retries, truncated };
}

describe('SSE conformance (WHATWG + web-platform-tests format-*)', () => {
  it('has at least 30 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });

  describe.each(cases)('$name', (testCase) => {
    const expected = {
      messages: testCase.expected,
      retries: testCase.retries ?? [],
      truncated: testCase.truncated ?? 0,
    };

    it('whole', async () => {
      expect(await parse([testCase.body])).toEqual(expected);
    });

    it('byte by byte', async () => {
      expect(await parse(Array.from(testCase.body, (byte) => Uint8Array.of(byte)))).toEqual(
        expected,
      );
    });

    it('in 200 random splits (seed 2024)', async () => {
      for (const split of randomSplits(testCase.body, 200, 2024)) {
        expect(await parse(split)).toEqual(expected);
      }
    });

    if (testCase.everyOffset) {
      it('cut at every byte offset', async () => {
        for (const split of everySingleSplit(testCase.body)) {
          expect(await parse(split)).toEqual(expected);
        }
      });
    }
  });
});
