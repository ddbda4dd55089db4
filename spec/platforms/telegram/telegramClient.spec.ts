import { Bot } from 'grammy';
import { from, lastValueFrom, toArray } from 'rxjs';
import { deliver } from '../../../src/delivery/deliver';
import type { MessageEdit } from '../../../src/channels/messageEditPlanner';
import { telegramTransport } from '../../../src/platforms/telegram/telegramTransport';
import type { TelegramClient } from '../../../src/platforms/telegram/telegramClient';
import { LlmRxError } from '../../../src/errors';
import { startFakeBotApi, type FakeBotApi } from '../../helpers/telegram/fakeBotApi';

// The client a bot already has, instead of a token: grammY's bot.api (pointed at the fake with
// its `client.apiRoot` option) and a Telegraf-shaped `callApi` client. Same calls, same texts.
const token = '123456:SECRET-token-abc';
const edits: MessageEdit[] = [
  { op: 'send', message: 0, text: 'Hello **wor' },
  { op: 'edit', message: 0, text: 'Hello **world**' },
  { op: 'send', message: 1, text: 'Second message.' },
];

/** A Telegraf-shaped client: callApi, rejecting with a TelegramError-like `response`. */
function telegrafLike(apiBase: string): TelegramClient {
  return {
    async callApi(method: string, payload: unknown) {
      const answer = await fetch(`${apiBase}/bot${token}/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      });
      const body = (await answer.json()) as { ok: boolean; result?: unknown };
      if (!body.ok) throw Object.assign(new Error('TelegramError'), { response: body });
      return body.result;
    },
  };
}

describe('telegramTransport({ client })', () => {
  let api: FakeBotApi;
  afterEach(async () => {
    await api?.close();
    api = undefined as never;
  });

  const run = async (transport: ReturnType<typeof telegramTransport>) =>
    lastValueFrom(from(edits).pipe(deliver(transport), toArray()));
  const record = () => ({
    calls: api.calls.map(({ method, status }) => `${method} ${status}`),
    texts: (api.chats.get('42') ?? []).map(({ text, entities }) => ({ text, entities })),
  });

  it("grammY's bot.api makes the same calls and shows the same texts as a token", async () => {
    api = await startFakeBotApi({ token, minIntervalMs: 0 });
    await run(telegramTransport({ token, chatId: 42, apiBase: api.apiBase, minIntervalMs: 0 }));
    const withToken = record();
    await api.close();
    api = await startFakeBotApi({ token, minIntervalMs: 0 });
    const bot = new Bot(token, { client: { apiRoot: api.apiBase } });
    const reports = await run(telegramTransport({ client: bot.api, chatId: 42, minIntervalMs: 0 }));
    expect(record()).toEqual(withToken);
    expect(withToken.texts.map((message) => message.text)).toEqual([
      'Hello world',
      'Second message.',
    ]);
    expect(reports.filter((report) => report.type === 'delivery-failed')).toEqual([]);
  });

  it('a Telegraf-shaped client (callApi) does the same', async () => {
    api = await startFakeBotApi({ token, minIntervalMs: 0 });
    await run(
      telegramTransport({ client: telegrafLike(api.apiBase), chatId: 42, minIntervalMs: 0 }),
    );
    expect(record().texts.map((message) => message.text)).toEqual([
      'Hello world',
      'Second message.',
    ]);
  });

  it("grammY's GrammyError is classified as the HTTP answer: 429 retry_after, 403 permanent", async () => {
    let limited = false;
    api = await startFakeBotApi({
      token,
      minIntervalMs: 0,
      forcedRetryAfterSeconds: 0.05,
      fault: (_, method) =>
        !limited && method === 'editMessageText' && (limited = true) ? 'rate-limit' : undefined,
      blockedChats: ['43'],
    });
    const bot = new Bot(token, { client: { apiRoot: api.apiBase } });
    const reports = await run(telegramTransport({ client: bot.api, chatId: 42, minIntervalMs: 0 }));
    const retrying = reports.find((report) => report.type === 'retrying');
    expect(retrying).toMatchObject({
      message: 0,
      op: 'finish',
      reason: 'retry-after',
      delayMs: 50,
    });
    expect((api.chats.get('42') ?? []).map((m) => m.text)).toEqual([
      'Hello world',
      'Second message.',
    ]);
    const blocked = await lastValueFrom(
      from(edits.slice(0, 1)).pipe(
        deliver(telegramTransport({ client: bot.api, chatId: 43 })),
        toArray(),
      ),
    );
    expect(blocked).toMatchObject([
      {
        type: 'delivery-failed',
        error: {
          status: 403,
          message:
            'deliver: the send of message 0 failed after 1 attempt: Telegram sendMessage: 403 Forbidden: bot was blocked by the user',
        },
      },
    ]);
  });

  it('takes a token or a client, not both, not neither', () => {
    const bot = new Bot(token);
    expect(() => telegramTransport({ token, client: bot.api, chatId: 1 })).toThrow(LlmRxError);
    expect(() => telegramTransport({ chatId: 1 })).toThrow(
      'give either token or client (a bot API client), not both and not neither',
    );
    expect(() => telegramTransport({ client: {} as never, chatId: 1 })).toThrow(
      "expected a Bot API client: grammY's bot.api or Telegraf's bot.telegram",
    );
  });
});
