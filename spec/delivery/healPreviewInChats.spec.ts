// Previews healed in every chat app's transport, against the fakes (which reject what the
// platform rejects: Telegram's entities and HTML); the final text of a message never healed.
import type { MessageEdit } from '../../src/channels/messageEditPlanner';
import { discordTransport } from '../../src/platforms/discord/discordTransport';
import { slackTransport } from '../../src/platforms/slack/slackTransport';
import { telegramTransport } from '../../src/platforms/telegram/telegramTransport';
import { startFakeDiscordApi } from '../helpers/discord/fakeDiscordApi';
import { startFakeSlackApi } from '../helpers/slack/fakeSlackApi';
import { startFakeBotApi } from '../helpers/telegram/fakeBotApi';
import { transportCall } from '../helpers/transportCall';

const token = '123456:SECRET-token-abc';
// Cut where a marker, a link or a fence is still open.
const PREVIEWS = [
  'Plan: **bold',
  'Plan: **bold** see [the do',
  'Plan: **bold** see [the docs](https://exa',
];
const FINAL = 'Plan: **bold** see [the docs](https://example.com) and `x`';

interface DirectTransport<Ref> {
  send(edit: MessageEdit, call: ReturnType<typeof transportCall>): PromiseLike<Ref>;
  edit(ref: Ref, edit: MessageEdit, call: ReturnType<typeof transportCall>): PromiseLike<Ref>;
  finish(ref: Ref, edit: MessageEdit, call: ReturnType<typeof transportCall>): PromiseLike<Ref>;
}

/** The previews, then `final` as the finish. */
async function reply<Ref>(transport: DirectTransport<Ref>, final: string) {
  let ref = await transport.send({ op: 'send', message: 0, text: PREVIEWS[0] }, transportCall());
  for (const text of PREVIEWS.slice(1))
    ref = await transport.edit(ref, { op: 'edit', message: 0, text }, transportCall());
  await transport.finish(ref, { op: 'edit', message: 0, text: final }, transportCall());
}

describe('previews healed in each chat, finals as written', () => {
  it.each(['telegram', 'telegram-html'] as const)(
    'Telegram (%s): the Bot API accepts every preview; no ** shows',
    async (format) => {
      const api = await startFakeBotApi({ token, minIntervalMs: 0 });
      try {
        const transport = telegramTransport({
          token,
          chatId: 42,
          format,
          mode: 'edit',
          minIntervalMs: 0,
          apiBase: api.apiBase,
        });
        await reply(transport, FINAL);
        await reply(transport, 'An unclosed **marker');
        expect(api.calls.filter((call) => call.status !== 200)).toEqual([]);
        const [first, second] = api.chats.get('42')!;
        const previews =
          format === 'telegram'
            ? ['Plan: bold', 'Plan: bold see the do', 'Plan: bold see the docs']
            : [
                'Plan: <b>bold</b>',
                'Plan: <b>bold</b> see the do',
                'Plan: <b>bold</b> see the docs',
              ];
        const final =
          format === 'telegram'
            ? 'Plan: bold see the docs and x'
            : 'Plan: <b>bold</b> see <a href="https://example.com">the docs</a> and <code>x</code>';
        expect(first.history).toEqual([...previews, final]);
        // The final text is not healed: the model's unclosed ** shows as it wrote it.
        expect(second.history.at(-1)).toBe('An unclosed **marker');
      } finally {
        await api.close();
      }
    },
  );

  it('Slack (mrkdwn updates): previews healed, the final exact', async () => {
    const api = await startFakeSlackApi({ token, channels: ['C1'], minIntervalMs: 0 });
    try {
      const transport = slackTransport({
        token,
        channel: 'C1',
        mode: 'update',
        apiBase: api.apiBase,
      });
      await reply(transport, FINAL);
      await reply(transport, 'An unclosed **marker');
      const [first, second] = api.channels.get('C1')!;
      expect(first.history).toEqual([
        'Plan: *bold*',
        'Plan: *bold* see the do',
        'Plan: *bold* see the docs',
        'Plan: *bold* see <https://example.com|the docs> and `x`',
      ]);
      expect(second.history.at(-1)).toBe('An unclosed **marker');
    } finally {
      await api.close();
    }
  });

  it('Discord: every preview carries paired markers, the final exact', async () => {
    const api = await startFakeDiscordApi({ token, channels: ['1100'] });
    try {
      const transport = discordTransport({ token, channelId: '1100', apiBase: api.apiBase });
      await reply(transport, FINAL);
      await reply(transport, 'An unclosed **marker');
      const [first, second] = api.channels.get('1100')!;
      expect(first.history).toEqual([
        'Plan: **bold**',
        'Plan: **bold** see the do',
        'Plan: **bold** see the docs',
        'Plan: **bold** see [the docs](<https://example.com>) and `x`',
      ]);
      expect(second.history.at(-1)).toBe('An unclosed \\*\\*marker');
    } finally {
      await api.close();
    }
  });
});
