import { from } from 'rxjs';
import type { StreamEvent } from '../../src/events';
import { followLog } from '../../src/relay/log/followLog';
import { memoryEventLog } from '../../src/relay/log/memoryEventLog';
import { recordTo } from '../../src/relay/log/recordTo';
import { toUIMessageStream, toUIMessageStreamResponse } from '../../src/relay/ui/toUIMessageStream';
import { streamEvents } from '../../src/streamEvents';
import type { UIMessageChunk } from '../../src/relay/ui/uiMessageChunk';
import { UIMessageFramer } from '../../src/relay/ui/uiMessageFramer';
import { collectTurn } from '../../src/turn/collectTurn';
import { chunksOf, collect, utf8 } from '../helpers/bytes';
import { describeCorpus } from '../helpers/corpus';
import { aiSdkMajors } from '../helpers/aiSdkMajors';
import { readChunks, readResponse, summaryOfMessage, summaryOfTurn } from './uiMessageReader';

const majors = aiSdkMajors.map((major) => [major.name, major] as const);

/** Cleanups run after each test, whether it passed or not (a log's TTL timer must not outlive it). */
const cleanups: Array<() => unknown> = [];
const afterTest = (cleanup: () => unknown) => cleanups.push(cleanup);
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describeCorpus('UI message stream over every capture, read by the ai package', (captures) => {
  describe.each(captures.map((capture) => [capture.name, capture] as const))(
    '%s',
    (_name, capture) => {
      let events: StreamEvent[];
      beforeAll(async () => {
        events = await collect(streamEvents(chunksOf([utf8(capture.sse)])));
      });

      it.each(majors)(
        'readUIMessageStream of %s reads it without an error; the message equals collectTurn',
        async (_major, major) => {
          const turn = (await collect(from(events).pipe(collectTurn())))[0];
          const read = await readResponse(
            toUIMessageStreamResponse(from(events), { messageId: 'm1' }),
            major,
          );
          expect(read.errors).toEqual([]);
          expect(read.done).toBe(true);
          expect(read.message?.id).toBe('m1');
          expect(summaryOfMessage(read.message)).toEqual(summaryOfTurn(turn, events));
        },
      );

      it.each(majors)(
        "with reasoning 'drop', read by %s: no reasoning part, the rest unchanged",
        async (_major, major) => {
          const turn = (await collect(from(events).pipe(collectTurn())))[0];
          const read = await readResponse(
            toUIMessageStreamResponse(from(events), { reasoning: 'drop' }),
            major,
          );
          expect(read.errors).toEqual([]);
          expect(summaryOfMessage(read.message)).toEqual(summaryOfTurn(turn, events, 'drop'));
        },
      );

      it('resumed after any position: re-sent starts, never a delta without its start, same text', async () => {
        const log = memoryEventLog();
        afterTest(() => log.close());
        await collect(from(events).pipe(recordTo(log, 's')));
        const turn = (await collect(from(events).pipe(collectTurn())))[0];
        const step = Math.max(1, Math.floor(events.length / 12));
        for (let after = 0; after < events.length - 1; after += step) {
          // The client holds the message as it stood after event `after` (its stream cut there).
          const before = await readChunks(prefixChunks(events.slice(0, after + 1)));
          expect(before.errors).toEqual([]);
          const resumed = await readChunks(
            toUIMessageStream(followLog(log, 's', { after }), { messageId: 'm1' }),
            before.message,
          );
          expect({ after, errors: resumed.errors }).toEqual({ after, errors: [] });
          // A fresh client (a reload, no state kept) reading only the resumed part never throws.
          const fresh = await readChunks(toUIMessageStream(followLog(log, 's', { after })));
          expect({ after, errors: fresh.errors }).toEqual({ after, errors: [] });
          expect(summaryOfMessage(resumed.message).text).toBe(turn.text);
        }
      });
    },
  );
});

/** The chunks of the events so far, without the end framing: a stream cut mid-message. */
function prefixChunks(events: StreamEvent[]): ReadableStream<UIMessageChunk> {
  const framer = new UIMessageFramer({ messageId: 'm1', reasoning: 'send' });
  const chunks: UIMessageChunk[] = [];
  for (const event of events) framer.push(event, (chunk) => chunks.push(chunk));
  return new ReadableStream({
    start(controller) {
      chunks.forEach((chunk) => controller.enqueue(chunk));
      controller.close();
    },
  });
}
