// Many concurrent replies through one createDiscordBot: the fake enforces the global limit
// (requests per window, every channel together) and the per-route, per-channel buckets.
import { createDiscordBot } from '../../../src/platforms/discord/discordBot';
import { startFakeDiscordApi, type FakeDiscordApi } from '../../helpers/discord/fakeDiscordApi';
import { transportCall } from '../../helpers/transportCall';

const token = 'MTA-DISCORD-SECRET.token';
const channels = Array.from({ length: 12 }, (_, i) => String(2000 + i));
// Scaled: 10 requests per 200 ms for the whole bot (Discord: 50 a second), buckets 5 per 100 ms.
const GLOBAL = { max: 10, windowMs: 200 };

/** The most requests the fake handled in any `windowMs`. */
function mostInWindow(times: number[], windowMs: number): number {
  let most = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i] - times[j] >= windowMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

describe('createDiscordBot: one bot, many concurrent replies', () => {
  let api: FakeDiscordApi;
  afterEach(() => api?.close());

  it('24 replies in 12 channels at once: 0 × 429, the global limit never passed, every reply whole', async () => {
    api = await startFakeDiscordApi({
      token,
      channels,
      globalMaxRequests: GLOBAL.max,
      globalWindowMs: GLOBAL.windowMs,
    });
    const bot = createDiscordBot({
      token,
      apiBase: api.apiBase,
      maxPerSecond: GLOBAL.max,
      globalWindowMs: GLOBAL.windowMs,
    });
    const texts = ['Hello', 'Hello **there**', 'Hello **there**, friend'];
    await Promise.all(
      [...channels, ...channels].map(async (channelId) => {
        const transport = bot.transport(channelId);
        const ref = await transport.send(
          { op: 'send', message: 0, text: texts[0] },
          transportCall(),
        );
        await transport.edit(ref, { op: 'edit', message: 0, text: texts[1] }, transportCall());
        await transport.finish(ref, { op: 'edit', message: 0, text: texts[2] }, transportCall());
      }),
    );
    expect(api.counts.rateLimited).toBe(0);
    expect(api.counts.globalRateLimited).toBe(0);
    expect(api.requests.filter((r) => r.status !== 200)).toEqual([]);
    expect(api.requests).toHaveLength(24 * 3);
    expect(
      mostInWindow(
        api.requests.map((r) => r.at),
        GLOBAL.windowMs,
      ),
    ).toBeLessThanOrEqual(GLOBAL.max);
    for (const channelId of channels) {
      expect(api.channels.get(channelId)!.map((m) => m.text)).toEqual([
        'Hello **there**, friend',
        'Hello **there**, friend',
      ]);
    }
  });

  it('the standalone transports, each its own budget, pass the global limit together', async () => {
    // A window far longer than 12 local requests take on any machine: on a slow, shared one the
    // 12 sends once spread over more than 200 ms, and none of them was refused.
    api = await startFakeDiscordApi({
      token,
      channels,
      globalMaxRequests: GLOBAL.max,
      globalWindowMs: 60_000,
    });
    const { discordTransport } = await import('../../../src/platforms/discord/discordTransport');
    await Promise.allSettled(
      channels.map((channelId) =>
        discordTransport({ token, channelId, apiBase: api.apiBase }).send(
          { op: 'send', message: 0, text: 'Hi' },
          transportCall(),
        ),
      ),
    );
    // What the bot's shared budget is for: 12 at once against a limit of 10.
    expect(api.counts.globalRateLimited).toBe(channels.length - GLOBAL.max);
  });
});
