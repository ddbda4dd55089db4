// Streams a generated OpenAI chat body of N MB through streamEvents (optionally followed by the
// telegram channel stage) and measures memory: peak RSS, peak heap growth, and the heap still
// retained after a forced GC every 5 MiB of the stream (what a leak would make grow). The GC
// spacing is fixed, not a share of the stream, so a 25 MB and a 100 MB run sample alike.
// Needs `--expose-gc`. As a child process of memory.bench.ts:
//   node --expose-gc --import tsx bench/memoryProbe.ts <megabytes> <events|telegram>
// prints one JSON line (a MemoryReport).

import { channel } from '../src/channels/channel';
import { streamEvents } from '../src/streamEvents';
import { generatedChatStream, type ChatBodyStats } from './openaiChatBody';

/** How reports name the telegram pipeline. */
export const TELEGRAM_LABEL = "llm-rx streamEvents + channel('telegram')";

/** Which pipeline a probe streams through. */
export type ProbePipeline = 'events' | 'telegram';

/** What one probe measured; sizes in MB (10^6 bytes). */
export interface MemoryReport {
  megabytes: number;
  pipeline: string;
  /** Heap used after loading and a GC, before the stream. */
  baselineHeapMb: number;
  /** Highest heap used while streaming (garbage included), minus the baseline. */
  peakHeapGrowthMb: number;
  /** Highest heap used right after a forced GC, minus the baseline: live data only. */
  retainedHeapGrowthMb: number;
  /** Heap still used after the stream ended and a GC, minus the baseline. */
  finalHeapGrowthMb: number;
  /** Peak resident set size of the whole process (getrusage maxRSS). */
  peakRssMb: number;
  /** Peak RSS minus the RSS before the stream. */
  rssGrowthMb: number;
  events: number;
  /** Characters delivered; equals `generatedTextLength` when nothing was lost. */
  deliveredTextLength: number;
  generatedTextLength: number;
  seconds: number;
}

const MB = 1e6;
/** Memory is sampled as the input is read (output event counts differ per pipeline). */
const SAMPLE_EVERY_SLICES = 64;
const GC_EVERY_BYTES = 5 * 1024 * 1024;

/** Streams `megabytes` of generated SSE through the pipeline and measures memory on the way. */
export async function probeMemory(
  megabytes: number,
  pipeline: ProbePipeline,
): Promise<MemoryReport> {
  const gc = globalThis.gc;
  if (typeof gc !== 'function') throw new Error('Run with node --expose-gc.');
  const telegram = pipeline === 'telegram' ? channel('telegram') : undefined;

  const targetBytes = megabytes * 1024 * 1024;
  const stats: ChatBodyStats = { events: 0, bytes: 0, textLength: 0 };
  gc();
  const baselineHeap = process.memoryUsage().heapUsed;
  const baselineRss = process.memoryUsage.rss();
  let peakHeap = baselineHeap;
  let peakRss = baselineRss;
  let retainedHeap = baselineHeap;
  let nextCheckpoint = GC_EVERY_BYTES;
  let events = 0;
  let delivered = 0;

  const sample = () => {
    const usage = process.memoryUsage();
    peakHeap = Math.max(peakHeap, usage.heapUsed);
    peakRss = Math.max(peakRss, usage.rss);
    if (stats.bytes >= nextCheckpoint) {
      nextCheckpoint += GC_EVERY_BYTES;
      gc();
      retainedHeap = Math.max(retainedHeap, process.memoryUsage().heapUsed);
    }
  };

  const started = performance.now();
  let slices = 0;
  const onPull = () => {
    if (++slices % SAMPLE_EVERY_SLICES === 0) sample();
  };
  const source = streamEvents(generatedChatStream({ targetBytes, seed: 7 }, stats, onPull), {
    provider: 'openai-chat',
  });
  const events$ = telegram ? source.pipe(telegram) : source;
  await new Promise<void>((resolve, reject) => {
    events$.subscribe({
      next(event) {
        events++;
        if (event.type === 'text-delta') delivered += event.delta.length;
        else if (event.type === 'block') delivered += event.text.length;
        else if (event.type === 'failed') reject(new Error(`failed: ${event.error.message}`));
      },
      error: reject,
      complete: resolve,
    });
  });
  const seconds = (performance.now() - started) / 1000;
  sample();
  gc();
  const finalHeap = process.memoryUsage().heapUsed;

  return {
    megabytes,
    pipeline: telegram ? TELEGRAM_LABEL : 'llm-rx streamEvents',
    baselineHeapMb: baselineHeap / MB,
    peakHeapGrowthMb: (peakHeap - baselineHeap) / MB,
    retainedHeapGrowthMb: (retainedHeap - baselineHeap) / MB,
    finalHeapGrowthMb: (finalHeap - baselineHeap) / MB,
    peakRssMb: (process.resourceUsage().maxRSS * 1024) / MB,
    rssGrowthMb: (peakRss - baselineRss) / MB,
    events,
    deliveredTextLength: delivered,
    generatedTextLength: stats.textLength,
    seconds,
  };
}

if (require.main === module) {
  const megabytes = Number(process.argv[2] ?? 100);
  const pipeline = (process.argv[3] ?? 'events') as ProbePipeline;
  probeMemory(megabytes, pipeline).then(
    (report) => console.log(JSON.stringify(report)),
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
