import type { ChildProcess } from 'node:child_process';
import { createClient } from 'redis';
import { ReplaySubject } from 'rxjs';
import type { StreamEvent } from '../../src/events';
import { redisEventLog, redisLedger } from '../../src/redis';
import { recordTo } from '../../src/relay/log/recordTo';
import { startFakeDiscordApi } from '../helpers/discord/fakeDiscordApi';
import { describeRedis } from '../helpers/redisServer';
import { startFakeSlackApi } from '../helpers/slack/fakeSlackApi';
import { startFakeBotApi } from '../helpers/telegram/fakeBotApi';
import { startBotProcess } from './children/botProcess';

// One chat message the platform holds in several messages (Slack: streams rotated at 1,500
// bytes; Telegram: parts of 4096; Discord: parts of 2000). A bot process delivers the first half
// of the reply, is SIGKILLed, and a new process with the same ledger delivers it from the start:
// every part once, the whole text, nothing repeated.

const token = '31337:PARTS-RESTART-SECRET';
const children: ChildProcess[] = [];
const words = Array.from({ length: 3000 }, (_, i) => `w${i}`).join(' ') + '.';
const deltas = words.match(/[\s\S]{1,300}/g)!;
const half = deltas.slice(0, deltas.length / 2).join('');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Every character once, in order; whitespace aside (a platform trims it at a part's edge). */
const squeezed = (text: string) => text.replace(/\s+/g, '');

const botProcess = (args: string[]) =>
  startBotProcess(children, 'deliverPartsFromLog.ts', token, args);

interface Fake {
  apiBase: string;
  /** The texts the chat holds, in order. */
  held(): string[];
  close(): Promise<void> | void;
}

const fakes: Array<[string, () => Promise<Fake>]> = [
  [
    'slack',
    async () => {
      const api = await startFakeSlackApi({
        token,
        channels: ['C0RESTART'],
        minIntervalMs: 2,
        tierWindowMs: 1000,
      });
      return { ...api, held: () => api.channels.get('C0RESTART')!.map((m) => m.text) };
    },
  ],
  [
    'telegram',
    async () => {
      const api = await startFakeBotApi({ token, minIntervalMs: 2 });
      return { ...api, held: () => (api.chats.get('9') ?? []).map((m) => m.text) };
    },
  ],
  [
    'discord',
    async () => {
      const api = await startFakeDiscordApi({ token, channels: ['C0RESTART'] });
      const held = () => api.channels.get('C0RESTART')!.filter((m) => !m.deleted);
      return { apiBase: api.apiBase, close: api.close, held: () => held().map((m) => m.text) };
    },
  ],
];

describeRedis(
  'a multi-part message across a SIGKILL and a new process with the same ledger',
  (server) => {
    afterAll(() => {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    });

    it.each(fakes)('%s: each part once, whole', async (platform, startFake) => {
      const client = createClient({ url: server().url });
      client.on('error', () => undefined);
      await client.connect();
      const fake = await startFake();
      const log = redisEventLog({ client });
      // recordTo subscribes once the log granted the stream: what came before waits here.
      const events = new ReplaySubject<StreamEvent>();
      const recording = events.pipe(recordTo(log, `parts-${platform}`)).subscribe();
      const streamId = `parts-${platform}`;
      try {
        events.next({ type: 'response-start', provider: 'openai' });
        events.next({ type: 'text-start', id: 't' });
        for (const delta of deltas.slice(0, deltas.length / 2))
          events.next({ type: 'text-delta', id: 't', delta });

        const first = botProcess([platform, server().url, streamId, fake.apiBase]);
        // Killed once the ledger holds the first half acknowledged (the bot then waits on the log).
        const ledger = redisLedger({ client });
        for (let round = 0; round < 600; round++) {
          const entry = (await ledger.read(streamId)).find((e) => e.message === 0);
          if (entry?.text === half) break;
          await sleep(25);
        }
        const before = fake.held();
        expect(squeezed(before.join(''))).toBe(squeezed(half));
        expect(before.length).toBeGreaterThanOrEqual(2);
        first.child.kill('SIGKILL');
        expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });

        for (const delta of deltas.slice(deltas.length / 2))
          events.next({ type: 'text-delta', id: 't', delta });
        events.next({ type: 'text-end', id: 't' });
        events.next({ type: 'completed', finishReason: 'stop' });
        events.complete();

        const second = botProcess([platform, server().url, streamId, fake.apiBase]);
        expect(await second.exited).toEqual({ code: 0, signal: null });
        const reports = second.reports();
        expect(reports.filter((r) => r.type === 'resumed').map((r) => r.message)).toEqual([0]);
        expect(reports.filter((r) => r.type === 'sent')).toEqual([]);
        expect(reports.filter((r) => r.type === 'delivery-failed')).toEqual([]);
        const after = fake.held();
        expect(squeezed(after.join(''))).toBe(squeezed(words));
        // Telegram and Discord post the rest in new parts; Slack updates its newest part with it
        // (chat.update takes 40,000 characters; the dead process may have left it streaming).
        expect(after.length).toBeGreaterThanOrEqual(before.length);
        // The parts the first process finished are left as they were.
        expect(after.slice(0, before.length - 1)).toEqual(before.slice(0, -1));
      } finally {
        recording.unsubscribe();
        await log.close();
        await fake.close();
        client.destroy();
      }
    });
  },
);
