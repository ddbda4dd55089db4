// `npm run bench:gateway`: what a gateway pays per conversation at the pace models stream.
//   LLMRX_CORPUS_DIR=../shared/fixtures/real npm run bench:gateway
// The paths, each for a bounded ladder of N concurrent conversations (GATEWAY_N=10,50,…):
//   bot (llm-rx live / blocks): streamEvents → channel('telegram', { live }) →
//                  toMessageEdits(render) → deliver(createTelegramBot(…).transport(chat))
//   bot (Chat SDK): the same decoded text → @chat-adapter/telegram's stream (post + edit)
//   bot (grammY stream): the same decoded text → @grammyjs/stream's streamMessage (drafts)
// The fake Bot API enforces 1 call/s per chat and 30 calls/s per token strictly.
//   web (llm-rx):  streamEvents → recordTo(redisEventLog) → followLog (a second client and log)
//                  → toSseResponse → an HTTP client
// The model provider, the fake Bot API and the web clients run in a child process (world.ts),
// so the CPU measured here (process.cpuUsage around a run ÷ deltas) is the gateway's; lags are
// timed there, send and visibility on one clock. Then a paced Redis load (pacedRedis.ts).
// Loopback only; exit 1 when llm-rx loses a reply, a run passes its time bound, or the Redis
// followers differ. Also: GATEWAY_PATHS=floor,bot-live,bot,chat-sdk,grammy,web,redis (a subset),
// GATEWAY_PACE_MS (25), GATEWAY_TIMEOUT_S (900), GATEWAY_DEBUG=1 (the messages of a reply not
// whole, on stderr), GATEWAY_ARRIVALS=burst,steady (how a run's conversations start, world.ts:
// burst = all N at once; steady = one every reply-length / N, N in flight; the bot paths run
// both, the floor and the web path burst only).

import { execSync, fork } from 'node:child_process';
import { join } from 'node:path';
import { redisEventLog } from '../../src/redis';
import { connectClient, findRedisServer, startRedisServer } from '../../spec/helpers/redisServer';
import { reportPacedRedis } from './pacedRedis';
import {
  runChatSdk,
  runGrammyStream,
  runLlmRxBot,
  runReadFloor,
  WebNode,
  type RunTarget,
} from './paths';
import { loadReplies } from './replies';
import { quantile } from './visibility';
import type { Arrival, RunResult, WorldAnswer, WorldRequest } from './world';

const LADDER = (process.env.GATEWAY_N ?? '10,50,100,200,400').split(',').map(Number);
const PACE_MS = Number(process.env.GATEWAY_PACE_MS ?? 25); // 40 deltas per second per stream
const LAG_BOUND_MS = 100;
const RUN_TIMEOUT_MS = 90_000;
const TOTAL_TIMEOUT_MS = Number(process.env.GATEWAY_TIMEOUT_S ?? 900) * 1000;
const PACED = { streams: 500, eventsPerSecond: 20, seconds: 10 };
const TOKEN = '123456:bench-token';
const WARMUP_N = 5;
const PATH_KEYS: Record<string, string> = {
  'read floor': 'floor',
  'bot llm-rx live': 'bot-live',
  'bot llm-rx blocks': 'bot',
  'bot Chat SDK': 'chat-sdk',
  'bot grammY stream': 'grammy',
  'web llm-rx': 'web',
};
const ONLY = process.env.GATEWAY_PATHS?.split(',');
const ARRIVALS = (process.env.GATEWAY_ARRIVALS ?? 'burst,steady').split(',') as Array<
  Arrival['kind']
>;
let idleUsPerSecond = 0;

const load = () =>
  execSync('uptime')
    .toString()
    .trim()
    .replace(/^.*load average: /, 'load ');

interface Row {
  path: string;
  arrival: Arrival['kind'];
  n: number;
  result: RunResult;
  cpuUsPerDelta: number;
  netUsPerDelta: number;
  wallS: number;
  failures: string[];
  load: string;
}

async function main() {
  const deadline = setTimeout(() => {
    console.error(`bench:gateway: past ${TOTAL_TIMEOUT_MS / 1000} s, stopping.`);
    process.exit(1);
  }, TOTAL_TIMEOUT_MS);
  deadline.unref();
  const { source, replies } = await loadReplies();
  const chars = replies.reduce((sum, r) => sum + r.text.length, 0);
  const deltas = replies.reduce((sum, r) => sum + r.deltas.length, 0);
  console.log(`replies: ${replies.length} from ${source}`);
  console.log(
    `  ${chars} characters in ${deltas} deltas (${(chars / deltas).toFixed(1)} per delta), ` +
      `${1000 / PACE_MS} deltas/s per stream; stream i carries reply i mod ${replies.length}`,
  );
  console.log(
    `start: ${new Date().toISOString()}, ${load()}, ${execSync('nproc').toString().trim()} cores`,
  );

  const world = fork(join(__dirname, 'world.ts'), { execArgv: ['--import', 'tsx'] });
  const ask = <T extends WorldAnswer['type']>(request: WorldRequest, answer: T) =>
    new Promise<Extract<WorldAnswer, { type: T }>>((resolve) => {
      const onMessage = (message: WorldAnswer) => {
        if (message.type !== answer) return;
        world.off('message', onMessage);
        resolve(message as Extract<WorldAnswer, { type: T }>);
      };
      world.on('message', onMessage);
      world.send(request);
    });
  const { providerBase } = await ask(
    { type: 'setup', replies, paceMs: PACE_MS, startDelayMs: 300, token: TOKEN },
    'ready',
  );

  const redisBinary = findRedisServer();
  const redis = redisBinary ? await startRedisServer() : undefined;
  if (!redis)
    console.log(
      'redis-server not found: the web path and paced Redis are skipped (install redis-server).',
    );
  const recorderClient = redis && (await connectClient(redis));
  const followerClient = redis && (await connectClient(redis));
  const recorderLog = recorderClient && redisEventLog({ client: recorderClient });
  const followerLog = followerClient && redisEventLog({ client: followerClient });
  const web = followerLog && new WebNode(followerLog);
  const webBase = web && (await web.listen());

  // What this process burns doing nothing (its clients, servers and timers idle), so that a
  // row's CPU can be read net of it.
  global.gc?.();
  const idleCpu = process.cpuUsage();
  const idleStarted = performance.now();
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const idleUsed = process.cpuUsage(idleCpu);
  idleUsPerSecond = ((idleUsed.user + idleUsed.system) / (performance.now() - idleStarted)) * 1000;
  console.log(`idle CPU of the gateway process: ${(idleUsPerSecond / 1e4).toFixed(2)}% of a core`);

  const rows: Row[] = [];
  let run = 0;
  let failed = false;
  const paths = [
    { path: 'read floor', bot: true },
    { path: 'bot llm-rx live', bot: true },
    { path: 'bot llm-rx blocks', bot: true },
    { path: 'bot Chat SDK', bot: true },
    { path: 'bot grammY stream', bot: true },
    ...(web ? [{ path: 'web llm-rx', bot: false }] : []),
  ].filter(({ path }) => !ONLY || ONLY.includes(PATH_KEYS[path]));
  // A steady run's conversations arrive one every (a reply's length) / N.
  const spreadMs = (deltas / replies.length) * PACE_MS;
  const runs = paths.flatMap(({ path, bot }) =>
    (bot && path !== 'read floor' ? ARRIVALS : ['burst' as const]).map((kind, index) => ({
      path,
      bot,
      // The first run of a path (discarded) loads and compiles its code.
      warm: index === 0,
      arrival: (kind === 'steady' ? { kind, spreadMs } : { kind }) as Arrival,
    })),
  );
  for (const { path, bot, warm, arrival } of runs) {
    const sizes = warm ? [WARMUP_N, ...LADDER] : LADDER;
    for (let step = 0; step < sizes.length; step++) {
      const n = sizes[step];
      const warmup = warm && step === 0;
      run++;
      // steady: 2N streams, the last N measured (world.ts).
      const streams = arrival.kind === 'steady' ? 2 * n : n;
      const target: RunTarget = { providerBase, run, n: streams };
      const { botApiBase } = await ask(
        { type: 'run', run, n: streams, webBase: bot ? undefined : webBase, arrival },
        'running',
      );
      const rowLoad = load();
      global.gc?.();
      const cpu = process.cpuUsage();
      const started = performance.now();
      const work =
        path === 'read floor'
          ? runReadFloor(target)
          : path === 'bot llm-rx live' || path === 'bot llm-rx blocks'
            ? runLlmRxBot(target, botApiBase, TOKEN, path === 'bot llm-rx live')
            : path === 'bot Chat SDK'
              ? runChatSdk(target, botApiBase, TOKEN)
              : path === 'bot grammY stream'
                ? runGrammyStream(target, botApiBase, TOKEN)
                : web!.run(target, recorderLog!);
      let timer: NodeJS.Timeout | undefined;
      const failures = await Promise.race([
        work,
        new Promise<string[]>((resolve) => {
          timer = setTimeout(
            () => resolve([`timed out after ${RUN_TIMEOUT_MS / 1000} s`]),
            RUN_TIMEOUT_MS,
          );
        }),
      ]);
      clearTimeout(timer);
      const used = process.cpuUsage(cpu);
      const wallS = (performance.now() - started) / 1000;
      await new Promise((resolve) => setTimeout(resolve, 200)); // the last answers reach the world
      const { result } = await ask({ type: 'result', run }, 'result');
      const cpuUs = used.user + used.system;
      const row = {
        path,
        arrival: arrival.kind,
        n,
        result,
        cpuUsPerDelta: cpuUs / result.deltas,
        netUsPerDelta: (cpuUs - idleUsPerSecond * wallS) / result.deltas,
        wallS,
        failures,
        load: rowLoad,
      };
      if (warmup) {
        console.log(`(warm-up) ${formatRow(row)}`);
        continue;
      }
      rows.push(row);
      console.log(formatRow(row));
      if (path === 'read floor') continue; // nothing is shown: no lag, no ladder bound
      if (path.startsWith('bot llm-rx') && result.whole < result.replies) failed = true;
      if (failures.some((f) => f.startsWith('timed out'))) failed = true;
      // The ladder stops once the gateway no longer keeps up (a bigger N only queues more). Bot
      // paths are paced by Telegram (1 call/s per chat; their lag is not the gateway's): an
      // llm-rx path stops at a reply not whole or a failure; a peer that loses replies (the
      // Chat SDK to 429s) runs every N, so that each N has its row to compare with. The web
      // path stops at a median update lag past the bound, a reply not whole, or a failure.
      if (bot) {
        if (path.startsWith('bot llm-rx') && (result.whole < result.replies || failures.length > 0))
          break;
        continue;
      }
      const keptUp =
        quantile(result.updateLags, 0.5) < LAG_BOUND_MS && result.whole === result.replies;
      if (!keptUp || failures.length > 0) break;
    }
  }
  world.send({ type: 'stop' } satisfies WorldRequest);

  console.log('\n## Gateway paths\n');
  console.log(table(rows));
  console.log('\nLargest N with p99 update lag under 100 ms:');
  for (const { path } of paths.filter(({ path }) => path !== 'read floor')) {
    const ok = rows.filter(
      (r) =>
        r.path === path &&
        quantile(r.result.updateLags, 0.99) < LAG_BOUND_MS &&
        r.failures.length === 0,
    );
    const passed = ok.length ? Math.max(...ok.map((r) => r.n)) : 'none';
    const top = Math.max(...rows.filter((r) => r.path === path).map((r) => r.n));
    console.log(
      `- ${path}: ${passed}${passed === top && top === LADDER[LADDER.length - 1] ? ' (the top of the ladder)' : ''}`,
    );
  }

  if (recorderLog && followerLog && (!ONLY || ONLY.includes('redis'))) {
    const exact = await reportPacedRedis(recorderClient!, recorderLog, followerLog, PACED, load);
    if (!exact) failed = true;
  }

  await web?.close();
  await recorderLog?.close();
  await followerLog?.close();
  recorderClient?.destroy();
  followerClient?.destroy();
  await redis?.kill();
  await new Promise<void>((resolve) =>
    world.connected ? world.once('exit', () => resolve()) : resolve(),
  );
  console.log(`\nend: ${new Date().toISOString()}, ${load()}`);
  if (failed) {
    console.error(
      'bench:gateway: llm-rx lost a reply, a run timed out, or Redis followers differ.',
    );
    process.exitCode = 1;
  }
}

const ms = (value: number) =>
  Number.isNaN(value) ? '—' : value < 10 ? value.toFixed(1) : value.toFixed(0);

function formatRow(row: Row): string {
  const { result } = row;
  const d = result.deltaLags;
  const u = result.updateLags;
  const whole =
    row.path === 'read floor'
      ? '—'
      : `${result.whole}/${result.replies}${result.notWhole ? ` (not: ${result.notWhole})` : ''}`;
  const api =
    row.path !== 'read floor' && result.botApi
      ? ` | ${result.botApi.rateLimited} | ${(result.botApi.requests / result.streams).toFixed(1)}`
      : ' | — | —';
  const f = result.firstVisible;
  return (
    `| ${row.path} | ${row.arrival} | ${row.n} | ${ms(quantile(f, 0.5))} / ${ms(quantile(f, 0.99))} | ${row.cpuUsPerDelta.toFixed(1)} | ${row.netUsPerDelta.toFixed(1)} | ${ms(quantile(d, 0.5))} / ${ms(quantile(d, 0.99))} | ` +
    `${ms(quantile(u, 0.5))} / ${ms(quantile(u, 0.99))} | ${whole} ` +
    `${api} | ${row.wallS.toFixed(1)} | ${row.load}${row.failures.length ? ` | ${row.failures.length} failures: ${row.failures[0]}` : ''} |`
  );
}

function table(rows: readonly Row[]): string {
  return [
    '| path | arrival | N | first visible text p50 / p99 ms | CPU µs per delta | net of idle | delta lag p50 / p99 ms | update lag p50 / p99 ms | replies whole | 429s | calls per reply | wall s | uptime |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map(formatRow),
  ].join('\n');
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
