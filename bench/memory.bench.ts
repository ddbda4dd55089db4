// Memory: peak RSS and heap growth for 25 MB and 100 MB streams through
// streamEvents and through the telegram channel stage. Each probe runs in its own process so
// peak RSS belongs to that stream alone. Memory must not grow with the stream's length.
//   node --import tsx bench/memory.bench.ts

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { MemoryReport, ProbePipeline } from './memoryProbe';

const SIZES_MB = [25, 100];
const PIPELINES: ProbePipeline[] = ['events', 'telegram'];
/** How much more live heap the 100 MB stream may hold than the 25 MB one and still be "flat". */
const FLAT_TOLERANCE_MB = 5;

function runProbe(megabytes: number, pipeline: ProbePipeline): MemoryReport | string {
  const probe = join(__dirname, 'memoryProbe.ts');
  const child = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', probe, String(megabytes), pipeline],
    { encoding: 'utf8', cwd: join(__dirname, '..') },
  );
  if (child.status !== 0) {
    return `not available yet (${(child.stderr || 'no output').trim().split('\n')[0].slice(0, 140)})`;
  }
  return JSON.parse(child.stdout.trim().split('\n').pop()!) as MemoryReport;
}

function main(): void {
  console.log(
    '\n## Memory: generated OpenAI chat SSE streamed through llm-rx, one process per row',
  );
  const lines = [
    '| pipeline | stream | peak RSS | RSS growth | peak heap growth | retained heap growth (after GC) | heap after end | text kept |',
    '|---|---:|---:|---:|---:|---:|---:|:---:|',
  ];
  const verdicts: string[] = [];
  let failed = false;
  for (const pipeline of PIPELINES) {
    const reports: MemoryReport[] = [];
    for (const megabytes of SIZES_MB) {
      const report = runProbe(megabytes, pipeline);
      if (typeof report === 'string') {
        lines.push(
          `| ${pipeline === 'events' ? 'streamEvents' : "channel('telegram')"} | ${megabytes} MB | ${report} ||||||`,
        );
        continue;
      }
      reports.push(report);
      const textKept =
        pipeline === 'events'
          ? report.deliveredTextLength === report.generatedTextLength
            ? '✓'
            : '✗'
          : `${((report.deliveredTextLength / report.generatedTextLength) * 100).toFixed(1)}% (cuts drop whitespace)`;
      if (textKept === '✗') failed = true;
      lines.push(
        `| ${report.pipeline} | ${megabytes} MB (${report.events} events, ${report.seconds.toFixed(1)} s) | ` +
          `${mb(report.peakRssMb)} | ${mb(report.rssGrowthMb)} | ${mb(report.peakHeapGrowthMb)} | ` +
          `${mb(report.retainedHeapGrowthMb)} | ${mb(report.finalHeapGrowthMb)} | ${textKept} |`,
      );
    }
    if (reports.length === SIZES_MB.length) {
      const [small, large] = reports;
      const flat = large.retainedHeapGrowthMb <= small.retainedHeapGrowthMb + FLAT_TOLERANCE_MB;
      if (!flat) failed = true;
      verdicts.push(
        `- ${large.pipeline}: retained heap ${mb(small.retainedHeapGrowthMb)} at 25 MB vs ` +
          `${mb(large.retainedHeapGrowthMb)} at 100 MB → ${flat ? 'flat ✓' : 'GROWS ✗'}`,
      );
    }
  }
  console.log(lines.join('\n'));
  console.log(`\nDoes memory grow with the stream's length? (tolerance ${FLAT_TOLERANCE_MB} MB)`);
  console.log(verdicts.join('\n') || '- no pipeline could run yet');
  if (failed) process.exitCode = 1;
}

function mb(value: number): string {
  return `${value.toFixed(1)} MB`;
}

main();
