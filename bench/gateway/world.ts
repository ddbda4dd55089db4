// The gateway bench's world, in a process of its own so that its CPU is not the gateway's: the
// model provider (an SSE server streaming each reply at model pace), the fake Telegram Bot API
// (spec/helpers/telegram/fakeBotApi.ts) and the browsers of the web path (SSE clients). It times what
// the user sees, with its own clock on both ends (send and visibility).
// Driven over IPC by bench/gateway/main.ts.

import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createParser } from 'eventsource-parser';
import { startFakeBotApi, type FakeBotApi } from '../../spec/helpers/telegram/fakeBotApi';
import { CLOSING, contentChunk, OPENING, type Reply } from './replies';
import { lettersOf, ReplyTrace } from './visibility';

/** What main.ts asks. */
export type WorldRequest =
  | { type: 'setup'; replies: Reply[]; paceMs: number; startDelayMs: number; token: string }
  | { type: 'run'; run: number; n: number; webBase?: string; arrival: Arrival }
  | { type: 'result'; run: number }
  | { type: 'stop' };

/**
 * How a run's conversations start. `burst`: all N within one pace interval (the worst case: N
 * first messages at once). `steady`: 2N conversations, one every `spreadMs / N` (a reply's
 * length over N), so that once the first have ended about N are in flight at any time; only
 * the last N (started while N were in flight) are measured.
 */
export type Arrival = { kind: 'burst' } | { kind: 'steady'; spreadMs: number };

/** What the world answers. */
export type WorldAnswer =
  | { type: 'ready'; providerBase: string }
  | { type: 'running'; run: number; botApiBase: string }
  | { type: 'result'; run: number; result: RunResult };

/** One run, as the users saw it. */
export interface RunResult {
  /** the replies measured (steady: the last half of the streams) */
  replies: number;
  /** every stream of the run (calls per reply count them all) */
  streams: number;
  whole: number;
  /** the first reply that was not whole: its name and how far it was visible */
  notWhole?: string;
  deltaLags: number[];
  updateLags: number[];
  /** per reply: from its first delta's send to the first of its text on screen (ms) */
  firstVisible: number[];
  deltas: number;
  botApi?: { requests: number; rateLimited: number; notModified: number };
}

let replies: Reply[] = [];
let paceMs = 25;
let startDelayMs = 300;
let token = '';
let runN = 0;
let arrival: Arrival = { kind: 'burst' };
let traces: ReplyTrace[] = [];
let fake: FakeBotApi | undefined;
let currentRun = -1;
let runStartedAt = 0;
const timers = new Set<NodeJS.Timeout>();
const now = () => performance.timeOrigin + performance.now();

/** Stream `i` of a run carries reply `i % replies.length`. */
const replyOf = (i: number) => replies[i % replies.length];

const provider = createServer((req, res) => {
  const match = /^\/s\/(\d+)\/(\d+)$/.exec(req.url ?? '');
  if (!match || Number(match[1]) !== currentRun) {
    res.writeHead(404).end();
    return;
  }
  const i = Number(match[2]);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
  res.write(OPENING);
  stream(res, i);
});

function stream(res: ServerResponse, i: number): void {
  const { deltas } = replyOf(i);
  const trace = traces[i];
  // burst: streams start spread over one pace interval, so the load is even; steady: one every
  // spreadMs / N (runN is 2N streams then).
  const gap = arrival.kind === 'burst' ? paceMs / Math.max(1, runN) : (2 * arrival.spreadMs) / runN;
  const first = (arrival.kind === 'burst' ? now() : runStartedAt) + startDelayMs + i * gap;
  let k = 0;
  const tick = () => {
    timers.delete(timer);
    if (res.destroyed) return;
    // Catch up after a late timer (a loaded machine), as a model's tokens queue in its server.
    while (k < deltas.length && now() >= first + k * paceMs) {
      res.write(contentChunk(deltas[k]));
      trace.sentAt[k] = now();
      k++;
    }
    if (k === deltas.length) {
      res.end(CLOSING);
      return;
    }
    timer = setTimeout(tick, Math.max(0, first + k * paceMs - now()));
    timers.add(timer);
  };
  let timer = setTimeout(tick, Math.max(0, first - now()));
  timers.add(timer);
}

/** The fake Bot API of one run: chat `1000 + i` is stream i's user. */
async function startBotApi(): Promise<FakeBotApi> {
  const shown = new Map<string, Map<number, string>>();
  return startFakeBotApi({
    token,
    // Telegram: "avoid sending more than one message per second" in one chat, and about 30
    // messages a second per bot: both enforced strictly (429 with retry_after past them).
    minIntervalMs: 1000,
    tokenMaxCalls: 30,
    tokenWindowMs: 1000,
    maxRequests: 1_000_000,
    // Clients reuse connections to api.telegram.org; a 1 s idle timeout (the specs' fake)
    // would make a client that calls about once a second per chat reconnect for most calls.
    keepAliveTimeoutMs: 60_000,
    onShown: (chat, message) => {
      const i = Number(chat) - 1000;
      const trace = traces[i];
      if (!trace) return;
      const messages = shown.get(chat) ?? new Map<number, string>();
      shown.set(chat, messages);
      messages.set(message.id, lettersOf(message.text));
      let letters = '';
      for (const id of [...messages.keys()].sort((a, b) => a - b)) letters += messages.get(id);
      trace.show(now(), letters);
    },
  });
}

/** The browsers of the web path: one SSE client per stream, reading llm-rx's wire. */
function follow(webBase: string, run: number, i: number): void {
  const trace = traces[i];
  let text = '';
  const parser = createParser({
    onEvent: ({ data }) => {
      const event = JSON.parse(data) as { type: string; delta?: string };
      if (event.type !== 'text-delta') return;
      text += event.delta;
      trace.show(now(), lettersOf(text));
    },
  });
  void (async () => {
    const response = await fetch(`${webBase}/s/${run}/${i}`);
    const decoder = new TextDecoder();
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      parser.feed(decoder.decode(chunk, { stream: true }));
    }
  })().catch((error: unknown) => console.error(`web client ${i}: ${String(error)}`));
}

function result(): RunResult {
  const deltaLags: number[] = [];
  const updateLags: number[] = [];
  const firstVisible: number[] = [];
  let whole = 0;
  let notWhole: string | undefined;
  let deltas = 0;
  // steady: the first half ramps up; the second half started with about N in flight.
  const measuredFrom = arrival.kind === 'steady' ? traces.length / 2 : 0;
  traces.forEach((trace, i) => {
    deltas += trace.sentAt.length; // CPU per delta: every stream's
    if (i < measuredFrom) return;
    const lags = trace.lags();
    deltaLags.push(...lags.delta);
    updateLags.push(...lags.update);
    if (trace.shown.length > 0 && trace.sentAt[0] !== undefined) {
      firstVisible.push(trace.shown[0][0] - trace.sentAt[0]);
    }
    if (trace.whole) whole++;
    else
      notWhole ??= `${replyOf(i).name} (stream ${i}: ${trace.shown.at(-1)?.[1] ?? 0} of ${trace.letters.length} letters)`;
  });
  if (process.env.GATEWAY_DEBUG && fake) {
    for (const [chat, messages] of fake.chats) {
      if (traces[Number(chat) - 1000]?.whole) continue;
      console.error(
        `chat ${chat}:`,
        JSON.stringify(
          messages.map((m) => m.history.map((h) => h.slice(0, 60) + '…' + h.slice(-60))),
        ),
      );
      break;
    }
  }
  const counts = fake?.counts;
  return {
    replies: traces.length - measuredFrom,
    streams: traces.length,
    whole,
    notWhole,
    deltaLags,
    updateLags,
    firstVisible,
    deltas,
    botApi: counts && {
      requests: counts.requests,
      rateLimited: counts.rateLimited,
      notModified: counts.notModified,
    },
  };
}

const send = (answer: WorldAnswer) => process.send!(answer);

process.on('message', (request: WorldRequest) => {
  void (async () => {
    if (request.type === 'setup') {
      ({ replies, paceMs, startDelayMs, token } = request);
      await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
      const { port } = provider.address() as AddressInfo;
      send({ type: 'ready', providerBase: `http://127.0.0.1:${port}` });
    } else if (request.type === 'run') {
      await fake?.close();
      fake = undefined;
      currentRun = request.run;
      runN = request.n;
      arrival = request.arrival;
      runStartedAt = now();
      traces = Array.from({ length: request.n }, (_, i) => new ReplyTrace(replyOf(i).deltas));
      let botApiBase = '';
      if (request.webBase) {
        for (let i = 0; i < request.n; i++) follow(request.webBase, request.run, i);
      } else {
        fake = await startBotApi();
        botApiBase = fake.apiBase;
      }
      send({ type: 'running', run: request.run, botApiBase });
    } else if (request.type === 'result') {
      send({ type: 'result', run: request.run, result: result() });
    } else {
      for (const timer of timers) clearTimeout(timer);
      await fake?.close();
      provider.closeAllConnections();
      provider.close();
      process.disconnect();
    }
  })();
});
