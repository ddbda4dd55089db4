// The side-by-side benchmark: the same ~20 MB of OpenAI chat SSE, in 1–4 KB slices,
// through the floor, llm-rx, and the peers. Run by `npm run bench`; alone:
//   node --expose-gc --import tsx bench/pipeline.bench.ts
// BENCH_MB, BENCH_RUNS and BENCH_WARMUP override the body size and round counts; BENCH_PEERS=0
// leaves out the AI SDK and openai-node rows (a quicker run of the llm-rx rows alone).

import { channel } from '../src/channels/channel';
import { channelNames } from '../src/channels/presets';
import { streamEvents } from '../src/streamEvents';
import {
  aiSdkDoStream,
  aiSdkStreamText,
  floor,
  llmRxStreamEvents,
  llmRxWithChannel,
  openaiNode,
  type Contender,
} from './contenders';
import { formatTable, measureRounds, median, type Row } from './measure';
import { buildChatBody, streamOfSlices } from './openaiChatBody';

const MEGABYTES = Number(process.env.BENCH_MB ?? 20);
// 5 runs + 1 warm-up round (the checking run is a warm-up too) keep `npm run bench` short.
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1);
const PEERS = process.env.BENCH_PEERS !== '0';

async function main(): Promise<void> {
  const body = buildChatBody(MEGABYTES * 1024 * 1024);
  const { events, bytes } = body.stats;
  console.log(
    `\n## Pipeline: ${(bytes / 1e6).toFixed(1)} MB of OpenAI chat SSE, ${events} events ` +
      `(${(bytes / events).toFixed(0)} B/event), ${body.slices.length} slices of 1–4 KB; ` +
      `median of ${RUNS} runs after ${WARMUP} warm-up rounds` +
      (typeof globalThis.gc === 'function' ? ', GC forced before each run' : ''),
  );

  const contenders: Contender[] = [floor];
  contenders.push(llmRxStreamEvents(streamEvents));
  // Every preset, `web` (no chunking) included, each beside streamEvents alone.
  for (const name of channelNames) {
    const label = `llm-rx streamEvents + channel('${name}')`;
    contenders.push(llmRxWithChannel(streamEvents, label, channel(name)));
  }
  if (PEERS) contenders.push(aiSdkDoStream, aiSdkStreamText, openaiNode);

  const rows = await measureRounds(contenders, () => streamOfSlices(body.slices), body.text, {
    warmup: WARMUP,
    runs: RUNS,
    onRound: (round, total) => process.stderr.write(`  round ${round}/${total}\r`),
  });
  process.stderr.write('\n');
  console.log(formatTable(rows, events, bytes));
  console.log(targetsSummary(rows));
  if (rows.some((row) => row.check !== '✓')) {
    console.error('A row did not produce the same text as the floor.');
    process.exitCode = 1;
  }
}

/** The targets, each as met / missed with the measured ratio. */
function targetsSummary(rows: readonly Row[]): string {
  const ratioOf = (prefix: string) => rows.find((row) => row.name.startsWith(prefix))?.ratio;
  const llmRx = ratioOf('llm-rx streamEvents');
  if (llmRx === undefined) return '\nTargets: llm-rx not available yet.';
  const lines = ['', 'Targets (ratios of this run):'];
  const check = (met: boolean, text: string) => lines.push(`- ${met ? 'met ' : 'MISSED'} ${text}`);
  check(
    llmRx <= 1.5,
    `streamEvents ≤ 1.5× floor: ${llmRx.toFixed(2)}× (stretch 1.3×: ${llmRx <= 1.3 ? 'met' : 'missed'})`,
  );
  const doStream = ratioOf('AI SDK openai-compatible doStream');
  if (doStream !== undefined) {
    check(
      doStream / llmRx >= 5,
      `≥ 5× faster than AI SDK doStream: ${(doStream / llmRx).toFixed(2)}×`,
    );
  }
  const openai = ratioOf('openai-node');
  if (openai !== undefined) {
    check(openai / llmRx >= 3, `≥ 3× faster than openai-node: ${(openai / llmRx).toFixed(2)}×`);
  }
  check(llmRx <= 1.1, `streamEvents ≤ 1.1× floor: ${llmRx.toFixed(2)}×`);
  // channel(name) over streamEvents alone: the ratio of their median CPU times (same body, same
  // rounds). Beside it, the same ratio paired: per round, over streamEvents in that round (both
  // ran back to back, so machine drift cancels), the median and range of those ratios.
  const streamEvents = rows.find((row) => row.name.startsWith('llm-rx streamEvents('));
  for (const row of rows) {
    const name = /channel\('(\w+)'\)/.exec(row.name)?.[1];
    if (name === undefined || row.medianMs === undefined || !streamEvents?.medianMs) continue;
    const overStreamEvents = row.medianMs / streamEvents.medianMs;
    const paired = row.roundMs!.map((ms, round) => ms / streamEvents.roundMs![round]);
    // The verdict reads the paired median (the ratio of medians swings more between runs).
    check(
      median(paired) <= 1.1,
      `channel('${name}') ≤ 1.1× streamEvents (paired per round): ${median(paired).toFixed(2)}×, ` +
        `${Math.min(...paired).toFixed(2)}–${Math.max(...paired).toFixed(2)} ` +
        `(ratio of medians ${overStreamEvents.toFixed(2)}×)`,
    );
  }
  return lines.join('\n');
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
