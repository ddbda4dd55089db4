// What each operator of channel('telegram') adds to streamEvents: every stage alone after
// streamEvents, bufferChunk with and without its idle timer, and the whole channel, measured
// in the same interleaved CPU-time rounds as the pipeline benchmark. Not part of `npm run bench`.
//   node --expose-gc --import tsx bench/channelBreakdown.ts

import type { OperatorFunction } from 'rxjs';
import type { StreamEvent } from '../src/events';
import { INTERIM_CHAIN, loadTelegramStage } from './channelStage';
import {
  floor,
  llmRxStreamEvents,
  llmRxWithChannel,
  loadStreamEvents,
  type Contender,
} from './contenders';
import { formatTable, measureRounds } from './measure';
import { buildChatBody, streamOfSlices } from './openaiChatBody';

type Stage = OperatorFunction<StreamEvent, StreamEvent>;

async function main(): Promise<void> {
  const streamEvents = await loadStreamEvents();
  if (typeof streamEvents === 'string') throw new Error(streamEvents);
  const body = buildChatBody(Number(process.env.BENCH_MB ?? 20) * 1024 * 1024);
  const contenders: Contender[] = [floor, llmRxStreamEvents(streamEvents)];
  const stageOf = async (name: string, options: Record<string, unknown>): Promise<Stage> => {
    const module: Record<string, unknown> = await import(`../src/operators/${name}`);
    return (module[name] as (options: Record<string, unknown>) => Stage)(options);
  };
  for (const { name, options } of INTERIM_CHAIN) {
    const label = `+ ${name}(${JSON.stringify(options)})`;
    contenders.push(llmRxWithChannel(streamEvents, label, await stageOf(name, options)));
  }
  const withoutIdle = { minChars: 800, maxChars: 4096 };
  contenders.push(
    llmRxWithChannel(
      streamEvents,
      `+ bufferChunk(${JSON.stringify(withoutIdle)})`,
      await stageOf('bufferChunk', withoutIdle),
    ),
  );
  const telegram = await loadTelegramStage();
  if (telegram.stage)
    contenders.push(llmRxWithChannel(streamEvents, telegram.label, telegram.stage));

  const rows = await measureRounds(contenders, () => streamOfSlices(body.slices), body.text, {
    warmup: 2,
    runs: Number(process.env.BENCH_RUNS ?? 7),
  });
  console.log(formatTable(rows, body.stats.events, body.stats.bytes));
  const base = rows[1].ratio!;
  console.log('\nAdded over streamEvents (ratio / streamEvents ratio - 1):');
  for (const row of rows.slice(2))
    console.log(`  ${((row.ratio! / base - 1) * 100).toFixed(0).padStart(4)}%  ${row.name}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
