import { concat, from, lastValueFrom, NEVER, toArray, type Observable } from 'rxjs';
import type { MessageEdit } from '../../src/channels/messageEditPlanner';
import { deliver } from '../../src/delivery/deliver';
import { discordTransport } from '../../src/platforms/discord/discordTransport';
import { memoryLedger } from '../../src/delivery/memoryLedger';
import { slackTransport } from '../../src/platforms/slack/slackTransport';
import { teamsTransport } from '../../src/platforms/teams/teamsTransport';
import { telegramTransport } from '../../src/platforms/telegram/telegramTransport';
import type { DeliveryReport, DeliveryTransport } from '../../src/delivery/types';
import { startFakeBotApi } from '../helpers/telegram/fakeBotApi';
import { startFakeDiscordApi } from '../helpers/discord/fakeDiscordApi';
import { startFakeSlackApi } from '../helpers/slack/fakeSlackApi';
import { startFakeTeamsApi } from '../helpers/teams/fakeTeamsApi';
import { transportCall } from '../helpers/transportCall';

// Each transport in its native mode: a first run stopped after its first message and while a
// later one is still open (a live draft / stream), then a second run with a new transport
// instance and the same ledger. The platform holds each message once, with its final text.

const edits: MessageEdit[] = [
  { op: 'send', message: 0, text: 'Hello' },
  { op: 'edit', message: 0, text: 'Hello, world.' },
  { op: 'send', message: 1, text: 'The second' },
  { op: 'edit', message: 1, text: 'The second message' },
  { op: 'edit', message: 1, text: 'The second message grows' },
  { op: 'edit', message: 1, text: 'The second message grows to its end.' },
  { op: 'send', message: 2, text: 'Third and last.' },
];
const finals = ['Hello, world.', 'The second message grows to its end.', 'Third and last.'];
const stoppedAt = 'The second message grows';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Platform {
  transport(): DeliveryTransport<any> & { close?(): void };
  /** The texts the chat holds persisted, in order. */
  persisted(): string[];
  /** What the chat shows of message 1 while the first run is stopped (a draft, a live stream). */
  openText(): string | undefined;
  close(): Promise<void> | void;
  /** Whether the open message is a draft / stream rather than a persisted message. */
  native: boolean;
}

const platforms: Array<[string, () => Promise<Platform>]> = [
  [
    'telegramTransport, drafts in a private chat',
    async () => {
      const token = '777:NATIVE-LEDGER-secret';
      const chatId = 4242;
      const api = await startFakeBotApi({ token, minIntervalMs: 0 });
      return {
        transport: () =>
          telegramTransport({
            token,
            chatId,
            apiBase: api.apiBase,
            minIntervalMs: 2,
            mode: 'auto',
          }),
        persisted: () => (api.chats.get(String(chatId)) ?? []).map((m) => m.text),
        openText: () => api.draftOf(String(chatId))?.text,
        close: api.close,
        native: true,
      };
    },
  ],
  [
    'slackTransport, a stream in a thread',
    async () => {
      const token = 'xoxb-NATIVE-LEDGER-secret';
      const channel = 'C0LEDGER';
      const api = await startFakeSlackApi({ token, channels: [channel], minIntervalMs: 0 });
      const held = () => api.channels.get(channel) ?? [];
      return {
        transport: () =>
          slackTransport({
            token,
            channel,
            threadTs: '1699999999.000001',
            recipientUserId: 'U0USER',
            recipientTeamId: 'T0TEAM',
            mode: 'stream',
            apiBase: api.apiBase,
            minIntervalMs: 0,
          }),
        persisted: () =>
          held()
            .filter((m) => m.stream !== 'streaming')
            .map((m) => m.text),
        openText: () => held().find((m) => m.stream === 'streaming')?.text,
        close: api.close,
        native: true,
      };
    },
  ],
  [
    'teamsTransport, streaming in a 1:1 chat',
    async () => {
      const token = 'eyJ-NATIVE-LEDGER-secret';
      const conversationId = 'a:1native-ledger';
      const api = await startFakeTeamsApi({
        token,
        conversations: { [conversationId]: { personal: true } },
        minStreamIntervalMs: 20,
        maxStreamMs: 10_000,
      });
      const held = () => api.messages(conversationId);
      return {
        transport: () =>
          teamsTransport({
            serviceUrl: api.serviceUrl,
            conversationId,
            token,
            minIntervalMs: 30,
            maxStreamMs: 8_000,
          }),
        persisted: () =>
          held()
            .filter((m) => m.state !== 'streaming')
            .map((m) => m.text),
        openText: () => held().find((m) => m.state === 'streaming')?.text,
        close: api.close,
        native: true,
      };
    },
  ],
  [
    'discordTransport',
    async () => {
      const token = 'MTA-NATIVE-LEDGER.secret';
      const channelId = '9001';
      const api = await startFakeDiscordApi({ token, channels: [channelId] });
      const held = () => (api.channels.get(channelId) ?? []).filter((m) => !m.deleted);
      return {
        transport: () => discordTransport({ token, channelId, apiBase: api.apiBase }),
        // Discord has no drafts: every message is persisted; the open one is the last.
        persisted: () => held().map((m) => m.text),
        openText: () => held()[1]?.text,
        close: api.close,
        native: false,
      };
    },
  ],
];

describe.each(platforms)('a restart with a memoryLedger: %s', (_, start) => {
  let platform: Platform;
  beforeEach(async () => {
    platform = await start();
  });
  afterEach(() => platform.close());

  it('the second run, with a new transport, finishes every message once with its final text', async () => {
    const ledger = memoryLedger();
    const key = 'native-reply';
    const options = { ledger, key, backoffMs: 1, minIntervalMs: 0 };

    // Run 1: the texts up to the middle of message 1, then the process "dies" (unsubscribed).
    const first = platform.transport();
    const firstReports: DeliveryReport[] = [];
    const firstRun: Observable<MessageEdit> = concat(from(edits.slice(0, 5)), NEVER);
    const reached = new Promise<void>((resolve, reject) => {
      const subscription = firstRun.pipe(deliver(first, options)).subscribe({
        next: (report) => {
          firstReports.push(report);
          if ((report.type === 'sent' || report.type === 'edited') && report.text === stoppedAt) {
            subscription.unsubscribe();
            resolve();
          }
        },
        error: reject,
      });
    });
    await reached;
    first.close?.();
    expect(firstReports.filter((r) => r.type === 'finished').map((r) => r.message)).toEqual([0]);
    expect(platform.persisted().filter((text) => text !== stoppedAt)).toEqual([finals[0]]);
    expect(platform.openText()).toBe(stoppedAt);
    // A new process comes up a while later (the platforms' pacing starts afresh).
    await sleep(50);

    // Run 2: a new transport, the same ledger, the whole reply from the start.
    const second = platform.transport();
    const reports = await lastValueFrom(from(edits).pipe(deliver(second, options), toArray()));
    second.close?.();
    expect(reports.filter((r) => r.type === 'delivery-failed' || r.type === 'warning')).toEqual([]);
    expect(reports.filter((r) => r.type === 'resumed').map((r) => r.message)).toEqual([0, 1]);
    expect(reports.filter((r) => r.type === 'sent').map((r) => r.message)).toEqual([2]);
    expect(platform.persisted()).toEqual(finals);
    if (platform.native) expect(platform.openText()).toBeUndefined();
    const entries = await ledger.read(key);
    expect(entries.map(({ message, text, finished }) => ({ message, text, finished }))).toEqual(
      finals.map((text, message) => ({ message, text, finished: true })),
    );
    for (const entry of entries) expect(JSON.parse(JSON.stringify(entry.ref))).toEqual(entry.ref);
  });
});

describe('slackTransport and a ts it did not stream', () => {
  it('stops a stream a dead process left open, then updates it (a posted message is updated as is)', async () => {
    const token = 'xoxb-NATIVE-LEDGER-secret';
    const channel = 'C0LEDGER';
    const api = await startFakeSlackApi({ token, channels: [channel], minIntervalMs: 0 });
    try {
      const options = {
        token,
        channel,
        threadTs: '1699999999.000001',
        recipientUserId: 'U0USER',
        recipientTeamId: 'T0TEAM',
        apiBase: api.apiBase,
        minIntervalMs: 0,
      };
      const dead = slackTransport(options);
      const streamed = await dead.send({ op: 'send', message: 0, text: 'Half' }, transportCall());
      const posted = await slackTransport({ ...options, mode: 'update' }).send(
        { op: 'send', message: 1, text: 'Posted' },
        transportCall(),
      );
      const fresh = slackTransport(options);
      const text = 'Half of it, then the rest.';
      expect(await fresh.finish(streamed, { op: 'edit', message: 0, text }, transportCall())).toBe(
        streamed,
      );
      const again = { op: 'edit' as const, message: 1, text: 'Posted, then edited.' };
      expect(await fresh.finish(posted, again, transportCall())).toBe(posted);
      expect(api.channels.get(channel)!.map((m) => [m.text, m.stream ?? 'posted'])).toEqual([
        [text, 'stopped'],
        [again.text, 'posted'],
      ]);
    } finally {
      await api.close();
    }
  });

  const slackOptions = (apiBase: string) => ({
    token: 'xoxb-NATIVE-LEDGER-secret',
    channel: 'C0LEDGER',
    threadTs: '1699999999.000001',
    recipientUserId: 'U0USER',
    recipientTeamId: 'T0TEAM',
    apiBase,
    minIntervalMs: 0,
  });

  it('a rotated message: its ref lists every part; a new transport shows neither the start twice nor loses a part', async () => {
    const options = slackOptions('');
    const api = await startFakeSlackApi({
      token: options.token,
      channels: [options.channel],
      minIntervalMs: 0,
    });
    try {
      const dead = slackTransport({ ...slackOptions(api.apiBase), maxStreamBytes: 100 });
      const text = 'A sentence of twenty. '.repeat(12); // 264 characters: three streams of 100
      const ref = await dead.send({ op: 'send', message: 0, text }, transportCall());
      const held = () => api.channels.get(options.channel)!;
      expect(held().map((m) => [m.text.length, m.stream])).toEqual([
        [100, 'stopped'],
        [100, 'stopped'],
        [64, 'streaming'],
      ]);
      const stored = JSON.parse(JSON.stringify(ref));
      expect(stored).toEqual({
        ts: held()[2].ts,
        parts: held().map((m) => ({ ts: m.ts, chars: m.text.length })),
      });
      const fresh = slackTransport(slackOptions(api.apiBase));
      const whole = text + 'And the end.';
      const call = { op: 'edit' as const, message: 0, text: whole };
      expect(await fresh.finish(stored, call, transportCall())).toEqual({
        ...stored,
        parts: [...stored.parts.slice(0, 2), { ts: stored.ts, chars: whole.length - 200 }],
      });
      expect(held().map((m) => m.text)).toEqual([
        text.slice(0, 100),
        text.slice(100, 200),
        text.slice(200) + 'And the end.',
      ]);
      // The parts already right took no call; the live stream was stopped, then updated.
      expect(api.counts.byMethod['chat.update']).toBe(1);
      expect(held()[2].stream).toBe('stopped');
    } finally {
      await api.close();
    }
  });

  it('a message over 12,000 characters after a restart is split, not failed', async () => {
    const options = slackOptions('');
    const api = await startFakeSlackApi({
      token: options.token,
      channels: [options.channel],
      minIntervalMs: 0,
    });
    try {
      const dead = slackTransport(slackOptions(api.apiBase));
      const start = 'First words. ';
      const ref = await dead.send({ op: 'send', message: 3, text: start }, transportCall());
      const fresh = slackTransport(slackOptions(api.apiBase));
      const lines = Array.from({ length: 3400 }, (_, i) => `Line ${i} of the answer.`);
      const text = start + '\n' + lines.join('\n');
      expect(text.length).toBeGreaterThan(80_000);
      const call = transportCall();
      await fresh.finish(ref, { op: 'edit', message: 3, text }, call);
      const held = api.channels.get(options.channel)!;
      expect(held.length).toBe(3);
      expect(held.every((m) => m.text.length <= 40_000)).toBe(true);
      expect(held.flatMap((m) => m.text.split('\n'))).toEqual([start.trimEnd(), ...lines]);
      expect(call.warnings.map((w) => w.code)).toEqual([
        'slack-posted-split',
        'slack-posted-split',
      ]);
      expect(api.rejected).toEqual([]);
    } finally {
      await api.close();
    }
  });
});
