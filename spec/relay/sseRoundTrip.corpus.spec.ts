import fc from 'fast-check';
import { from } from 'rxjs';
import type { StreamEvent } from '../../src/events';
import { toSseResponse, toSseStream } from '../../src/relay/sse/toSseStream';
import { streamEvents } from '../../src/streamEvents';
import { chunksOf, collect, utf8 } from '../helpers/bytes';
import { describeCorpus } from '../helpers/corpus';

/** The bytes of a body, read to its end. */
async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** `bytes` in consecutive pieces of the given sizes (the last piece takes the rest). */
function piecesOf(bytes: Uint8Array, sizes: number[]): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; start < bytes.length; i++) {
    const size = sizes[i % sizes.length];
    pieces.push(bytes.slice(start, start + size));
    start += size;
  }
  return pieces;
}

describeCorpus('llm-rx SSE wire round trip over every capture', (captures) => {
  describe.each(captures.map((capture) => [capture.name, capture] as const))(
    '%s',
    (_name, capture) => {
      let events: StreamEvent[];
      let wire: Uint8Array;
      beforeAll(async () => {
        events = await collect(streamEvents(chunksOf([utf8(capture.sse)])));
        wire = await bytesOf(toSseStream(from(events), { heartbeatMs: 0 }));
      });

      it('the wire holds one message per event, id = position', () => {
        const ids = [...new TextDecoder().decode(wire).matchAll(/^id: (\d+)$/gm)].map((m) =>
          Number(m[1]),
        );
        expect(ids).toEqual(events.map((_event, position) => position));
      });

      it('whole body, provider detected from the first message: identical events', async () => {
        expect(await collect(streamEvents(chunksOf([wire])))).toStrictEqual(events);
      });

      it('as a Response (detected from x-llm-rx-stream): identical events', async () => {
        const response = toSseResponse(from(events), { heartbeatMs: 0 });
        expect(await collect(streamEvents(response))).toStrictEqual(events);
      });

      it('cut into pieces of 200 bytes and of random sizes ≥ 200: identical events', async () => {
        const sizeLists = [
          [200],
          ...fc.sample(fc.array(fc.integer({ min: 200, max: 2000 }), { minLength: 1 }), {
            numRuns: 8,
            seed: 17,
          }),
        ];
        for (const sizes of sizeLists) {
          const decoded = await collect(
            streamEvents(chunksOf(piecesOf(wire, sizes)), { provider: 'llm-rx' }),
          );
          expect(decoded).toStrictEqual(events);
        }
      });
    },
  );
});
