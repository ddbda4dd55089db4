// Partial JSON of streaming tool input: llm-rx's incremental parser beside partial-json's
// `parse` and the AI SDK's `parsePartialJson`, which re-parse the whole buffer on every delta.
// Run alone: `npx tsx bench/partialJson.bench.ts` (`npm run bench` runs it too); `ONLY=llm-rx`
// keeps the rows whose name starts so (the peers take about a minute).
//
// Input: a tool call's arguments as a model writes a file edit: a path, a long `content`
// string (with escapes and non-ASCII), and an `edits` array of small objects, about half the
// bytes each; generated deterministically to 128 KB and 1 MB, cut into 1- and 16-character
// deltas before timing. Every row feeds every delta and asks for the value after each one (the
// peers have no other way; llm-rx's parser keeps its state and `value()` is asked only when it
// changed, as partialToolInput does before pacing). Each row's last value must equal
// JSON.parse of the input, or the benchmark exits 1.
// The peers are quadratic (each delta re-reads everything so far): they are measured on
// smaller inputs, growing until one run passes PEER_BUDGET_MS, and the table says which sizes.
// Times are CPU ms (user + system) for a whole input: llm-rx rows the median of RUNS after
// WARMUP runs, peer rows one run each (their runs take seconds).

import { parse as partialJsonParse } from 'partial-json';
import { parsePartialJson } from 'ai';
import { isDeepStrictEqual } from 'node:util';
import { createPartialJsonParser } from '../src/json/partialJson';

const RUNS = 7;
const WARMUP = 5; // the parser's loop takes a few runs to reach the optimising tier
const PEER_BUDGET_MS = 4000;
const KB = 1024;

/** Deterministic arguments of about `bytes` bytes. */
function generateArguments(bytes: number): string {
  const words = ['alpha', 'beta', 'gamma', 'délta', 'epsilon', '"quoted"', 'tab\tbed', 'line\n'];
  const edits: Array<{ line: number; text: string; replace: boolean }> = [];
  let content = '';
  let seed = 41;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  while (content.length < bytes / 2) content += words[next() % words.length] + ' ';
  let size = content.length;
  for (let line = 1; size < bytes; line++) {
    const text = Array.from({ length: 3 + (next() % 6) }, () => words[next() % words.length]).join(
      ' ',
    );
    edits.push({ line, text, replace: next() % 2 === 0 });
    size += text.length + 40;
  }
  return JSON.stringify({ path: 'src/generated/file.ts', content, edits, dryRun: false });
}

function cut(text: string, size: number): string[] {
  const deltas: string[] = [];
  for (let i = 0; i < text.length; i += size) deltas.push(text.slice(i, i + size));
  return deltas;
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

type Row = (deltas: string[]) => Promise<unknown> | unknown;

/** llm-rx's parser fed every delta, asked for a view after every `viewEvery`-th changing one. */
function llmRx(viewEvery: number): Row {
  return (deltas) => {
    const parser = createPartialJsonParser();
    let value: unknown;
    let changes = 0;
    for (const delta of deltas) {
      parser.push(delta);
      if (parser.changed && ++changes % viewEvery === 0) value = parser.value();
    }
    parser.finish();
    return parser.changed ? parser.value() : value;
  };
}

const contenders: Record<string, Row> = {
  'llm-rx, last view only': llmRx(Infinity),
  'llm-rx, a view per 100 changes': llmRx(100),
  'llm-rx, a view per change': llmRx(1),
  'partial-json parse': (deltas) => {
    let buffer = '';
    let value: unknown;
    for (const delta of deltas) {
      buffer += delta;
      try {
        value = partialJsonParse(buffer);
      } catch {
        // an incomplete token partial-json will not show yet
      }
    }
    return value;
  },
  'ai parsePartialJson': async (deltas) => {
    let buffer = '';
    let value: unknown;
    for (const delta of deltas) {
      buffer += delta;
      value = (await parsePartialJson(buffer)).value;
    }
    return value;
  },
};

async function timeRow(row: Row, deltas: string[], expected: unknown, runs: number) {
  const times: number[] = [];
  const warmup = runs > 1 ? WARMUP : 0;
  for (let run = 0; run < warmup + runs; run++) {
    globalThis.gc?.();
    const started = cpuMs();
    const value = await row(deltas);
    const elapsed = cpuMs() - started;
    if (!isDeepStrictEqual(value, expected))
      throw new Error('the last value is not JSON.parse of the input');
    if (run >= warmup) times.push(elapsed);
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1]!;
}

async function main(): Promise<void> {
  const results: Array<{ name: string; size: number; delta: number; ms: number }> = [];
  for (const delta of [1, 16]) {
    for (const [name, row] of Object.entries(contenders).filter(
      ([n]) => !process.env.ONLY || n.startsWith(process.env.ONLY),
    )) {
      const isPeer = !name.startsWith('llm-rx');
      const sizes = isPeer
        ? [4 * KB, 8 * KB, 16 * KB, 32 * KB, 64 * KB, 128 * KB]
        : [128 * KB, 1024 * KB];
      for (const size of sizes) {
        const input = generateArguments(size);
        const ms = await timeRow(row, cut(input, delta), JSON.parse(input), isPeer ? 1 : RUNS);
        results.push({ name, size, delta, ms });
        console.log(
          `${name.padEnd(30)} ${`${size / KB} KB`.padStart(8)} ${`${delta}-char deltas`.padStart(16)} ${ms.toFixed(1).padStart(10)} ms`,
        );
        if (isPeer && ms > PEER_BUDGET_MS) break;
      }
    }
  }
  const ours = (size: number, delta: number) =>
    results.find((r) => r.name.startsWith('llm-rx') && r.size === size && r.delta === delta)!.ms;
  const small = ours(128 * KB, 1);
  const ratio = ours(1024 * KB, 1) / small;
  console.log(
    `\n128 KB in 1-character deltas: ${small.toFixed(1)} ms (target ≤ 50 ms) ${small <= 50 ? '✓' : '✗'}`,
  );
  console.log(
    `1 MB ÷ 128 KB (1-character deltas): ${ratio.toFixed(1)}× (target ≤ 10×) ${ratio <= 10 ? '✓' : '✗'}`,
  );
  console.log(
    `1 MB ÷ 128 KB (16-character deltas): ${(ours(1024 * KB, 16) / ours(128 * KB, 16)).toFixed(1)}×`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
