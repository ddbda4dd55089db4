// `llm-rx replay --speed 0` must be linear in the capture size: generated OpenAI chat
// captures of 1 MB and 8 MB, each replayed in a fresh child process (`--json`, output counted
// and dropped), CPU time and peak heap per size, for channel('web') and channel('telegram').
// Exit 1 when 8 MB takes more than 12× the CPU time of 1 MB. Run by `npm run bench`; alone:
//   node --import tsx bench/replay.bench.ts            (REPLAY_SIZES=1,8 in MB, REPLAY_RUNS=3)
// The child: node --expose-gc --import tsx bench/replay.bench.ts --child <capture> <channel>

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './measure';
import { chatBodySlices } from './openaiChatBody';

const SIZES = (process.env.REPLAY_SIZES ?? '1,8').split(',').map(Number);
const RUNS = Number(process.env.REPLAY_RUNS ?? 3);
const CHANNELS = ['web', 'telegram'];
const BOUND = 12;

interface ChildResult {
  cpuMs: number;
  peakHeapMb: number;
  /** Heap live after a GC, largest of the samples (every 4096 output lines and at the end). */
  retainedHeapMb: number;
  /** The capture file's size: the CLI reads it whole, so it is part of what is retained. */
  captureMb: number;
  lines: number;
}

/** In the child: one replay, timed, with the heap sampled between output lines. */
async function child(capture: string, channelName: string): Promise<void> {
  const { runCli } = await import('../src/cli/run');
  let lines = 0;
  let peakHeap = 0;
  let retained = 0;
  let gcMicros = 0;
  const sample = (collect: boolean) => {
    const used = process.memoryUsage().heapUsed;
    if (used > peakHeap) peakHeap = used;
    if (!collect || !globalThis.gc) return;
    const started = process.cpuUsage();
    globalThis.gc();
    const spent = process.cpuUsage(started);
    gcMicros += spent.user + spent.system; // not counted in the replay's time
    retained = Math.max(retained, process.memoryUsage().heapUsed);
  };
  const output = {
    write: () => {
      ++lines;
      if (lines % 512 === 0) sample(lines % 4096 === 0);
    },
    color: false,
    interactive: false,
    columns: 100,
  };
  globalThis.gc?.();
  const baseline = process.memoryUsage().heapUsed;
  const started = process.cpuUsage();
  const code = await runCli(
    ['replay', capture, '--channel', channelName, '--speed', '0', '--json'],
    output,
    { ...output, write: (text: string) => process.stderr.write(text) },
  );
  const used = process.cpuUsage(started);
  sample(true);
  if (code !== 0) process.exit(code);
  const result: ChildResult = {
    cpuMs: (used.user + used.system - gcMicros) / 1000,
    peakHeapMb: (peakHeap - baseline) / 1e6,
    retainedHeapMb: (retained - baseline) / 1e6,
    captureMb: statSync(capture).size / 1e6,
    lines,
  };
  process.stdout.write(JSON.stringify(result));
}

function writeCapture(directory: string, megabytes: number): string {
  const path = join(directory, `openai-chat-${megabytes}mb.sse`);
  const slices = [...chatBodySlices({ targetBytes: megabytes * 1024 * 1024 })];
  writeFileSync(path, Buffer.concat(slices));
  return path;
}

function runChild(capture: string, channelName: string): ChildResult {
  const run = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', __filename, '--child', capture, channelName],
    { encoding: 'utf8', cwd: join(__dirname, '..'), maxBuffer: 1 << 20 },
  );
  if (run.status !== 0) throw new Error(`replay child failed: ${run.stderr || run.status}`);
  return JSON.parse(run.stdout) as ChildResult;
}

function main(): void {
  const directory = mkdtempSync(join(tmpdir(), 'llmrx-replay-'));
  try {
    const captures = SIZES.map((megabytes) => ({
      megabytes,
      path: writeCapture(directory, megabytes),
    }));
    console.log(
      `\n## Replay --speed 0 --json: generated OpenAI chat captures of ${SIZES.join(' and ')} MB, ` +
        `median of ${RUNS} runs, each in a fresh process`,
    );
    console.log(
      '| channel | capture | CPU ms (median, range) | × smallest | output lines | peak heap growth | retained heap growth (after GC, max) |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    let failed = false;
    for (const channelName of CHANNELS) {
      let smallest: number | undefined;
      for (const { megabytes, path } of captures) {
        const results = Array.from({ length: RUNS }, () => runChild(path, channelName));
        const cpu = results.map((result) => result.cpuMs);
        const cpuMs = median(cpu);
        smallest ??= cpuMs;
        const ratio = cpuMs / smallest;
        const sizeRatio = megabytes / captures[0].megabytes;
        if (ratio > (BOUND * sizeRatio) / 8) failed = true;
        const mb = (pick: (result: ChildResult) => number) =>
          `${median(results.map(pick)).toFixed(1)} MB`;
        console.log(
          `| ${channelName} | ${megabytes} MB | ${cpuMs.toFixed(0)} (${Math.min(...cpu).toFixed(0)}–${Math.max(...cpu).toFixed(0)}) | ` +
            `${ratio.toFixed(2)}× | ${results[0].lines} | ${mb((result) => result.peakHeapMb)} | ` +
            `${mb((result) => result.retainedHeapMb)} |`,
        );
      }
    }
    console.log(
      `\nBound: ${captures.at(-1)!.megabytes} MB ≤ ${BOUND}× the time of ${captures[0].megabytes} MB (8× the size).`,
    );
    if (failed) {
      console.error('MISSED: replay is not linear in the capture size.');
      process.exitCode = 1;
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') {
  child(process.argv[3], process.argv[4]).catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else {
  main();
}
