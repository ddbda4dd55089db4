import type { MessageEdit } from '../../../src/channels/messageEditPlanner';
import { DeliveryError } from '../../../src/delivery/errors';
import { discordPieces, discordTransport } from '../../../src/platforms/discord/discordTransport';
import { startFakeDiscordApi, type FakeDiscordApi } from '../../helpers/discord/fakeDiscordApi';
import { rejectionOf, transportCall } from '../../helpers/transportCall';

const token = 'MTA-DISCORD-SECRET.token';
const channelId = '1100';

const edit = (op: 'send' | 'edit', text: string, message = 0): MessageEdit => ({
  op,
  message,
  text,
});

/** Paragraphs of about 300 characters, `count` of them. */
const paragraphs = (count: number, from = 0) =>
  Array.from(
    { length: count },
    (_, i) => `Paragraph ${from + i}: ${'lorem ipsum dolor sit amet '.repeat(11).trim()}.`,
  ).join('\n\n');

describe('discordTransport against a fake Discord API', () => {
  let api: FakeDiscordApi;
  let faults: Array<'global-rate-limit' | 'server-error' | undefined> = [];
  const start = async (options: { bucketLimit?: number; bucketWindowMs?: number } = {}) => {
    faults = [];
    api = await startFakeDiscordApi({
      token,
      channels: [channelId],
      fault: (n) => faults[n],
      ...options,
    });
  };
  afterEach(() => api?.close());

  const transport = (options: Partial<Parameters<typeof discordTransport>[0]> = {}) =>
    discordTransport({ token, channelId, apiBase: api.apiBase, ...options });

  it('posts, then edits the same message; discord renderings go out as they are', async () => {
    await start();
    const discord = transport();
    const rendered = { text: '**Hi** there', format: 'discord' as const, plain: 'Hi there' };
    const ref = await discord.send({ ...edit('send', '**Hi** there'), rendered }, transportCall());
    const after = await discord.edit(ref, edit('edit', '**Hi** there\n\n# Plan'), transportCall());
    expect(after).toBe(ref);
    expect(api.channels.get(channelId)).toEqual([
      {
        id: ref.ids[0],
        text: '**Hi** there\n\n# Plan',
        history: ['**Hi** there', '**Hi** there\n\n# Plan'],
      },
    ]);
    expect(api.requests.map((r) => `${r.method} ${r.status}`)).toEqual(['POST 200', 'PATCH 200']);
  });

  it('renders an unrendered edit for Discord (a table becomes a code block)', async () => {
    await start();
    const markdown = '| a | b |\n|---|---|\n| 1 | 2 |';
    await transport().send(edit('send', markdown), transportCall());
    const [message] = api.channels.get(channelId)!;
    expect(message.text).toBe(discordPieces(edit('send', markdown))[0]);
    expect(message.text.startsWith('```')).toBe(true);
  });

  it('continues a text over 2000 characters in further messages, never truncating', async () => {
    await start({ bucketLimit: 50 });
    const discord = transport();
    const first = paragraphs(5);
    const ref = await discord.send(edit('send', first), transportCall());
    const whole = `${first}\n\n${paragraphs(9, 5)}`;
    await discord.edit(ref, edit('edit', whole), transportCall());
    const held = api.channels.get(channelId)!;
    expect(ref.ids).toEqual(held.map((m) => m.id));
    expect(held.length).toBeGreaterThanOrEqual(3);
    expect(held.every((m) => m.text.length <= 2000)).toBe(true);
    const words = (text: string) => text.split(/\s+/).filter(Boolean);
    expect(words(held.map((m) => m.text).join(' '))).toEqual(words(whole));
    expect(api.requests.filter((r) => r.status !== 200)).toEqual([]);
  });

  it('sends a too-long discord rendering in pieces; the fake rejects 2001 characters with 50035', async () => {
    await start({ bucketLimit: 50 });
    const text = `${'word '.repeat(500)}`.trim();
    const rendered = { text, format: 'discord' as const, plain: text };
    const ref = await transport().send({ ...edit('send', text), rendered }, transportCall());
    expect(ref.ids.length).toBe(2);
    const raw = await fetch(`${api.apiBase}/channels/${channelId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bot ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'x'.repeat(2001) }),
    });
    expect([raw.status, await raw.json()]).toEqual([
      400,
      {
        code: 50035,
        errors: {
          content: {
            _errors: [
              { code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 2000 or fewer in length.' },
            ],
          },
        },
        message: 'Invalid Form Body',
      },
    ]);
  });

  it('waits for an empty bucket to reset instead of getting a 429', async () => {
    await start({ bucketLimit: 2, bucketWindowMs: 150 });
    const discord = transport();
    const ref = await discord.send(edit('send', 'a'), transportCall());
    for (const text of ['a b', 'a b c', 'a b c d', 'a b c d e']) {
      await discord.edit(ref, edit('edit', text), transportCall());
    }
    expect(api.counts.rateLimited).toBe(0);
    const patches = api.requests.filter((r) => r.method === 'PATCH');
    expect(patches.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    // Two PATCHes per 150 ms window: the third waited for the reset.
    expect(patches[2].at - patches[0].at).toBeGreaterThanOrEqual(140);
    expect(api.channels.get(channelId)![0].text).toBe('a b c d e');
  });

  it('turns a 429 into retryAfterMs from the float retry_after, and waits it before the next request', async () => {
    await start({ bucketLimit: 1, bucketWindowMs: 400 });
    // Another client spends the bucket; our transport has not seen its headers.
    await fetch(`${api.apiBase}/channels/${channelId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bot ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'other' }),
    });
    const discord = transport();
    const error = await rejectionOf(discord.send(edit('send', 'mine'), transportCall()));
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error.status).toBe(429);
    expect(error.permanent).toBe(false);
    expect(error.retryAfterMs).toBeGreaterThan(300);
    expect(error.retryAfterMs).toBeLessThanOrEqual(400);
    expect(error.retryAfterMs % 1000).not.toBe(0);
    expect(error.message).toBe(
      `Discord POST /channels/${channelId}/messages: 429 You are being rate limited.`,
    );
    const ref = await discord.send(edit('send', 'mine'), transportCall(2));
    const [limited, posted] = api.requests.slice(-2);
    expect([limited.status, posted.status]).toEqual([429, 200]);
    expect(posted.at - limited.at).toBeGreaterThanOrEqual(error.retryAfterMs - 5);
    expect(ref.ids).toHaveLength(1);
    expect(api.counts.rateLimited).toBe(1);
  });

  it('holds every route after a global 429', async () => {
    await start({ bucketLimit: 10 });
    const discord = transport();
    const ref = await discord.send(edit('send', 'a'), transportCall());
    faults[1] = 'global-rate-limit';
    const error = await rejectionOf(discord.edit(ref, edit('edit', 'a b'), transportCall()));
    expect([error.retryAfterMs, error.message]).toEqual([
      50,
      `Discord PATCH /channels/${channelId}/messages/${ref.ids[0]}: 429 You are being rate limited. (global)`,
    ]);
    // A different route (a new message) also waits the global limit out.
    await discord.send(edit('send', 'b', 1), transportCall());
    expect(api.counts.globalViolations).toBe(0);
    const [limited, next] = api.requests.slice(-2);
    expect(next.at - limited.at).toBeGreaterThanOrEqual(45);
  });

  it('goes on after a failed piece without posting any piece twice', async () => {
    await start({ bucketLimit: 50 });
    faults[1] = 'server-error';
    const discord = transport();
    const text = paragraphs(14);
    const error = await rejectionOf(discord.send(edit('send', text), transportCall()));
    expect([error.status, error.permanent]).toEqual([500, false]);
    const ref = await discord.send(edit('send', text), transportCall(2));
    const held = api.channels.get(channelId)!;
    expect(held.map((m) => m.id)).toEqual(ref.ids);
    expect(new Set(held.map((m) => m.text)).size).toBe(held.length);
  });

  it.each([
    ['a wrong token (401)', { token: 'OTHER-DISCORD-SECRET' }, 401, '401: Unauthorized (code 0)'],
    ['an unknown channel (404)', { channelId: '999' }, 404, 'Unknown Channel (code 10003)'],
  ])('makes %s permanent, never printing the token', async (_, options, status, what) => {
    await start();
    const error = await rejectionOf(transport(options).send(edit('send', 'x'), transportCall()));
    expect([error.status, error.permanent, error.message]).toEqual([
      status,
      true,
      `Discord POST /channels/${'channelId' in options ? options.channelId : channelId}/messages: ${status} ${what}`,
    ]);
    expect(error.message).not.toContain('SECRET');
  });

  it('makes an unknown message permanent on edit', async () => {
    await start();
    const error = await rejectionOf(
      transport().edit({ ids: ['42'], contents: ['x'] }, edit('edit', 'x y'), transportCall()),
    );
    expect([error.status, error.permanent]).toEqual([404, true]);
  });

  it('retries a network failure, with the token scrubbed', async () => {
    await start();
    const error = await rejectionOf(
      transport({ apiBase: 'http://127.0.0.1:1/api/v10' }).send(edit('send', 'x'), transportCall()),
    );
    expect(error.permanent).toBe(false);
    expect(error.message).not.toContain('SECRET');
  });

  it('rejects an edit rendered for another app, and bad options at once', async () => {
    await start();
    const rendered = { text: '*Hi*', format: 'slack' as const, plain: 'Hi' };
    const error = await rejectionOf(
      transport().send({ ...edit('send', 'Hi'), rendered }, transportCall()),
    );
    expect(error.permanent).toBe(true);
    expect(() => discordTransport({ token: '', channelId })).toThrow(/token/);
  });
});
