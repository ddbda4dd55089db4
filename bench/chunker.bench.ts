// µs per delta of the block chunker, alone and as the bufferChunk operator, beside the AI SDK's
// smoothStream on the same deltas. Run alone: `npx tsx bench/chunker.bench.ts`.
//
// What each row measures, per delta, over streams of generated markdown cut into 3–10 character
// deltas (input generation and event objects are built before timing):
// - chunker stream: createBlockChunker(min/max).append(delta) for every delta, then end().
// - chunker end:    the same in mode 'end' (all the cutting happens in end()).
// - bufferChunk:    from(textDeltaEvents).pipe(bufferChunk({min, max})) subscribed (RxJS, sync).
// - smoothStream:   ai@6 smoothStream({ delayInMs: null, chunking: 'word' }) as designed, fed
//                   text-delta parts through its TransformStream and read to the end (async);
//                   it has no min/max, so one number per size.
// - identity TransformStream: the same parts, same pull source, through a pass-through
//                   TransformStream: the Web Streams plumbing alone, to read the smoothStream row.
// Chunker rows: each run covers ~1 MB of text (smaller inputs are repeated as fresh streams);
// 2 warm-up rounds, then the median of 7, interleaved. smoothStream / identity rows: ~200 KB per
// run (the 1 MB input once), 1 warm-up run, then the median of 5: at ~13 µs per delta they were
// most of `npm run bench`'s time. Times are CPU time (user + system) of this process, as in the
// pipeline benchmark: on a shared machine wall time also counts waiting for a core.

import { smoothStream, type TextStreamPart, type ToolSet } from 'ai';
import { from } from 'rxjs';
import { createBlockChunker } from '../src/chunking/blockChunker';
import type { StreamEvent } from '../src/events';
import { bufferChunk } from '../src/operators/bufferChunk';
import { generateMarkdown, toDeltas } from './markdown';

const SIZES = [10_000, 100_000, 1_000_000];
const LIMITS = [
  { minChars: 800, maxChars: 1200 },
  { minChars: 3000, maxChars: 4000 },
];
const WARMUP = 2;
const RUNS = 7;
const TEXT_PER_RUN = 1_000_000;
const PEER_WARMUP = 1;
const PEER_RUNS = 5;
const STREAM_TEXT_PER_RUN = 200_000; // smoothStream is ~50× slower: keep the run time sane

type Limits = (typeof LIMITS)[number];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** CPU time of this process (user + system), in µs. */
function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/** Median µs per delta of the async `runOnce` (which handles `deltaCount` deltas per call). */
async function measure(deltaCount: number, repeats: number, runOnce: () => unknown) {
  const times: number[] = [];
  for (let run = 0; run < PEER_WARMUP + PEER_RUNS; run++) {
    globalThis.gc?.();
    const started = cpuMicros();
    for (let repeat = 0; repeat < repeats; repeat++) await runOnce();
    const elapsed = cpuMicros() - started;
    if (run >= PEER_WARMUP) times.push(elapsed / (deltaCount * repeats));
  }
  return median(times);
}

function chunkerRun(deltas: string[], limits: Limits, mode: 'stream' | 'end') {
  return () => {
    const chunker = createBlockChunker({ ...limits, mode });
    let longest = 0;
    for (const delta of deltas) {
      for (const block of chunker.append(delta)) longest = Math.max(longest, block.text.length);
    }
    for (const block of chunker.end('end')) longest = Math.max(longest, block.text.length);
    if (longest > limits.maxChars) throw new Error(`a block of ${longest} > ${limits.maxChars}`);
  };
}

function operatorRun(events: StreamEvent[], limits: Limits) {
  return () => {
    let blocks = 0;
    from(events)
      .pipe(bufferChunk(limits))
      .subscribe((event) => event.type === 'block' && blocks++);
    if (blocks === 0) throw new Error('bufferChunk made no block');
  };
}

async function throughTransform(
  parts: TextStreamPart<ToolSet>[],
  transform: TransformStream<TextStreamPart<ToolSet>, TextStreamPart<ToolSet>>,
) {
  // One part per pull, as a network source would: enqueueing them all up front makes Node's
  // stream queue, not the transform, the cost being measured.
  let next = 0;
  const readable = new ReadableStream<TextStreamPart<ToolSet>>({
    pull(controller) {
      if (next < parts.length) controller.enqueue(parts[next++]);
      else controller.close();
    },
  });
  const reader = readable.pipeThrough(transform).getReader();
  let chunks = 0;
  while (!(await reader.read()).done) chunks++;
  if (chunks === 0) throw new Error('nothing came out');
}

function format(value: number): string {
  return value.toFixed(3).padStart(9);
}

interface Case {
  key: string;
  deltaCount: number;
  repeats: number;
  runOnce: () => unknown;
  times: number[];
}

/**
 * Runs every case once per round, in a rotating order, so that a burst of load on this shared
 * machine spreads over all rows instead of landing on one; medians per case after warm-up.
 */
function measureInterleaved(cases: Case[], rounds: number): void {
  for (let round = 0; round < rounds; round++) {
    for (let offset = 0; offset < cases.length; offset++) {
      const entry = cases[(round + offset) % cases.length];
      globalThis.gc?.();
      const started = cpuMicros();
      for (let repeat = 0; repeat < entry.repeats; repeat++) entry.runOnce();
      const elapsed = cpuMicros() - started;
      if (round >= WARMUP) entry.times.push(elapsed / (entry.deltaCount * entry.repeats));
    }
  }
}

async function main() {
  console.log(
    `Node ${process.version}; CPU µs per delta. Chunker rows: median of ${RUNS} runs after ` +
      `${WARMUP} warm-up rounds, interleaved round by round; smoothStream / identity: median of ` +
      `${PEER_RUNS} runs after ${PEER_WARMUP} warm-up run.\n`,
  );
  const inputs = SIZES.map((size) => {
    const deltas = toDeltas(generateMarkdown(size));
    return { size, deltas, repeats: Math.max(1, Math.round(TEXT_PER_RUN / size)) };
  });
  const cases: Case[] = [];
  for (const { size, deltas, repeats } of inputs) {
    const events: StreamEvent[] = deltas.map((delta) => ({ type: 'text-delta', id: 't', delta }));
    for (const limits of LIMITS) {
      const add = (name: string, runOnce: () => unknown) =>
        cases.push({
          key: `${name}:${size}:${limits.maxChars}`,
          deltaCount: deltas.length,
          repeats,
          runOnce,
          times: [],
        });
      add('stream', chunkerRun(deltas, limits, 'stream'));
      add('end', chunkerRun(deltas, limits, 'end'));
      add('operator', operatorRun(events, limits));
    }
  }
  measureInterleaved(cases, WARMUP + RUNS);
  const results: Record<string, number> = {};
  for (const entry of cases) results[entry.key] = median(entry.times);

  console.log(
    '| size | min/max | deltas | chunker stream | chunker end | bufferChunk | smoothStream | identity TransformStream |',
  );
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const { size, deltas } of inputs) {
    const parts = deltas.map((delta): TextStreamPart<ToolSet> => ({
      type: 'text-delta',
      id: 't',
      text: delta,
    }));
    const streamRepeats = Math.max(1, Math.round(STREAM_TEXT_PER_RUN / size));
    const smooth = await measure(deltas.length, streamRepeats, () =>
      throughTransform(parts, smoothStream({ delayInMs: null, chunking: 'word' })({ tools: {} })),
    );
    const identity = await measure(deltas.length, streamRepeats, () =>
      throughTransform(parts, new TransformStream()),
    );
    for (const limits of LIMITS) {
      const at = (name: string) => format(results[`${name}:${size}:${limits.maxChars}`]);
      console.log(
        `| ${size / 1000} KB | ${limits.minChars}/${limits.maxChars} | ${deltas.length} |` +
          `${at('stream')} |${at('end')} |${at('operator')} |${format(smooth)} |${format(identity)} |`,
      );
    }
  }
  console.log('\nChecks: chunker stream and bufferChunk');
  for (const name of ['stream', 'operator']) {
    const at = (size: number, max: number) => results[`${name}:${size}:${max}`];
    const flat = Math.max(
      ...LIMITS.map(({ maxChars }) => at(1_000_000, maxChars) / at(10_000, maxChars)),
    );
    const byMax = Math.max(
      ...SIZES.map((size) => {
        const [a, b] = LIMITS.map(({ maxChars }) => at(size, maxChars));
        return Math.max(a, b) / Math.min(a, b);
      }),
    );
    const worst = Math.max(...LIMITS.map(({ maxChars }) => at(1_000_000, maxChars)));
    const verdict = (ok: boolean) => (ok ? 'ok' : 'NOT MET');
    console.log(
      `- ${name === 'stream' ? 'chunker' : 'bufferChunk'}: 1 MB / 10 KB = ${flat.toFixed(2)}× ` +
        `(${verdict(flat <= 1.5)}, ≤ 1.5×); 3000-4000 vs 800-1200 ≤ ${byMax.toFixed(2)}× ` +
        `(${verdict(byMax <= 1.5)}, ≤ 1.5×); at 1 MB ≤ ${worst.toFixed(3)} µs/delta ` +
        `(${name === 'stream' ? verdict(worst <= 0.5) + ', ≤ 0.5 µs' : 'no bar'})`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
