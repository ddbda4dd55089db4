// channel(name) of this tree against the same channel of another checkout, in one process and in
// interleaved, paired rounds: the only before/after comparison that survives a noisy machine.
// Not part of `npm run bench`.
//   git worktree add ../before <rev> && ln -s "$PWD/node_modules" ../before/node_modules
//   LLMRX_BEFORE=../before node --import tsx bench/channelBeforeAfter.ts
// MODE=situ (default: after streamEvents over the generated body) or alone (over its events
// decoded once); CH (default telegram), MB (default 5), RUNS (default 30); GC=1 with
// node --expose-gc forces a full GC before every run, as `npm run bench` does.
import { resolve } from 'node:path';
import { channel as channelAfter } from '../src/channels/channel';
import { streamEvents } from '../src/streamEvents';
import { textOf } from './contenders';
import { decodedEvents, replay } from './channelAlone';
import { buildChatBody, streamOfSlices } from './openaiChatBody';
import { median } from './measure';
async function main() {
  const before = process.env.LLMRX_BEFORE;
  if (!before) {
    console.log('LLMRX_BEFORE is not set: point it at another checkout to compare with.');
    return;
  }
  const channelBefore: typeof channelAfter = (await import(resolve(before, 'src/channels/channel')))
    .channel;
  const name = (process.env.CH ?? 'telegram') as 'telegram';
  const mode = process.env.MODE ?? 'situ';
  // GC=1 (with --expose-gc): a full GC before every run, as `npm run bench` does.
  const forceGc = process.env.GC === '1' && typeof globalThis.gc === 'function';
  const body = buildChatBody(Number(process.env.MB ?? 5) * 1024 * 1024);
  const events = mode === 'alone' ? await decodedEvents(Number(process.env.MB ?? 5)) : [];
  const variants = { before: channelBefore(name), after: channelAfter(name) };
  const run = (stage: ReturnType<typeof channelAfter>) =>
    mode === 'alone'
      ? textOf(replay(events).pipe(stage))
      : textOf(streamEvents(streamOfSlices(body.slices), { provider: 'openai-chat' }).pipe(stage));
  const base = () => textOf(streamEvents(streamOfSlices(body.slices), { provider: 'openai-chat' }));
  const cpu = async (f: () => Promise<string>) => {
    if (forceGc) globalThis.gc!();
    const t = process.cpuUsage();
    await f();
    const u = process.cpuUsage(t);
    return (u.user + u.system) / 1000;
  };
  const r: Record<string, number[]> = { before: [], after: [], ratio: [], events: [] };
  const rounds = Number(process.env.RUNS ?? 30);
  for (let i = 0; i < rounds + 4; i++) {
    const order = i % 2 ? ['before', 'after'] : ['after', 'before'];
    const t: Record<string, number> = {};
    for (const v of order) t[v] = await cpu(() => run(variants[v as 'before' | 'after']));
    const e = mode === 'alone' ? 1 : await cpu(base);
    if (i < 4) continue;
    r.before.push(t.before);
    r.after.push(t.after);
    r.ratio.push(t.after / t.before);
    r.events.push(e);
  }
  const ev = median(r.events);
  console.log(
    `${mode} ${name}: before ${median(r.before).toFixed(1)} ms, after ${median(r.after).toFixed(1)} ms, after/before paired median ${median(r.ratio).toFixed(3)}` +
      (mode === 'alone'
        ? ''
        : `; streamEvents alone ${ev.toFixed(1)} ms → channel ÷ streamEvents before ${(median(r.before) / ev).toFixed(3)}, after ${(median(r.after) / ev).toFixed(3)}`),
  );
}
main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
