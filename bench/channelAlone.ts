// The channel stages alone, without the decoding: the body's events decoded once into an array,
// then replayed through channel(name) (fused) and through the single operators piped, CPU µs
// per event. For profiling and quick comparisons; not part of `npm run bench`.
//   node --expose-gc --import tsx bench/channelAlone.ts [telegram|web|…]
//   node --import tsx --cpu-prof bench/channelAlone.ts telegram     (a profile of the fused path)
//   node --expose-gc --import tsx bench/channelAlone.ts --stages    (each stage alone, fused)
// BENCH_MB (default 20), BENCH_RUNS (default 7).

import { Observable, type OperatorFunction } from 'rxjs';
import { channel } from '../src/channels/channel';
import { channelPresets, type ChannelName } from '../src/channels/presets';
import type { StreamEvent } from '../src/events';
import { fuseStages } from '../src/channels/fusedChannel';
import type { OperatorStage } from '../src/internal/createOperator';
import { bufferChunk, bufferChunkStage } from '../src/operators/bufferChunk';
import { monotonicText, monotonicTextStage } from '../src/operators/monotonicText';
import { normalizeReasoning, normalizeReasoningStage } from '../src/operators/normalizeReasoning';
import { sortByIndex, sortByIndexStage } from '../src/operators/sortByIndex';
import { suppressSilent, suppressSilentStage } from '../src/operators/suppressSilent';
import { streamEvents } from '../src/streamEvents';
import { median } from './measure';
import { buildChatBody, streamOfSlices } from './openaiChatBody';

type Stage = OperatorFunction<StreamEvent, StreamEvent>;

/** The single operators piped, with the preset's options: the composed reference. */
export function composedChannel(name: ChannelName): Stage {
  const preset = channelPresets[name];
  const stages: Stage[] = [
    normalizeReasoning({ reasoning: preset.reasoning }),
    sortByIndex(),
    monotonicText(),
    suppressSilent(),
  ];
  if (preset.minChars !== undefined && preset.maxChars !== undefined) {
    const { minChars, maxChars, idleMs, mode } = preset;
    stages.push(bufferChunk({ minChars, maxChars, idleMs, mode }));
  }
  return (source) => stages.reduce((piped, stage) => stage(piped), source);
}

/** Every event of the body, decoded once. */
export async function decodedEvents(megabytes: number): Promise<StreamEvent[]> {
  const body = buildChatBody(megabytes * 1024 * 1024);
  const events: StreamEvent[] = [];
  await new Promise<void>((resolve, reject) =>
    streamEvents(streamOfSlices(body.slices), { provider: 'openai-chat' }).subscribe({
      next: (event) => events.push(event),
      error: reject,
      complete: resolve,
    }),
  );
  return events;
}

/** A synchronous source of the events (no scheduler), so only the stage is measured. */
export function replay(events: readonly StreamEvent[]): Observable<StreamEvent> {
  return new Observable((subscriber) => {
    for (let index = 0; index < events.length && !subscriber.closed; index++) {
      subscriber.next(events[index]);
    }
    subscriber.complete();
  });
}

/** CPU µs per event of `stage` over `events`. */
export function cpuMicrosPerEvent(events: readonly StreamEvent[], stage?: Stage): number {
  globalThis.gc?.();
  const started = process.cpuUsage();
  let count = 0;
  (stage ? replay(events).pipe(stage) : replay(events)).subscribe(() => count++);
  const used = process.cpuUsage(started);
  return (used.user + used.system) / events.length;
}

/** Each stage of channel('telegram') alone under fuseStages, and the identity stage. */
async function stagesAlone(): Promise<void> {
  const events = await decodedEvents(Number(process.env.BENCH_MB ?? 20));
  const identity: OperatorStage<StreamEvent, StreamEvent> = ({ subscriber }) => ({
    next: (event) => subscriber.next(event),
  });
  const stages: Record<string, Stage> = {
    'identity stage (the plumbing)': fuseStages([identity]),
    "normalizeReasoning({ reasoning: 'drop' })": fuseStages([
      normalizeReasoningStage({ reasoning: 'drop' }),
    ]),
    'sortByIndex()': fuseStages([sortByIndexStage()]),
    'monotonicText()': fuseStages([monotonicTextStage()]),
    'suppressSilent()': fuseStages([suppressSilentStage()]),
    'bufferChunk({ 800, 4096, idleMs: 1000 })': fuseStages([
      bufferChunkStage({ minChars: 800, maxChars: 4096, idleMs: 1000 }),
    ]),
    "channel('telegram')": channel('telegram'),
  };
  const times: Record<string, number[]> = {};
  const runs = Number(process.env.BENCH_RUNS ?? 5);
  for (let round = 0; round <= runs; round++) {
    for (const [name, stage] of Object.entries(stages)) {
      const micros = cpuMicrosPerEvent(events, stage);
      if (round > 0) (times[name] ??= []).push(micros);
    }
  }
  console.log(`CPU µs per event over ${events.length} decoded events (median of ${runs}):`);
  for (const [name, values] of Object.entries(times))
    console.log(`  ${median(values).toFixed(3)}  ${name}`);
}

async function main(): Promise<void> {
  if (process.argv[2] === '--stages') return stagesAlone();
  const name = (process.argv[2] ?? 'telegram') as ChannelName;
  const events = await decodedEvents(Number(process.env.BENCH_MB ?? 20));
  const runs = Number(process.env.BENCH_RUNS ?? 7);
  const rows: Record<string, number[]> = { 'no stage': [], fused: [], composed: [] };
  // Made once, like a server that builds its channel at start (each call makes new closures).
  const fusedStage = channel(name);
  const composedStage = composedChannel(name);
  for (let round = 0; round < runs + 1; round++) {
    const none = cpuMicrosPerEvent(events);
    const fused = cpuMicrosPerEvent(events, fusedStage);
    const composed = cpuMicrosPerEvent(events, composedStage);
    if (round === 0) continue; // warm-up
    rows['no stage'].push(none);
    rows.fused.push(fused);
    rows.composed.push(composed);
  }
  console.log(
    `channel('${name}') over ${events.length} decoded events, CPU µs per event (median of ${runs}):`,
  );
  for (const [row, values] of Object.entries(rows)) {
    console.log(
      `  ${row.padEnd(9)} ${median(values).toFixed(3)}  (${Math.min(...values).toFixed(3)}–${Math.max(...values).toFixed(3)})`,
    );
  }
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
