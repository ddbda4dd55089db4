// The Redis event log under load: 200 concurrent streams × 3 followers on loopback,
// each stream one capture replayed fast (the repo's fixtures, or the real captures under
// LLMRX_CORPUS_DIR). One recording "node" and three following "nodes" (a client and a log
// each) in this process, so append and receipt share a clock. Then: how long followers take to
// learn that a SIGKILLed producer process is gone. Run: npm run bench:redis
// BENCH_STREAMS, BENCH_FOLLOWERS and BENCH_HEARTBEAT_MS override the sizes.

import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import { firstValueFrom, Observable, toArray } from 'rxjs';
import type { StreamEvent } from '../src/events';
import { redisEventLog } from '../src/redis';
import { followLog } from '../src/relay/log/followLog';
import { recordTo } from '../src/relay/log/recordTo';
import { streamEvents } from '../src/streamEvents';
import { loadCaptures } from '../spec/helpers/corpus';
import {
  clientList,
  connectClient,
  redisServerBinary,
  startRedisServer,
} from '../spec/helpers/redisServer';

const STREAMS = Number(process.env.BENCH_STREAMS ?? 200);
const FOLLOWERS = Number(process.env.BENCH_FOLLOWERS ?? 3);
const HEARTBEAT_MS = Number(process.env.BENCH_HEARTBEAT_MS ?? 500);
const BOUND_MS = 120_000;

/** The SSE captures to replay: real ones when LLMRX_CORPUS_DIR is set, else fixtures/**.sse. */
function captureBodies(): { source: string; bodies: string[] } {
  const real = loadCaptures();
  if (real.length > 0)
    return { source: `${real.length} real captures`, bodies: real.map((c) => c.sse) };
  const bodies: string[] = [];
  for (const folder of readdirSync('fixtures')) {
    if (!existsSync(join('fixtures', folder))) continue;
    for (const file of readdirSync(join('fixtures', folder)).filter((f) => f.endsWith('.sse')))
      bodies.push(readFileSync(join('fixtures', folder, file), 'utf8'));
  }
  return {
    source: `${bodies.length} fixtures (set LLMRX_CORPUS_DIR for the real captures)`,
    bodies,
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const nextTick = () => new Promise((resolve) => setImmediate(resolve));

async function load(url: string, streams: StreamEvent[][]) {
  const server = { url } as Parameters<typeof connectClient>[0];
  const observer = await connectClient(server);
  const baseline = (await clientList(observer)).length; // the observer itself
  const producerClient = await connectClient(server);
  const producerLog = redisEventLog({ client: producerClient, heartbeatMs: HEARTBEAT_MS });
  const nodes = await Promise.all(
    Array.from({ length: FOLLOWERS }, async () => {
      const client = await connectClient(server);
      return { client, log: redisEventLog({ client, heartbeatMs: HEARTBEAT_MS }) };
    }),
  );

  const appendedAt = streams.map(() => [] as number[]);
  const latencies: number[] = [];
  let peakConnections = 0;
  const runs = streams.map(async (events, s) => {
    const id = `bench-${s}`;
    let start: () => void = () => undefined;
    const subscribed = new Promise<void>((resolve) => (start = resolve));
    let emit: (event: StreamEvent) => void = () => undefined;
    let finish: () => void = () => undefined;
    const source = new Observable<StreamEvent>((subscriber) => {
      emit = (event) => subscriber.next(event);
      finish = () => subscriber.complete();
      start();
    });
    const recorded = firstValueFrom(source.pipe(recordTo(producerLog, id), toArray()));
    await subscribed;
    const followed = nodes.map(({ log }) => {
      const got: StreamEvent[] = [];
      return new Promise<StreamEvent[]>((resolve) =>
        followLog(log, id).subscribe({
          next: (event) => {
            latencies.push(performance.now() - appendedAt[s][got.length]);
            got.push(event);
          },
          complete: () => resolve(got),
        }),
      );
    });
    return {
      recorded,
      followed,
      emitAll: async () => {
        for (const event of events) {
          appendedAt[s].push(performance.now());
          emit(event);
          await nextTick(); // replayed fast: one event per turn of the event loop
        }
        finish();
      },
    };
  });
  const started = await Promise.all(runs);
  await new Promise((resolve) => setTimeout(resolve, 300)); // every follower joined
  const t0 = performance.now();
  const sampler = setInterval(() => {
    void clientList(observer).then((list) => {
      peakConnections = Math.max(peakConnections, list.length - baseline);
    });
  }, 50);
  await Promise.all(started.map((run) => run.emitAll()));
  const results = await Promise.all(
    started.map(async (run) => ({
      recorded: await run.recorded,
      followed: await Promise.all(run.followed),
    })),
  );
  const elapsedMs = performance.now() - t0;
  clearInterval(sampler);
  // Say where the first difference is, so a ✗ can be acted on.
  for (const [s, { recorded, followed }] of results.entries()) {
    const got = [recorded, ...followed];
    const who = got.findIndex((events) => !isDeepStrictEqual(events, streams[s]));
    if (who < 0) continue;
    const events = got[who];
    const at = events.findIndex((event, i) => !isDeepStrictEqual(event, streams[s][i]));
    const where = at < 0 ? events.length : at;
    console.error(
      `stream ${s}: ${who === 0 ? 'the recorder' : `follower ${who}`} differs at event ${where} ` +
        `of ${streams[s].length}: ${JSON.stringify(events[where])?.slice(0, 160)} ` +
        `instead of ${JSON.stringify(streams[s][where])?.slice(0, 160)}`,
    );
    break;
  }
  const exact = results.every(
    ({ recorded, followed }, s) =>
      isDeepStrictEqual(recorded, streams[s]) &&
      followed.every((got) => isDeepStrictEqual(got, recorded)),
  );
  for (const { log, client } of nodes) {
    await log.close();
    client.destroy();
  }
  await producerLog.close();
  producerClient.destroy();
  const after = (await clientList(observer)).length;
  observer.destroy();
  latencies.sort((a, b) => a - b);
  const appended = streams.reduce((sum, events) => sum + events.length, 0);
  return { appended, elapsedMs, latencies, exact, peakConnections, leftOver: after - baseline };
}

/** SIGKILLs a producer process mid-stream; ms until a follower here gets producer-lost. */
async function producerLostAfter(url: string): Promise<number> {
  const id = `lost-${Date.now()}`;
  const producer = spawn(
    process.execPath,
    ['--import', 'tsx', 'spec/redis/children/producer.ts', url, id, String(HEARTBEAT_MS)],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve) =>
    producer.stdout.on(
      'data',
      (chunk: Buffer) => chunk.toString().includes('ready 5') && resolve(),
    ),
  );
  const client = await connectClient({ url } as Parameters<typeof connectClient>[0]);
  const log = redisEventLog({ client, heartbeatMs: HEARTBEAT_MS });
  const events: StreamEvent[] = [];
  let killedAt = 0;
  const ended = new Promise<number>((resolve) =>
    followLog(log, id).subscribe({
      next: (event) => {
        events.push(event);
        if (events.length === 5) {
          killedAt = performance.now();
          producer.kill('SIGKILL');
        }
        if (event.type === 'failed') resolve(performance.now() - killedAt);
      },
    }),
  );
  const ms = await ended;
  const last = events.at(-1);
  if (events.length !== 6 || last?.type !== 'failed' || last.error.code !== 'producer-lost')
    throw new Error(`expected 5 events then producer-lost, got ${JSON.stringify(events)}`);
  await log.close();
  client.destroy();
  return ms;
}

async function main(): Promise<void> {
  if (!existsSync(redisServerBinary)) {
    console.log(`skipped: ${redisServerBinary} is missing (apt-get install redis-server)`);
    return;
  }
  const bound = setTimeout(() => {
    console.error(`bench:redis did not finish within ${BOUND_MS} ms`);
    process.exit(1);
  }, BOUND_MS);
  const server = await startRedisServer();
  try {
    const { source, bodies } = captureBodies();
    const decoded = await Promise.all(
      bodies.map((sse) => firstValueFrom(streamEvents(new Response(sse)).pipe(toArray()))),
    );
    const streams = Array.from({ length: STREAMS }, (_, s) => decoded[s % decoded.length]);
    const r = await load(server.url, streams);
    const lost = [];
    for (let i = 0; i < 3; i++) lost.push(await producerLostAfter(server.url));
    const deliveries = r.appended * FOLLOWERS;
    console.log(
      `\n## Redis event log: ${STREAMS} concurrent streams × ${FOLLOWERS} followers, loopback\n\n` +
        `Captures: ${source}; ${r.appended} events appended, ${deliveries} delivered; ` +
        `heartbeatMs ${HEARTBEAT_MS}; redis-server ${server.url}.\n\n` +
        `| measure | value |\n|---|---|\n` +
        `| appended events/s | ${Math.round(r.appended / (r.elapsedMs / 1000))} |\n` +
        `| delivered events/s (all followers) | ${Math.round(deliveries / (r.elapsedMs / 1000))} |\n` +
        `| append → follower latency p50 / p99 / max | ${percentile(r.latencies, 50).toFixed(1)} / ${percentile(r.latencies, 99).toFixed(1)} / ${r.latencies.at(-1)?.toFixed(1)} ms |\n` +
        `| Redis connections used (peak, the bench's observer aside) | ${r.peakConnections} (${1 + FOLLOWERS} user clients + ${FOLLOWERS} follow connections + 1 recorders' heartbeat connection) |\n` +
        `| connections left after close | ${r.leftOver} |\n` +
        `| every follower got exactly the producer's events | ${r.exact ? '✓' : '✗'} |\n` +
        `| producer SIGKILLed → followers get producer-lost (3 runs) | ${lost.map((ms) => ms.toFixed(0)).join(', ')} ms (bound: 3 × heartbeatMs = ${3 * HEARTBEAT_MS} ms) |\n`,
    );
    if (!r.exact || r.leftOver !== 0) process.exitCode = 1;
  } finally {
    await server.kill();
    clearTimeout(bound);
  }
}

void main();
