// Relay overhead: what llm-rx's own SSE wire costs per event. The same OpenAI chat
// SSE body, in 1–4 KB slices:
//   baseline  streamEvents(body)                                   (decode once)
//   relay     streamEvents(body) → toSseStream → streamEvents(…, 'llm-rx')   (gateway + browser)
//   wire only an in-memory event array → toSseStream → streamEvents(…, 'llm-rx')
// Overhead per event = (relay − baseline) / events, from the medians of the same run.
// Alone: node --expose-gc --import tsx bench/relay.bench.ts   (BENCH_MB, BENCH_RUNS override)

import { from, lastValueFrom, toArray } from 'rxjs';
import type { StreamEvent } from '../src/events';
import { toSseStream } from '../src/relay/sse/toSseStream';
import { streamEvents } from '../src/streamEvents';
import { textOf, type Contender } from './contenders';
import { formatTable, measureRounds } from './measure';
import { buildChatBody, streamOfSlices } from './openaiChatBody';

const MEGABYTES = Number(process.env.BENCH_MB ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1);

async function main(): Promise<void> {
  const body = buildChatBody(MEGABYTES * 1024 * 1024);
  const { events, bytes } = body.stats;
  const decoded: StreamEvent[] = await lastValueFrom(
    streamEvents(streamOfSlices(body.slices), { provider: 'openai-chat' }).pipe(toArray()),
  );
  console.log(
    `\n## Relay: ${(bytes / 1e6).toFixed(1)} MB of OpenAI chat SSE, ${events} wire events → ` +
      `${decoded.length} llm-rx events; median of ${RUNS} runs after ${WARMUP} warm-up rounds` +
      (typeof globalThis.gc === 'function' ? ', GC forced before each run' : ''),
  );
  const baseline: Contender = {
    name: "baseline: streamEvents(body, { provider: 'openai-chat' })",
    run: (slices) => textOf(streamEvents(slices(), { provider: 'openai-chat' })),
  };
  const relay: Contender = {
    name: 'relay: streamEvents → toSseStream → streamEvents(llm-rx)',
    run: (slices) =>
      textOf(
        streamEvents(
          toSseStream(streamEvents(slices(), { provider: 'openai-chat' }), { heartbeatMs: 0 }),
          { provider: 'llm-rx' },
        ),
      ),
  };
  const wireOnly: Contender = {
    name: 'wire only: events[] → toSseStream → streamEvents(llm-rx)',
    run: () =>
      textOf(streamEvents(toSseStream(from(decoded), { heartbeatMs: 0 }), { provider: 'llm-rx' })),
  };
  const rows = await measureRounds(
    [baseline, relay, wireOnly],
    () => streamOfSlices(body.slices),
    body.text,
    { warmup: WARMUP, runs: RUNS, onRound: (r, t) => process.stderr.write(`  round ${r}/${t}\r`) },
  );
  process.stderr.write('\n');
  console.log(formatTable(rows, decoded.length, bytes).replace('× floor', '× baseline'));
  const perEvent = (ms: number) => ((ms * 1000) / decoded.length).toFixed(2);
  const [base, relayed, wire] = rows;
  console.log(
    `\nPer llm-rx event (CPU): baseline ${perEvent(base.medianMs!)} µs, relay ` +
      `${perEvent(relayed.medianMs!)} µs → overhead ${perEvent(relayed.medianMs! - base.medianMs!)} µs ` +
      `(${relayed.ratio!.toFixed(2)}× baseline); the wire alone ${perEvent(wire.medianMs!)} µs.`,
  );
  if (rows.some((row) => row.check !== '✓')) process.exitCode = 1;
}

void main();
