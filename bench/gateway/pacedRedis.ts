// Paced Redis latency: `streams` recordings at `eventsPerSecond` each, appended through one
// redisEventLog (the recording node) and followed through another (a second client and log: the
// serving node), in one process so append and receipt share a clock.

import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Observable, Subscriber, lastValueFrom } from 'rxjs';
import type { StreamEvent } from '../../src/events';
import type { EventLog } from '../../src/relay/log/eventLog';
import { followLog } from '../../src/relay/log/followLog';
import { recordTo } from '../../src/relay/log/recordTo';
import { quantile } from './visibility';

/** What one paced run measured. */
export interface PacedResult {
  streams: number;
  eventsPerSecond: number;
  seconds: number;
  appended: number;
  received: number;
  latencies: number[];
  cpuUsPerEvent: number;
  /** this process's event loop delay while the load ran: p99 and max, ms */
  loopDelayP99: number;
  loopDelayMax: number;
  /** latency p99 per second of the run (ms), to show whether it is steady or spikes */
  p99BySecond: number[];
  exact: boolean;
  /** the first thing that went wrong, if any: a recording's or a follower's failure */
  problem?: string;
}

/** Runs the paced load for `seconds`, then ends every stream with a terminal. */
export async function pacedRedis(
  recorder: EventLog,
  follower: EventLog,
  options: { streams: number; eventsPerSecond: number; seconds: number; tag: string },
): Promise<PacedResult> {
  const { streams, eventsPerSecond, seconds, tag } = options;
  const intervalMs = 1000 / eventsPerSecond;
  const emitters: Array<Subscriber<StreamEvent>> = [];
  const appendedAt: number[][] = [];
  const latencies: number[] = [];
  let received = 0;
  let exact = true;
  const recordings: Array<Promise<unknown>> = [];
  let startedAt = Infinity;
  let problem: string | undefined;
  const bySecond: number[][] = [];
  const follows: Array<Promise<unknown>> = [];
  for (let s = 0; s < streams; s++) {
    const id = `paced-${tag}-${s}`;
    appendedAt.push([]);
    let ready!: () => void;
    const subscribed = new Promise<void>((resolve) => (ready = resolve));
    const source = new Observable<StreamEvent>((subscriber) => {
      emitters[s] = subscriber;
      ready();
    });
    recordings.push(
      lastValueFrom(source.pipe(recordTo(recorder, id))).then((last) => {
        if (last.type === 'failed')
          problem ??= `recording ${s}: ${last.error.code} ${last.error.message}`;
      }),
    );
    await subscribed;
    let seen = 0;
    follows.push(
      new Promise<void>((resolve) =>
        followLog(follower, id).subscribe({
          next: (event) => {
            const at = appendedAt[s][seen];
            if (event.type === 'text-delta' && event.delta !== `${seen}`) exact = false;
            if (at !== undefined && event.type === 'text-delta') {
              const received = performance.now();
              latencies.push(received - at);
              (bySecond[Math.floor((at - startedAt) / 1000)] ??= []).push(received - at);
            }
            seen++;
            received++;
          },
          complete: resolve,
          error: (error: unknown) => {
            exact = false;
            problem ??= `follower ${s}: ${String(error)}`;
            resolve();
          },
        }),
      ),
    );
  }
  await new Promise((resolve) => setTimeout(resolve, 300)); // every follower has joined
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const cpu = process.cpuUsage();
  const started = performance.now();
  startedAt = started;
  let appended = 0;
  // One ticker; stream s is due at started + phase(s) + k × interval.
  await new Promise<void>((resolve) => {
    const next = new Array<number>(streams).fill(0);
    const tick = () => {
      const now = performance.now() - started;
      let running = false;
      for (let s = 0; s < streams; s++) {
        const phase = (s * intervalMs) / streams;
        while (
          next[s] * intervalMs + phase <= now &&
          (next[s] + 1) * intervalMs <= seconds * 1000
        ) {
          appendedAt[s].push(performance.now());
          emitters[s].next({ type: 'text-delta', id: 't', delta: `${next[s]}` });
          next[s]++;
          appended++;
        }
        if ((next[s] + 1) * intervalMs <= seconds * 1000) running = true;
      }
      if (running) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  for (const emitter of emitters) {
    emitter.next({ type: 'completed', finishReason: 'stop' });
    emitter.complete();
  }
  await Promise.all(recordings);
  await Promise.all(follows);
  const used = process.cpuUsage(cpu);
  loop.disable();
  const p99 = (values: number[]) =>
    [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.99) - 1];
  return {
    loopDelayP99: loop.percentile(99) / 1e6,
    loopDelayMax: loop.max / 1e6,
    p99BySecond: bySecond.filter(Boolean).map(p99),
    streams,
    eventsPerSecond,
    seconds,
    appended,
    received,
    latencies,
    cpuUsPerEvent: (used.user + used.system) / appended,
    exact: exact && received === appended + streams,
    problem,
  };
}

/** Runs {@link pacedRedis} and prints its table, with what Redis and this process spent. */
export async function reportPacedRedis(
  client: { sendCommand(args: string[]): Promise<unknown> },
  recorderLog: EventLog,
  followerLog: EventLog,
  shape: { streams: number; eventsPerSecond: number; seconds: number },
  load: () => string,
): Promise<boolean> {
  console.log(
    `\n## Paced Redis: ${shape.streams} streams × ${shape.eventsPerSecond} events/s, ${shape.seconds} s, two logs (${load()})\n`,
  );
  const redisCpu = async () => {
    const info = String(await client.sendCommand(['INFO', 'cpu']));
    const read = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? NaN);
    return read('used_cpu_user') + read('used_cpu_sys');
  };
  const commandStats = async () => {
    const info = String(await client.sendCommand(['INFO', 'commandstats']));
    const stats = new Map<string, { calls: number; usec: number }>();
    for (const [, name, calls, usec] of info.matchAll(/cmdstat_(\w+):calls=(\d+),usec=(\d+)/g)) {
      stats.set(name, { calls: Number(calls), usec: Number(usec) });
    }
    return stats;
  };
  const statsBefore = await commandStats();
  const redisBefore = await redisCpu();
  const paced = await pacedRedis(recorderLog, followerLog, { ...shape, tag: String(Date.now()) });
  const redisSeconds = (await redisCpu()) - redisBefore;
  const statsAfter = await commandStats();
  const busiest = [...statsAfter]
    .map(([name, { calls, usec }]) => ({
      name,
      calls: calls - (statsBefore.get(name)?.calls ?? 0),
      usec: usec - (statsBefore.get(name)?.usec ?? 0),
    }))
    .filter((stat) => stat.calls > 0)
    .sort((a, b) => b.usec - a.usec)
    .slice(0, 4);
  const p = (q: number) => quantile(paced.latencies, q).toFixed(1);
  console.log(
    '| appended | received | append → follower p50 / p99 / max | CPU µs per event (both nodes) | exact |',
  );
  console.log('|---:|---:|---:|---:|:---:|');
  console.log(
    `| ${paced.appended} | ${paced.received} | ${p(0.5)} / ${p(0.99)} / ${p(1)} ms | ${paced.cpuUsPerEvent.toFixed(1)} | ${paced.exact ? '✓' : '✗'} |`,
  );
  console.log(
    `event loop delay of this process p99 / max: ${paced.loopDelayP99.toFixed(1)} / ${paced.loopDelayMax.toFixed(1)} ms; ` +
      `redis-server CPU: ${((redisSeconds * 1e6) / paced.appended).toFixed(1)} µs per event (${((redisSeconds / shape.seconds) * 100).toFixed(0)}% of a core)`,
  );
  console.log(
    `redis commands (calls, µs each): ${busiest.map((c) => `${c.name} ${c.calls} × ${(c.usec / c.calls).toFixed(1)}`).join(', ')}`,
  );
  console.log(
    `latency p99 per second of the run (ms): ${paced.p99BySecond.map((v) => v.toFixed(0)).join(' ')}`,
  );
  console.log(
    `(${load()} at the end; target p99 ≤ 20 ms: ${Number(p(0.99)) <= 20 ? 'met' : 'missed'})`,
  );
  if (paced.problem) console.log(`first problem: ${paced.problem}`);
  return paced.exact;
}
