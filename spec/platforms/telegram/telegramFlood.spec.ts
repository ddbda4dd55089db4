import { createTelegramBot } from '../../../src/platforms/telegram/telegramBot';
import { telegramTransport } from '../../../src/platforms/telegram/telegramTransport';
import { startFakeBotApi, type FakeBotApi } from '../../helpers/telegram/fakeBotApi';
import { seededRandom } from '../../helpers/seededRandom';
import { deliverLive, replyWords, timedReply } from '../../helpers/liveReply';

// The fake enforces Telegram's flood limits strictly (scaled in time where a real minute would
// be too long for a spec): a call closer than the interval to the previous one of its chat, a
// group past its window, or a token past its window is answered 429 with Telegram's body.

const token = '123456:SECRET-token-abc';
const texts = (api: FakeBotApi, chat: number) =>
  (api.chats.get(String(chat)) ?? []).map((message) => message.text);
const rateLimited = (api: FakeBotApi) => api.calls.filter((call) => call.status === 429);

/** The most calls the fake answered in any window of `ms`. */
function mostInWindow(times: number[], ms: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let first = 0, last = 0; last < sorted.length; last++) {
    while (sorted[last] - sorted[first] >= ms) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

describe('flood budgets against a strict fake Bot API', () => {
  let api: FakeBotApi | undefined;
  afterEach(() => api?.close());

  it('one private chat, a strict interval and a jittery network: counted from the answer, never a 429', async () => {
    const random = seededRandom(38);
    api = await startFakeBotApi({ token, minIntervalMs: 100, latencyMs: () => random() * 40 });
    const transport = telegramTransport({
      token,
      chatId: 42,
      mode: 'edit',
      apiBase: api.apiBase,
      minIntervalMs: 100,
    });
    const words = replyWords('w', 40);
    const reports = await deliverLive(timedReply(words, 10), transport);
    expect(rateLimited(api)).toEqual([]);
    expect(texts(api, 42)).toEqual([words.join('')]);
    expect(reports.filter((report) => report.type === 'delivery-failed')).toEqual([]);
    // Live: the message grew in several edits, not once at the end.
    expect(api.chats.get('42')![0].history.length).toBeGreaterThan(2);
  });

  it('20 concurrent replies in one group through one bot: 0 × 429 at 20 calls per window', async () => {
    api = await startFakeBotApi({
      token,
      minIntervalMs: 10,
      groupMaxCalls: 20,
      groupWindowMs: 1000,
    });
    const bot = createTelegramBot({
      token,
      apiBase: api.apiBase,
      minIntervalMs: 10,
      groupMaxCalls: 20,
      groupWindowMs: 1000,
    });
    const group = -100123;
    const replies = Array.from({ length: 20 }, (_, i) => replyWords(`r${i}x`, 5));
    await Promise.all(
      replies.map((words) =>
        deliverLive(timedReply(words, 15), bot.transport(group, { mode: 'edit' })),
      ),
    );
    expect(rateLimited(api)).toEqual([]);
    expect([...texts(api, group)].sort()).toEqual(replies.map((words) => words.join('')).sort());
    expect(mostInWindow(api.callTimes, 1000)).toBeLessThanOrEqual(20);
  }, 20_000);

  it('20 concurrent replies in 20 chats through one bot: 0 × 429, never more than 30 calls in a second', async () => {
    api = await startFakeBotApi({
      token,
      minIntervalMs: 50,
      tokenMaxCalls: 30,
      tokenWindowMs: 1000,
    });
    const bot = createTelegramBot({ token, apiBase: api.apiBase, minIntervalMs: 50 });
    const chats = Array.from({ length: 20 }, (_, i) => 1000 + i);
    const replies = chats.map((chat) => replyWords(`c${chat}w`, 40));
    await Promise.all(
      chats.map((chat, i) =>
        deliverLive(timedReply(replies[i], 20), bot.transport(chat, { mode: 'edit' })),
      ),
    );
    expect(rateLimited(api)).toEqual([]);
    expect(mostInWindow(api.callTimes, 1000)).toBeLessThanOrEqual(30);
    chats.forEach((chat, i) => expect(texts(api!, chat)).toEqual([replies[i].join('')]));
  }, 20_000);

  it("a 429's retry_after holds every method of that chat and no other chat", async () => {
    let forced = false;
    api = await startFakeBotApi({
      token,
      minIntervalMs: 0,
      forcedRetryAfterSeconds: 0.4,
      // The first draft write of chat 42 is refused: 429, retry after 0.4 s.
      fault: (_, method, chat) =>
        !forced && chat === '42' && method === 'sendMessageDraft' && (forced = true)
          ? 'rate-limit'
          : undefined,
    });
    const bot = createTelegramBot({ token, apiBase: api.apiBase, minIntervalMs: 20 });
    const words = replyWords('w', 80); // 0.8 s: chat 43 still streams through the 0.4 s hold
    await Promise.all([
      deliverLive(timedReply(words, 10), bot.transport(42, { mode: 'auto' })),
      deliverLive(timedReply(words, 10), bot.transport(43, { mode: 'auto' })),
    ]);
    const at = (index: number) => api!.callTimes[index];
    const limitedAt = at(api.calls.findIndex((call) => call.status === 429));
    const of = (chat: string) =>
      api!.calls.flatMap((call, index) => (call.chat === chat ? [{ ...call, at: at(index) }] : []));
    const held = of('42').filter((call) => call.at > limitedAt && call.at < limitedAt + 390);
    const other = of('43').filter((call) => call.at > limitedAt && call.at < limitedAt + 390);
    expect(held).toEqual([]);
    expect(other.length).toBeGreaterThanOrEqual(2);
    // The chat held goes on after the hold: drafts, then the persisted message, whole.
    expect(new Set(of('42').map((call) => call.method))).toEqual(
      new Set(['sendMessageDraft', 'sendMessage']),
    );
    expect(texts(api, 42)).toEqual([words.join('')]);
    expect(texts(api, 43)).toEqual([words.join('')]);
  }, 20_000);
});
