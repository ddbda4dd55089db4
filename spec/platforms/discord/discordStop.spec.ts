import { lastValueFrom, toArray } from 'rxjs';
import { channel } from '../../../src/channels/channel';
import { toMessageEdits } from '../../../src/channels/toMessageEdits';
import { deliver } from '../../../src/delivery/deliver';
import { discordTransport } from '../../../src/platforms/discord/discordTransport';
import { streamEvents } from '../../../src/streamEvents';
import { startFakeDiscordApi, type FakeDiscordApi } from '../../helpers/discord/fakeDiscordApi';
import { startFakeModelServer, type FakeModelServer } from '../../helpers/fakeModelServer';

const token = 'DISCORD-STOP-SECRET';
const channelId = '1100000000000000042';
const pieces = Array.from({ length: 300 }, (_, i) => `Word${i}${i % 5 === 4 ? '.\n\n' : ' '}`);
const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Stop in Discord: the bot’s own command calls stop()', () => {
  let api: FakeDiscordApi;
  let model: FakeModelServer;
  afterEach(async () => {
    await api.close();
    await model.close();
  });

  it('aborts the model request; the message keeps the partial text and the notice', async () => {
    api = await startFakeDiscordApi({ token, channels: [channelId] });
    model = await startFakeModelServer({ pieces, intervalMs: 15 });
    const transport = discordTransport({ token, channelId, apiBase: api.apiBase });
    const signal = transport.stopSignal;
    const response = await fetch(model.url, { method: 'POST', body: '{}', signal });
    const reports = lastValueFrom(
      streamEvents(response, { signal }).pipe(
        channel('discord', { minChars: 10, idleMs: 60 }),
        toMessageEdits({ maxMessageChars: transport.maxMessageChars }),
        deliver(transport, { backoffMs: 5, minIntervalMs: 25 }),
        toArray(),
      ),
    );
    const shownText = () => api.channels.get(channelId)![0]?.text ?? '';
    for (let i = 0; i < 400 && shownText().length < 30; i++) await sleep(10);
    const shown = shownText();
    expect(shown.length).toBeGreaterThanOrEqual(30);
    transport.stop('/stop');
    const done = await reports;

    expect(signal.reason).toMatchObject({ name: 'AbortError', message: '/stop' });
    expect(model.requests[0]).toMatchObject({ aborted: true, done: false });
    const [message, ...others] = api.channels.get(channelId)!;
    expect(others).toEqual([]);
    expect(message.text.endsWith('\n\n⏹ Stopped.')).toBe(true);
    const kept = squeeze(message.text.split('⏹')[0]);
    expect(kept.startsWith(squeeze(shown))).toBe(true);
    expect(squeeze(pieces.join('')).startsWith(kept)).toBe(true);
    expect(kept.length).toBeLessThan(squeeze(pieces.join('')).length);
    expect(done.at(-1)).toEqual({
      type: 'answer',
      outcome: 'stopped',
      reason: 'aborted',
      messages: 1,
      delivered: true,
    });
  });
});

describe('discordTransport stop()', () => {
  it('is once: a second call keeps the first reason', () => {
    const transport = discordTransport({ token, channelId, apiBase: 'http://127.0.0.1:9' });
    expect(transport.stopSignal.aborted).toBe(false);
    transport.stop('first');
    transport.stop('second');
    expect(transport.stopSignal.reason).toMatchObject({ message: 'first' });
  });
});
