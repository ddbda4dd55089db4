// Where the time goes: runs one pipeline over the benchmark body under V8's CPU profiler and
// prints self time by function (and by file), excluding the warm-up runs. Not part of `npm run bench`.
//   node --import tsx bench/profile.ts [events|telegram|floor|alone|<channel name>] [runs]
// `alone`: channel('telegram') over the body's events decoded once (no decoding in the profile).
// The raw profile is written to .bench-out/<pipeline>.cpuprofile (open it in Chrome DevTools).

import { mkdirSync, writeFileSync } from 'node:fs';
import { Session, type Profiler } from 'node:inspector';
import { join, relative } from 'node:path';
import { loadTelegramStage } from './channelStage';
import {
  floor,
  llmRxStreamEvents,
  llmRxWithChannel,
  loadStreamEvents,
  textOf,
  type Contender,
} from './contenders';
import { buildChatBody, streamOfSlices } from './openaiChatBody';
import { channel } from '../src/channels/channel';
import { isChannelName } from '../src/channels/presets';
import { decodedEvents, replay } from './channelAlone';

const TOP = 25;

async function pickContender(pipeline: string): Promise<Contender> {
  if (pipeline === 'floor') return floor;
  if (pipeline === 'alone') {
    const events = await decodedEvents(20);
    const telegram = channel('telegram');
    return {
      name: "channel('telegram') over decoded events",
      run: () => textOf(replay(events).pipe(telegram)),
    };
  }
  const streamEvents = await loadStreamEvents();
  if (typeof streamEvents === 'string') throw new Error(streamEvents);
  if (pipeline === 'events') return llmRxStreamEvents(streamEvents);
  if (pipeline !== 'telegram' && isChannelName(pipeline)) {
    return llmRxWithChannel(
      streamEvents,
      `streamEvents + channel('${pipeline}')`,
      channel(pipeline),
    );
  }
  const telegram = await loadTelegramStage();
  if (!telegram.stage) throw new Error(telegram.label);
  return llmRxWithChannel(streamEvents, telegram.label, telegram.stage);
}

function post<T>(session: Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) =>
    session.post(method, params ?? {}, (error, result) =>
      error ? reject(error) : resolve(result as T),
    ),
  );
}

/** Self time (ms) per function and per file, from the profile's samples. */
function summarize(profile: Profiler.Profile): void {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfByNode = new Map<number, number>();
  const deltas = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, index) => {
    selfByNode.set(id, (selfByNode.get(id) ?? 0) + (deltas[index] ?? 0) / 1000);
  });
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  let total = 0;
  for (const [id, ms] of selfByNode) {
    const frame = nodes.get(id)!.callFrame;
    const file = frame.url ? relative(process.cwd(), frame.url.replace('file://', '')) : '(native)';
    // Function and file only: under tsx the line numbers are those of the transformed code.
    const name = `${frame.functionName || '(anonymous)'}  ${file}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
    byFile.set(file, (byFile.get(file) ?? 0) + ms);
    total += ms;
  }
  const print = (title: string, entries: Map<string, number>) => {
    console.log(`\n${title} (self time, ${total.toFixed(0)} ms sampled)`);
    for (const [name, ms] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
      console.log(
        `${((ms / total) * 100).toFixed(1).padStart(5)}%  ${ms.toFixed(0).padStart(6)} ms  ${name}`,
      );
    }
  };
  print('By function', byFunction);
  print('By file', byFile);
}

async function main(): Promise<void> {
  const pipeline = process.argv[2] ?? 'events';
  const runs = Number(process.argv[3] ?? 5);
  const contender = await pickContender(pipeline);
  const body = buildChatBody(20 * 1024 * 1024);
  const stream = () => streamOfSlices(body.slices);
  for (let warmup = 0; warmup < 2; warmup++) await contender.run(stream);

  const session = new Session();
  session.connect();
  await post(session, 'Profiler.enable');
  await post(session, 'Profiler.setSamplingInterval', { interval: 100 });
  await post(session, 'Profiler.start');
  for (let run = 0; run < runs; run++) await contender.run(stream);
  const { profile } = await post<{ profile: Profiler.Profile }>(session, 'Profiler.stop');
  session.disconnect();

  const outDir = join(__dirname, '..', '.bench-out');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, `${pipeline}.cpuprofile`), JSON.stringify(profile));
  console.log(`${contender.name}: ${runs} runs profiled`);
  summarize(profile);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
