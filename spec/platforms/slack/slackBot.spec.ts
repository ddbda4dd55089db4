// Many concurrent replies through one createSlackBot against the fake Web API, which enforces
// Slack's method tiers per workspace (scaled: a window of `WINDOW_MS` instead of a minute) and
// the per-channel interval: each rule is a 429 there, so a bot that passed one would see it.
import { WebClient } from '@slack/web-api';
import { from, lastValueFrom, toArray, type Observable } from 'rxjs';
import type { MessageEdit } from '../../../src/channels/messageEditPlanner';
import { channel as chatChannel } from '../../../src/channels/channel';
import { toMessageEdits } from '../../../src/channels/toMessageEdits';
import { deliver } from '../../../src/delivery/deliver';
import type { DeliveryReport } from '../../../src/delivery/types';
import type { StreamEvent } from '../../../src/events';
import { LlmRxError } from '../../../src/errors';
import { createSlackBot } from '../../../src/platforms/slack/slackBot';
import { slackTransport, type SlackTransport } from '../../../src/platforms/slack/slackTransport';
import {
  startFakeSlackApi,
  TIER_LIMITS,
  type FakeSlackApi,
} from '../../helpers/slack/fakeSlackApi';
import { replyWords, timedReply } from '../../helpers/liveReply';
import { transportCall } from '../../helpers/transportCall';

const token = 'xoxb-SECRET-bot-token';
const threadTs = '1699999999.000001';
const recipients = { recipientUserId: 'U0USER', recipientTeamId: 'T0TEAM' };
const WINDOW_MS = 1000;
const INTERVAL_MS = 20;

/** The most calls in any `windowMs` (the fake's window: a call counts for `windowMs` after it). */
function mostInWindow(times: number[], windowMs: number): number {
  let most = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i] - times[j] >= windowMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

/** A live Slack reply through `transport`; resolves to its reports. */
function deliverSlack(events$: Observable<StreamEvent>, transport: SlackTransport) {
  return lastValueFrom(
    events$.pipe(
      chatChannel('slack', { live: true, liveIntervalMs: 20 }),
      toMessageEdits({ maxMessageChars: transport.maxMessageChars, separator: '' }),
      deliver(transport),
      toArray(),
    ),
  );
}

const failures = (reports: DeliveryReport[]) =>
  reports.filter((report) => report.type === 'delivery-failed');

describe('createSlackBot: one token, many concurrent replies', () => {
  let api: FakeSlackApi | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  const channels = Array.from({ length: 20 }, (_, i) => `C${100 + i}`);
  // Each reply spans several 60-byte streams: 60 or more starts and stops, where their tier
  // takes 20 a window, so most wait for a later window (appends stay under their 100).
  const replies = channels.map((id) => replyWords(`${id}w`, 24));
  const startFake = () =>
    startFakeSlackApi({
      token,
      channels,
      minIntervalMs: INTERVAL_MS,
      tierWindowMs: WINDOW_MS,
      maxRequests: 20000,
    });

  it('20 concurrent streamed replies: 0 × 429, no method past its tier in any window, final texts exact', async () => {
    api = await startFake();
    const bot = createSlackBot({
      token,
      apiBase: api.apiBase,
      minIntervalMs: INTERVAL_MS,
      tierWindowMs: WINDOW_MS,
    });
    const reports = await Promise.all(
      channels.map((channel, i) =>
        deliverSlack(
          timedReply(replies[i], 15),
          bot.transport({ channel, threadTs, ...recipients }, { maxStreamBytes: 60 }),
        ),
      ),
    );
    expect(api.counts.rateLimited).toBe(0);
    expect(api.calls.filter((call) => call.status !== 200)).toEqual([]);
    expect(reports.flatMap(failures)).toEqual([]);
    const byMethod = (method: string) =>
      api!.calls.filter((call) => call.method === method).map((call) => call.at);
    for (const method of Object.keys(TIER_LIMITS)) {
      expect([method, mostInWindow(byMethod(method), WINDOW_MS) <= TIER_LIMITS[method]]).toEqual([
        method,
        true,
      ]);
    }
    // The tiers bound: more starts than one window takes, so some waited for the next window.
    expect(byMethod('chat.startStream').length).toBeGreaterThan(TIER_LIMITS['chat.startStream']);
    channels.forEach((channel, i) => {
      const messages = api!.channels.get(channel)!;
      expect(messages.map((message) => message.text).join('')).toBe(replies[i].join(''));
      expect(messages.map((message) => [message.stream, message.stops])).toEqual(
        messages.map(() => ['stopped', 1]),
      );
    });
  }, 60_000);

  it('the same replies through standalone transports pass the tiers (what the bot is for)', async () => {
    api = await startFake();
    await Promise.all(
      channels.map((channel, i) =>
        deliverSlack(
          timedReply(replies[i], 15),
          slackTransport({
            token,
            apiBase: api!.apiBase,
            channel,
            threadTs,
            ...recipients,
            maxStreamBytes: 60,
            minIntervalMs: INTERVAL_MS * 2,
          }),
        ),
      ),
    );
    expect(api.calls.filter((call) => call.status === 429).length).toBeGreaterThan(0);
  }, 60_000);

  it("a 429's Retry-After on a method holds that method in every transport of the bot, and no other method", async () => {
    let forced = false;
    api = await startFakeSlackApi({
      token,
      channels: ['C1', 'C2', 'C3'],
      minIntervalMs: 0,
      // Tiers in the scaled window, as the bot counts them: a reply stretched by a busy machine
      // makes more live updates (one per 20 ms), and ~45 of a minute's 50 chat.update would
      // otherwise leave the bot waiting out the minute.
      tierWindowMs: WINDOW_MS,
      forcedRetryAfterSeconds: 0.5,
      // The first append (of either streaming reply) is refused: 429, Retry-After 0.5 s.
      fault: (_, method) =>
        !forced && method === 'chat.appendStream' && (forced = true) ? 'rate-limit' : undefined,
    });
    // What the bot sent and when, as the bot saw it (a request in flight when the 429 came back
    // was sent before the bot knew).
    const sent: Array<{ method: string; at: number }> = [];
    let limitedAt = Infinity;
    const spy: typeof fetch = async (url, init) => {
      const method = String(url).split('/api/')[1];
      sent.push({ method, at: performance.now() });
      const response = await fetch(url, init);
      if (response.status === 429) limitedAt = performance.now();
      return response;
    };
    const bot = createSlackBot({
      token,
      apiBase: api.apiBase,
      fetch: spy,
      minIntervalMs: 10,
      tierWindowMs: WINDOW_MS,
    });
    const words = replyWords('w', 80); // 0.8 s: the other replies go on through the hold
    const [first, second, posted] = await Promise.all([
      deliverSlack(
        timedReply(words, 10),
        bot.transport({ channel: 'C1', threadTs, ...recipients }),
      ),
      deliverSlack(
        timedReply(words, 10),
        bot.transport({ channel: 'C2', threadTs, ...recipients }),
      ),
      deliverSlack(timedReply(words, 10), bot.transport({ channel: 'C3' }, { mode: 'update' })),
    ]);
    expect(api.calls.filter((call) => call.status === 429).map((call) => call.method)).toEqual([
      'chat.appendStream',
    ]);
    const during = sent.filter((call) => call.at > limitedAt && call.at < limitedAt + 490);
    // No transport sent an append during the hold; the other methods went on.
    expect(during.filter((call) => call.method === 'chat.appendStream')).toEqual([]);
    expect(during.length).toBeGreaterThan(0);
    const appendsAfter = api.calls.filter(
      (call) => call.method === 'chat.appendStream' && call.status === 200,
    );
    expect(new Set(appendsAfter.map((call) => call.channel))).toEqual(new Set(['C1', 'C2']));
    for (const reports of [first, second, posted]) expect(failures(reports)).toEqual([]);
    const text = words.join('');
    for (const channel of ['C1', 'C2'])
      expect(api.channels.get(channel)!.map((message) => message.text)).toEqual([text]);
    expect(api.channels.get('C3')!.map((message) => message.text)).toEqual([text]);
  }, 20_000);

  it('counts per token, as Slack counts per workspace: two bots of one token pass a tier together, of two tokens not', async () => {
    const other = 'xoxb-SECRET-other-workspace';
    const ids = Array.from({ length: 15 }, (_, i) => `C${500 + i}`);
    api = await startFakeSlackApi({
      token,
      otherTokens: [other],
      channels: ids,
      minIntervalMs: 0,
      tierWindowMs: 60_000,
    });
    const apiBase = api.apiBase;
    // 15 stream starts from each of two bots: 30 in one minute, where Tier 2 takes 20.
    const startAll = (bots: Array<ReturnType<typeof createSlackBot>>) =>
      Promise.allSettled(
        bots.flatMap((bot) =>
          ids.map((channel) =>
            bot
              .transport({ channel, threadTs, ...recipients })
              .send({ op: 'send', message: 0, text: 'Hi' }, transportCall()),
          ),
        ),
      );
    const twoWorkspaces = await startAll([
      createSlackBot({ token, apiBase, minIntervalMs: 0 }),
      createSlackBot({ token: other, apiBase, minIntervalMs: 0 }),
    ]);
    expect(twoWorkspaces.filter((result) => result.status === 'rejected')).toEqual([]);
    expect(api.counts.rateLimited).toBe(0);
    await api.close();
    api = await startFakeSlackApi({ token, channels: ids, minIntervalMs: 0, tierWindowMs: 60_000 });
    const oneWorkspace = await startAll([
      createSlackBot({ token, apiBase: api.apiBase, minIntervalMs: 0 }),
      createSlackBot({ token, apiBase: api.apiBase, minIntervalMs: 0 }),
    ]);
    // Each bot keeps to 20 and none waits; together they are 10 past the tier: ten 429s.
    const refused = oneWorkspace.flatMap((result) =>
      result.status === 'rejected' ? [result.reason] : [],
    );
    expect(refused.map((error) => [error.status, error.retryAfterMs > 0])).toEqual(
      Array.from({ length: 10 }, () => [429, true]),
    );
    expect(api.counts.rateLimited).toBe(10);
  }, 15_000);

  describe('a WebClient instead of the token', () => {
    const edits: MessageEdit[] = [
      { op: 'send', message: 0, text: 'Hello **wor' },
      { op: 'edit', message: 0, text: 'Hello **world**' },
      { op: 'send', message: 1, text: 'Second message.' },
    ];
    const webClient = (base: string) =>
      new WebClient(token, {
        slackApiUrl: `${base}/api/`,
        retryConfig: { retries: 0 },
        rejectRateLimitedCalls: true,
      });
    const shown = (fake: FakeSlackApi) => ({
      calls: fake.calls.map(({ method, channel, status }) => ({ method, channel, status })),
      texts: (fake.channels.get('C1') ?? []).map((message) => message.text),
    });
    for (const mode of ['update', 'stream'] as const) {
      it(`mode '${mode}': the same calls and final texts as with the token`, async () => {
        const run = (bot: ReturnType<typeof createSlackBot>) =>
          lastValueFrom(
            from(edits).pipe(
              deliver(bot.transport({ channel: 'C1', threadTs, ...recipients }, { mode })),
              toArray(),
            ),
          );
        const fake = () => startFakeSlackApi({ token, channels: ['C1'], minIntervalMs: 0 });
        api = await fake();
        await run(createSlackBot({ token, apiBase: api.apiBase, minIntervalMs: 0 }));
        const withToken = shown(api);
        await api.close();
        api = await fake();
        const reports = await run(createSlackBot({ client: webClient(api.apiBase) }));
        expect(shown(api)).toEqual(withToken);
        expect(withToken.texts).toHaveLength(2);
        expect(failures(reports)).toEqual([]);
      }, 15_000);
    }
  });

  it('names itself in bad options: a typo in the target or the conversation, a stream without a thread, token and client', () => {
    const bot = createSlackBot({ token });
    const thrown = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return error;
      }
      throw new Error('expected a throw');
    };
    expect(thrown(() => bot.transport({ channel: 'C1', thread_ts: '1' } as never))).toEqual(
      new LlmRxError(
        'invalid-options',
        'createSlackBot().transport: invalid options\n✖ Unknown option "thread_ts"; known options: channel, threadTs, recipientUserId, recipientTeamId',
      ),
    );
    expect(
      thrown(() => bot.transport({ channel: 'C1' }, { token: 'other' } as never)),
    ).toMatchObject({
      code: 'invalid-options',
      message:
        'createSlackBot().transport: invalid options\n✖ Unknown option "token"; known options: mode, format, maxStreamMs, maxStreamBytes',
    });
    expect(thrown(() => bot.transport({ channel: 'C1' }, { mode: 'stream' }))).toMatchObject({
      code: 'invalid-options',
      message: expect.stringMatching(
        /^createSlackBot\(\)\.transport: mode 'stream' needs threadTs/,
      ),
    });
    expect(thrown(() => createSlackBot({}))).toMatchObject({
      code: 'invalid-options',
      message: expect.stringContaining('give either token or client'),
    });
  });
});
