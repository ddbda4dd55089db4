import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeliveryError } from '../../../src/delivery/errors';
import { telegramTransport } from '../../../src/platforms/telegram/telegramTransport';
import { LlmRxError } from '../../../src/errors';
import { startFakeBotApi, type FakeBotApi } from '../../helpers/telegram/fakeBotApi';
import { rejectionOf, transportCall } from '../../helpers/transportCall';

const token = '123456:SECRET-token-abc';
const chatId = 42;
const bold = { type: 'bold' as const, offset: 0, length: 5 };

describe('telegramTransport against a fake Bot API', () => {
  let api: FakeBotApi;
  let faults: Array<'rate-limit' | 'server-error' | undefined> = [];
  beforeEach(async () => {
    faults = [];
    api = await startFakeBotApi({ token, minIntervalMs: 0, fault: (n) => faults[n] });
  });
  afterEach(() => api.close());

  const transport = (format: 'telegram' | 'telegram-html' = 'telegram') =>
    telegramTransport({ token, chatId, format, mode: 'edit', apiBase: api.apiBase });

  it('sends with entities, then edits; the reference is the message_id', async () => {
    const bot = transport();
    const id = await bot.send(
      {
        op: 'send',
        message: 0,
        text: '**Hello**',
        rendered: { text: 'Hello', entities: [bold], format: 'telegram', plain: 'Hello' },
      },
      transportCall(),
    );
    await bot.edit(
      id,
      {
        op: 'edit',
        message: 0,
        text: '**Hello** world',
        rendered: {
          text: 'Hello world',
          entities: [bold],
          format: 'telegram',
          plain: 'Hello world',
        },
      },
      transportCall(),
    );
    await bot.edit(id, { op: 'edit', message: 0, text: 'plain' }, transportCall());
    expect(id).toEqual({ messageIds: [1] });
    expect(api.chats.get('42')).toStrictEqual([
      {
        id: 1,
        text: 'plain',
        entities: undefined,
        parseMode: undefined,
        rich: undefined,
        threadId: undefined,
        history: ['Hello', 'Hello world', 'plain'],
      },
    ]);
    expect(api.counts.requests).toBe(3);
  });

  it('sends telegram-html with parse_mode HTML', async () => {
    const id = await transport('telegram-html').send(
      {
        op: 'send',
        message: 0,
        text: '*a* & b',
        rendered: {
          text: '<b>a</b> &amp; b',
          parseMode: 'HTML',
          format: 'telegram-html',
          plain: 'a & b',
        },
      },
      transportCall(),
    );
    expect(api.chats.get('42')).toEqual([
      { id: 1, text: '<b>a</b> &amp; b', parseMode: 'HTML', history: ['<b>a</b> &amp; b'] },
    ]);
  });

  it('turns a 429 into retryAfterMs from parameters.retry_after', async () => {
    faults[0] = 'rate-limit';
    const error = await rejectionOf(
      transport().send({ op: 'send', message: 0, text: 'x' }, transportCall()),
    );
    expect(error).toBeInstanceOf(DeliveryError);
    expect([error.status, error.retryAfterMs, error.permanent]).toEqual([429, 10, false]);
  });

  it('delivers an identical edit without a call, and "message is not modified" as delivered', async () => {
    const bot = transport();
    const ref = await bot.send({ op: 'send', message: 0, text: 'same' }, transportCall());
    await bot.edit(ref, { op: 'edit', message: 0, text: 'same' }, transportCall());
    expect(api.counts.requests).toBe(1);
    // A ref this transport has not seen (another process, after a restart): Telegram says it.
    const restarted = transport();
    const again = await restarted.edit(
      { messageIds: [1] },
      { op: 'edit', message: 0, text: 'same' },
      transportCall(),
    );
    expect(again).toEqual({ messageIds: [1] });
    expect([api.counts.requests, api.counts.notModified]).toEqual([2, 1]);
  });

  it('retries a message whose entities were rejected once as plain text, and says so', async () => {
    const bot = transport();
    const broken = {
      text: 'Hi',
      entities: [{ type: 'bold' as const, offset: 0, length: 9 }],
      format: 'telegram' as const,
      plain: 'Hi',
    };
    const edit = { op: 'send' as const, message: 3, text: '**Hi**', rendered: broken };
    const error = await rejectionOf(bot.send(edit, transportCall()));
    expect(error.message).toBe(
      "Telegram sendMessage: 400 Bad Request: can't parse entities: entity 0 ends after the end of the text; retrying as plain text",
    );
    expect([error.retryAfterMs, error.permanent]).toEqual([0, false]);
    const retry = transportCall(2);
    const id = await bot.send(edit, retry);
    expect(retry.warnings.map((w) => w.code)).toEqual(['plain-text-fallback']);
    // The message stays plain: a later edit carries no entities either.
    await bot.edit(
      id,
      { ...edit, op: 'edit', rendered: { ...broken, text: 'Hi there', plain: 'Hi there' } },
      transportCall(),
    );
    expect(api.chats.get('42')).toEqual([
      { id: id.messageIds[0], text: 'Hi there', history: ['Hi', 'Hi there'] },
    ]);
    // A later reply's message 3 (a first send attempt) starts formatted again.
    const fine = {
      text: 'Yo',
      entities: [{ type: 'bold' as const, offset: 0, length: 2 }],
      format: 'telegram' as const,
      plain: 'Yo',
    };
    await bot.send({ ...edit, rendered: fine }, transportCall());
    expect(api.chats.get('42')![1]).toEqual({
      id: 2,
      text: 'Yo',
      entities: fine.entities,
      parseMode: undefined,
      history: ['Yo'],
    });
  });

  it('falls back from malformed HTML to its visible text', async () => {
    const bot = transport('telegram-html');
    const edit = {
      op: 'send' as const,
      message: 0,
      text: 'x',
      rendered: {
        text: '<b>a &lt; b',
        parseMode: 'HTML' as const,
        format: 'telegram-html' as const,
        plain: 'a < b',
      },
    };
    await rejectionOf(bot.send(edit, transportCall()));
    await bot.send(edit, transportCall(2));
    expect(api.chats.get('42')!.map((m) => m.text)).toEqual(['a < b']);
  });

  it('meets a formatting error once per message: the retry is plain text', async () => {
    const bot = transport();
    const edit = {
      op: 'send' as const,
      message: 0,
      text: 'x',
      rendered: {
        text: 'x',
        entities: [{ type: 'bold' as const, offset: 5, length: 1 }],
        format: 'telegram' as const,
        plain: 'x',
      },
    };
    await rejectionOf(bot.send(edit, transportCall()));
    const second = await bot.send(edit, transportCall(2));
    expect(second).toEqual({ messageIds: [1] });
    expect(api.counts.badEntities).toBe(1);
  });

  it('renders an edit rendered for another format, or not at all, in its own format', async () => {
    const bot = transport('telegram');
    const ref = await bot.send(
      {
        op: 'send',
        message: 0,
        text: 'Hello **world**!',
        rendered: {
          text: 'Hello <b>world</b>!',
          parseMode: 'HTML',
          format: 'telegram-html',
          plain: 'Hello world!',
        },
      },
      transportCall(),
    );
    await bot.edit(ref, { op: 'edit', message: 0, text: 'Hello **world**!!' }, transportCall());
    const html = transport('telegram-html');
    await html.send({ op: 'send', message: 0, text: 'Hello **world**!' }, transportCall());
    expect(api.chats.get('42')).toEqual([
      {
        id: 1,
        text: 'Hello world!!',
        entities: [{ type: 'bold', offset: 6, length: 5 }],
        history: ['Hello world!', 'Hello world!!'],
      },
      {
        id: 2,
        text: 'Hello <b>world</b>!',
        parseMode: 'HTML',
        history: ['Hello <b>world</b>!'],
      },
    ]);
  });

  it('makes a wrong token permanent, and never prints any token', async () => {
    const other = '999:OTHER-secret';
    const bot = telegramTransport({ token: other, chatId, mode: 'edit', apiBase: api.apiBase });
    const error = await rejectionOf(
      bot.send({ op: 'send', message: 0, text: 'x' }, transportCall()),
    );
    expect([error.status, error.permanent, error.message]).toEqual([
      401,
      true,
      'Telegram sendMessage: 401 Unauthorized',
    ]);
  });

  it('retries 5xx answers', async () => {
    faults[0] = 'server-error';
    const error = await rejectionOf(
      transport().send({ op: 'send', message: 0, text: 'x' }, transportCall()),
    );
    expect([error.status, error.permanent]).toEqual([500, false]);
  });
});

describe('telegramTransport without a Bot API', () => {
  it('makes a refused connection retryable and keeps the token out of the message', async () => {
    const port = await closedPort();
    const bot = telegramTransport({
      token,
      chatId,
      mode: 'edit',
      apiBase: `http://127.0.0.1:${port}`,
    });
    const error = await rejectionOf(
      bot.send({ op: 'send', message: 0, text: 'x' }, transportCall()),
    );
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error.permanent).toBe(false);
    expect(error.message).toMatch(/^Telegram sendMessage: the request failed \(fetch failed/);
    expect(JSON.stringify({ ...error, message: error.message, stack: error.stack })).not.toContain(
      'SECRET',
    );
  });

  it('scrubs the token from anything fetch says', async () => {
    const leaky: typeof fetch = async (url) => {
      throw new Error(`could not reach ${String(url)}`);
    };
    const bot = telegramTransport({ token, chatId, mode: 'edit', fetch: leaky });
    const error = await rejectionOf(
      bot.send({ op: 'send', message: 0, text: 'x' }, transportCall()),
    );
    expect(error.message).toBe(
      'Telegram sendMessage: the request failed (could not reach https://api.telegram.org/bot***/sendMessage)',
    );
  });

  it('rejects bad options with invalid-options, without echoing the token', () => {
    expect(() => telegramTransport({ token: '', chatId })).toThrow(LlmRxError);
    let thrown: any;
    try {
      telegramTransport({ token, chatId, format: 'markdown' as any });
    } catch (error) {
      thrown = error;
    }
    expect(thrown.code).toBe('invalid-options');
    expect(thrown.message).not.toContain('SECRET');
  });
});

/** A port nothing listens on (bound once, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
