import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { answerInTelegram } from '../../examples/telegram-bot/answer';
import { collectTurn, renderMarkdown, streamEvents } from '../../src/index';
import { startFakeBotApi, type FakeBotApi } from '../helpers/telegram/fakeBotApi';

// docs/telegram-bot.md: its example (examples/telegram-bot/answer.ts) against the fake Bot API.
const token = '4242:GUIDE-SECRET';
const sse = readFileSync(
  join(__dirname, '../../fixtures/demo/openrouter-reasoning-markdown.sse'),
  'utf8',
);
const user = 42;
const group = -100777;

describe('docs/telegram-bot.md: answerInTelegram against the fake Bot API', () => {
  let api: FakeBotApi;
  let answer: string;
  beforeAll(async () => {
    answer = (await firstValueFrom(streamEvents(new Response(sse)).pipe(collectTurn()))).text;
  });
  beforeEach(async () => {
    api = await startFakeBotApi({ token, minIntervalMs: 5 });
  });
  afterEach(() => api.close());

  const options = { token, minIntervalMs: 5 };
  /** What the chat shows, message after message, as text Telegram displays. */
  const shown = (chat: number) => (api.chats.get(String(chat)) ?? []).map((m) => m.text);

  it('a private chat with drafts opted in: drafts while it streams, then the whole answer persisted, entities and all', async () => {
    const reports = await answerInTelegram(new Response(sse), {
      ...options,
      mode: 'auto',
      chatId: user,
      apiBase: api.apiBase,
    });
    const expected = renderMarkdown(answer, 'telegram');
    expect(api.chats.get('42')!.map(({ text, entities }) => ({ text, entities }))).toEqual(
      expected.map(({ text, entities }) => ({ text, entities })),
    );
    expect(api.calls[0].method).toBe('sendMessageDraft');
    expect(api.draftOf('42')).toBeUndefined();
    expect(reports.filter((r) => r.type === 'delivery-failed')).toEqual([]);
    expect(reports.filter((r) => r.type === 'finished').length).toBe(expected.length);
    expect(JSON.stringify(reports)).not.toContain(token);
  });

  it('a group: messages, never drafts, ending on the same whole answer', async () => {
    await answerInTelegram(new Response(sse), { ...options, chatId: group, apiBase: api.apiBase });
    expect(shown(group)).toEqual(renderMarkdown(answer, 'telegram').map((m) => m.text));
    expect(api.calls.map((c) => c.method)).not.toContain('sendMessageDraft');
    // (The capture arrives at once: live mode has the whole text for the first call.)
    expect(api.calls.filter((c) => c.method === 'sendMessage').length).toBeGreaterThan(0);
  });

  it("format 'telegram-rich': the markdown itself, as a Rich Message", async () => {
    await answerInTelegram(new Response(sse), {
      ...options,
      chatId: user,
      format: 'telegram-rich',
      apiBase: api.apiBase,
    });
    const [message] = api.chats.get('42')!;
    expect(message).toMatchObject({ rich: true });
    expect(shown(user)).toEqual(renderMarkdown(answer, 'telegram-rich').map((m) => m.text));
  });

  it('a bot blocked by the user: one delivery-failed report, permanent, no retries', async () => {
    await api.close();
    api = await startFakeBotApi({ token, minIntervalMs: 5, blockedChats: ['42'] });
    const reports = await answerInTelegram(new Response(sse), {
      ...options,
      chatId: user,
      apiBase: api.apiBase,
    });
    expect(reports.map((r) => r.type)).toEqual(['delivery-failed', 'answer']);
    expect(reports[0]).toMatchObject({ permanent: true });
    expect(reports[1]).toMatchObject({ outcome: 'completed', delivered: false, messages: 0 });
    expect(api.calls.map((c) => c.status)).toEqual([403]);
  });
});
