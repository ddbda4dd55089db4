// Soak: 100 MB through streamEvents + channel('telegram'), failing when the heap grows past a
// fixed bound.
//   npm run soak        (SOAK_MB overrides the size)

import { probeMemory, TELEGRAM_LABEL } from './memoryProbe';

/** Live heap (after a forced GC) and peak heap may grow this much over the baseline, no more. */
const HEAP_GROWTH_BOUND_MB = 50;
const MEGABYTES = Number(process.env.SOAK_MB ?? 100);

async function main(): Promise<void> {
  console.log(`Soak: ${MEGABYTES} MB of OpenAI chat SSE through ${TELEGRAM_LABEL}`);
  const report = await probeMemory(MEGABYTES, 'telegram');
  console.log(
    [
      `events: ${report.events} in ${report.seconds.toFixed(1)} s`,
      `text delivered: ${report.deliveredTextLength} of ${report.generatedTextLength} characters (cuts drop whitespace)`,
      `heap baseline: ${report.baselineHeapMb.toFixed(1)} MB`,
      `peak heap growth: ${report.peakHeapGrowthMb.toFixed(1)} MB`,
      `retained heap growth (after a GC every 5 MiB, max): ${report.retainedHeapGrowthMb.toFixed(1)} MB`,
      `heap growth after the end: ${report.finalHeapGrowthMb.toFixed(1)} MB`,
      `peak RSS: ${report.peakRssMb.toFixed(1)} MB (growth ${report.rssGrowthMb.toFixed(1)} MB)`,
    ].join('\n'),
  );
  const worst = Math.max(report.peakHeapGrowthMb, report.retainedHeapGrowthMb);
  if (worst > HEAP_GROWTH_BOUND_MB) {
    console.error(
      `FAIL: heap grew ${worst.toFixed(1)} MB, over the ${HEAP_GROWTH_BOUND_MB} MB bound.`,
    );
    process.exitCode = 1;
    return;
  }
  // Text may shrink only by the whitespace dropped at block cuts, never by more than a few %.
  if (report.deliveredTextLength < report.generatedTextLength * 0.95) {
    console.error('FAIL: the pipeline lost text.');
    process.exitCode = 1;
    return;
  }
  console.log(`PASS: heap growth ${worst.toFixed(1)} MB ≤ ${HEAP_GROWTH_BOUND_MB} MB bound.`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
