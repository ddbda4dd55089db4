// Heap allocated per text delta by the channel stages: the body's events decoded once, then
// replayed through a stage with a young generation large enough that no GC runs during the
// measurement, so heap growth = bytes allocated. Not part of `npm run bench`.
//   node --expose-gc --max-semi-space-size=256 --import tsx bench/allocationProbe.ts
// The figure that matters is the difference to the identity stage (which allocates nothing of
// its own): what is left is the text the stages must keep (monotonicText's streamed text, the
// chunker's held text and its cut blocks) plus whatever the stage logic allocates per delta.

import { fuseStages } from '../src/channels/fusedChannel';
import { channel } from '../src/channels/channel';
import type { StreamEvent } from '../src/events';
import type { OperatorStage } from '../src/internal/createOperator';
import { bufferChunkStage } from '../src/operators/bufferChunk';
import { monotonicTextStage } from '../src/operators/monotonicText';
import { normalizeReasoningStage } from '../src/operators/normalizeReasoning';
import { sortByIndexStage } from '../src/operators/sortByIndex';
import { suppressSilentStage } from '../src/operators/suppressSilent';
import { decodedEvents, replay } from './channelAlone';
import { composedChannel } from './channelAlone';

const identity: OperatorStage<StreamEvent, StreamEvent> = ({ subscriber }) => ({
  next: (event) => subscriber.next(event),
});

async function main(): Promise<void> {
  const events = await decodedEvents(Number(process.env.BENCH_MB ?? 5));
  const deltas = events.filter((event) => event.type === 'text-delta').length;
  const textChars = events.reduce(
    (sum, event) => sum + (event.type === 'text-delta' ? event.delta.length : 0),
    0,
  );
  const rows = {
    'identity stage (fused)': () => fuseStages([identity]),
    'normalizeReasoning (keep)': () => fuseStages([normalizeReasoningStage()]),
    sortByIndex: () => fuseStages([sortByIndexStage()]),
    monotonicText: () => fuseStages([monotonicTextStage()]),
    suppressSilent: () => fuseStages([suppressSilentStage()]),
    'bufferChunk (telegram)': () =>
      fuseStages([bufferChunkStage({ minChars: 800, maxChars: 4096, idleMs: 1000 })]),
    "channel('web') fused": () => channel('web'),
    "channel('telegram') fused": () => channel('telegram'),
    "channel('telegram') composed": () => composedChannel('telegram'),
  };
  console.log(
    `${deltas} text deltas, ${textChars} characters (${(textChars / deltas).toFixed(1)} per delta)`,
  );
  for (const [name, make] of Object.entries(rows)) {
    const samples: number[] = [];
    for (let round = 0; round < 4; round++) {
      const stage = make();
      globalThis.gc!();
      const before = process.memoryUsage().heapUsed;
      let last = 0;
      replay(events)
        .pipe(stage)
        .subscribe({ next: () => last++ });
      const grown = process.memoryUsage().heapUsed - before;
      if (round > 0) samples.push(grown / deltas);
    }
    const shrank = samples.some((value) => value < 0);
    console.log(
      `${name.padEnd(30)} ${Math.min(...samples)
        .toFixed(1)
        .padStart(6)} bytes per delta (min of 3)` +
        (shrank ? '  (a GC ran: enlarge --max-semi-space-size)' : ''),
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
