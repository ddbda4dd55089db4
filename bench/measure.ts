// Timing rounds and the printed table. Every contender runs once per round, in a rotating
// order (so machine drift spreads over all rows), after a forced GC when `--expose-gc` is on.
// A row's ratio is the median of its per-round ratios to the floor of the same round.
// The figures are CPU time (user + system of this process, GC threads included): the shared
// machines run other jobs, and wall time there counts the time spent waiting for a core.
// Every pipeline here is CPU-bound (the body is in memory), so on an idle machine CPU ≈ wall.

import type { Contender } from './contenders';

/** One measured row. */
export interface Row {
  name: string;
  /** Median CPU milliseconds per body, or undefined for rows that could not run. */
  medianMs?: number;
  /** Median wall-clock milliseconds per body. */
  medianWallMs?: number;
  /** Median of (this row / floor) over the rounds. */
  ratio?: number;
  /** Smallest and largest per-round ratio, to show the noise. */
  ratioRange?: [number, number];
  /** CPU milliseconds of each measured round, in round order (for paired ratios to any row). */
  roundMs?: number[];
  /** '✓' same text as the floor, '✗' different, or why the row did not run. */
  check: string;
}

/** Options of {@link measureRounds}. */
export interface MeasureOptions {
  /** Rounds run and discarded first (JIT warm-up; the verification run comes on top). */
  warmup: number;
  /** Rounds measured. */
  runs: number;
  /** Told after each round, so a long benchmark shows progress. */
  onRound?: (round: number, total: number) => void;
}

const collectGarbage: () => void =
  typeof globalThis.gc === 'function' ? () => globalThis.gc!() : () => undefined;

/**
 * Runs `contenders[0]` (the floor) and every other contender over fresh streams of the same
 * body. The first run of each checks its text; then `warmup` discarded rounds, then `runs`
 * measured rounds.
 */
export async function measureRounds(
  contenders: readonly Contender[],
  body: () => ReadableStream<Uint8Array>,
  expectedText: string,
  options: MeasureOptions,
): Promise<Row[]> {
  const checks = await verify(contenders, body, expectedText);
  const timings = contenders.map(() => [] as number[]);
  const wallTimings = contenders.map(() => [] as number[]);
  const total = options.warmup + options.runs;
  for (let round = 0; round < total; round++) {
    for (let offset = 0; offset < contenders.length; offset++) {
      const index = (round + offset) % contenders.length;
      collectGarbage();
      const started = performance.now();
      const cpuStarted = process.cpuUsage();
      await contenders[index].run(body);
      const cpu = process.cpuUsage(cpuStarted);
      const wall = performance.now() - started;
      if (round < options.warmup) continue;
      timings[index].push((cpu.user + cpu.system) / 1000);
      wallTimings[index].push(wall);
    }
    options.onRound?.(round + 1, total);
  }
  const floorTimes = timings[0];
  return contenders.map((contender, index) => {
    const ratios = timings[index].map((ms, round) => ms / floorTimes[round]);
    return {
      name: contender.name,
      medianMs: median(timings[index]),
      medianWallMs: median(wallTimings[index]),
      ratio: median(ratios),
      ratioRange: [Math.min(...ratios), Math.max(...ratios)],
      roundMs: timings[index],
      check: checks[index],
    };
  });
}

async function verify(
  contenders: readonly Contender[],
  body: () => ReadableStream<Uint8Array>,
  expectedText: string,
): Promise<string[]> {
  const floorText = await contenders[0].run(body);
  if (floorText !== expectedText) {
    throw new Error('The floor did not read back the generated text: the body generator is wrong.');
  }
  const checks = ['✓'];
  for (const contender of contenders.slice(1)) {
    const text = await contender.run(body);
    const same = contender.sameText ?? ((a: string, b: string) => a === b);
    checks.push(
      same(text, floorText) ? '✓' : `✗ text differs (${text.length} vs ${floorText.length} chars)`,
    );
  }
  return checks;
}

/** The median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** A markdown table of the rows; events/s and MB/s come from the median time. */
export function formatTable(rows: readonly Row[], events: number, bytes: number): string {
  const lines = [
    '| pipeline | CPU ms (median) | events/s | MB/s | × floor (median, range) | wall ms | same text |',
    '|---|---:|---:|---:|---:|---:|:---:|',
  ];
  for (const row of rows) {
    if (row.medianMs === undefined) {
      lines.push(`| ${row.name} | — | — | — | — | — | ${row.check} |`);
      continue;
    }
    const seconds = row.medianMs / 1000;
    const range = row.ratioRange
      ? ` (${row.ratioRange[0].toFixed(2)}–${row.ratioRange[1].toFixed(2)})`
      : '';
    lines.push(
      `| ${row.name} | ${row.medianMs.toFixed(1)} | ${formatCount(events / seconds)} | ` +
        `${(bytes / 1e6 / seconds).toFixed(1)} | ${row.ratio!.toFixed(2)}×${range} | ${row.medianWallMs!.toFixed(0)} | ${row.check} |`,
    );
  }
  return lines.join('\n');
}

function formatCount(perSecond: number): string {
  return perSecond >= 1e6
    ? `${(perSecond / 1e6).toFixed(2)} M`
    : `${(perSecond / 1e3).toFixed(0)} k`;
}
