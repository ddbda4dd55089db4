// How far below channel('telegram') any implementation of its stages could get on this body:
// one class that does, for each text delta, only the per-delta work the four stages cannot skip
// (normalizeReasoning's scan for `<`, monotonicText's record of the delta, suppressSilent's
// matcher, bufferChunk's clock read and chunker), calling the same pure parts directly, with
// no per-stage dispatch, no per-part bookkeeping, no idle timer and nothing for other events.
// It is NOT llm-rx's behaviour (the script checks it gives the same text on this body only):
// it is a yardstick for the `channel ≤ 1.2× streamEvents` target. Not part of `npm run bench`.
//   node --expose-gc --import tsx bench/channelLowerBound.ts
// MB (default 5), RUNS (default 30). With --expose-gc a full GC runs before every run, as in
// `npm run bench`; without it, none.

import { asyncScheduler, Observable, type OperatorFunction, type Subscriber } from 'rxjs';
import { createIncrementalChunker } from '../src/chunking/blockChunker';
import type { ChunkBlock } from '../src/chunking/chunkingOptions';
import { channel } from '../src/channels/channel';
import type { StreamEvent } from '../src/events';
import { streamEvents } from '../src/streamEvents';
import { createSilentTokenMatcher } from '../src/text/silentTokens';
import { createThinkTagScanner } from '../src/text/thinkTags';
import { llmRxStreamEvents, llmRxWithChannel, textOf } from './contenders';
import { formatTable, measureRounds } from './measure';
import { buildChatBody, streamOfSlices } from './openaiChatBody';

const PIECES = 256;

class LowerBound {
  private readonly tags = createThinkTagScanner();
  private readonly silent = createSilentTokenMatcher();
  private readonly chunker = createIncrementalChunker({ minChars: 800, maxChars: 4096 });
  private readonly pieces: string[] = new Array<string>(PIECES).fill('');
  private count = 0;
  private streamed = '';
  private collected: ChunkBlock[] = [];
  private seq = 0;
  private readonly deadline = new Float64Array([Infinity]);

  constructor(private readonly subscriber: Subscriber<StreamEvent>) {}

  next(event: StreamEvent): void {
    if (event.type !== 'text-delta') {
      if (event.type === 'completed') this.emit(this.chunker.end('flush'));
      this.subscriber.next(event);
      return;
    }
    const { delta } = event;
    if (this.tags.pushWhole(delta) !== 'text') throw new Error('this body has no think tags');
    this.pieces[this.count++] = delta;
    if (this.count === PIECES) {
      this.streamed += this.pieces.join('');
      this.count = 0;
    }
    const released = this.silent.push(delta);
    const now = asyncScheduler.now();
    this.chunker.appendTo(released, this.collected);
    this.deadline[0] = now + 1000;
    if (this.collected.length > 0) {
      const blocks = this.collected;
      this.collected = [];
      this.emit(blocks);
    }
  }

  private emit(blocks: ChunkBlock[]): void {
    for (const { text, reason } of blocks) {
      this.subscriber.next({ type: 'block', text, seq: this.seq++, reason });
    }
  }
}

const lowerBound: OperatorFunction<StreamEvent, StreamEvent> = (source) =>
  new Observable<StreamEvent>((subscriber) => {
    const stage = new LowerBound(subscriber);
    return source.subscribe({
      next: (event) => stage.next(event),
      error: (error) => subscriber.error(error),
      complete: () => subscriber.complete(),
    });
  });

async function main(): Promise<void> {
  const body = buildChatBody(Number(process.env.MB ?? 5) * 1024 * 1024);
  const events = () => streamEvents(streamOfSlices(body.slices), { provider: 'openai-chat' });
  if (
    (await textOf(events().pipe(channel('telegram')))) !== (await textOf(events().pipe(lowerBound)))
  ) {
    throw new Error('The lower bound does not give the text channel() gives on this body.');
  }
  // streamEvents is the first row, so "× floor" below reads "× streamEvents".
  const runs = Number(process.env.RUNS ?? 30);
  const rows = await measureRounds(
    [
      llmRxStreamEvents(streamEvents),
      llmRxWithChannel(streamEvents, "channel('telegram')", channel('telegram')),
      llmRxWithChannel(streamEvents, 'lower bound', lowerBound),
    ],
    () => streamOfSlices(body.slices),
    body.text,
    { warmup: 3, runs },
  );
  console.log(
    formatTable(rows, body.stats.events, body.stats.bytes).replace('× floor', '× streamEvents'),
  );
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
