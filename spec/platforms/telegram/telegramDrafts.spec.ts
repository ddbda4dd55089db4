import { lastValueFrom, of, toArray } from 'rxjs';
import type { MessageEdit } from '../../../src/channels/messageEditPlanner';
import { deliver } from '../../../src/delivery/deliver';
import { telegramTransport } from '../../../src/platforms/telegram/telegramTransport';
import { renderMarkdown } from '../../../src/render/renderMarkdown';
import { startFakeBotApi, type FakeBotApi } from '../../helpers/telegram/fakeBotApi';
import { rejectionOf, transportCall } from '../../helpers/transportCall';

const token = '777:DRAFT-secret';
const user = 42;
const group = -1001234;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const edit = (op: 'send' | 'edit', message: number, text: string): MessageEdit => ({
  op,
  message,
  text,
});

describe('telegramTransport drafts (calls made directly)', () => {
  let api: FakeBotApi;
  let faults: Record<number, 'rate-limit' | 'server-error'> = {};
  const start = async (draftExpiryMs = 30_000) => {
    faults = {};
    api = await startFakeBotApi({
      token,
      minIntervalMs: 0,
      draftExpiryMs,
      fault: (n) => faults[n],
    });
  };
  afterEach(() => api.close());

  const bot = (options: Partial<Parameters<typeof telegramTransport>[0]> = {}) =>
    // The fake has no interval here: the transport's budget is scaled down with it.
    telegramTransport({
      token,
      chatId: user,
      apiBase: api.apiBase,
      minIntervalMs: 0,
      mode: 'auto',
      ...options,
    });

  it('drafts a message in a private chat, then persists exactly its final rendered text', async () => {
    await start();
    const transport = bot();
    const ref = await transport.send(edit('send', 0, 'Hello **wor'), transportCall());
    await transport.edit(ref, edit('edit', 0, 'Hello **world**'), transportCall());
    expect(api.chats.get('42')).toBeUndefined();
    expect(api.draftOf('42')).toMatchObject({
      draftId: ref.draftId,
      text: 'Hello world',
      // The first draft is healed: the open ** is bold, never shown raw.
      history: ['Hello wor', 'Hello world'],
    });
    const final = edit('edit', 0, 'Hello **world**!');
    expect(await transport.finish(ref, final, transportCall())).toBe(ref);
    const [rendered] = renderMarkdown(final.text, 'telegram');
    expect(api.chats.get('42')).toEqual([
      { id: 1, text: rendered.text, entities: rendered.entities, history: [rendered.text] },
    ]);
    expect(ref).toEqual({ draftId: ref.draftId, messageIds: [1] });
    expect(api.draftOf('42')).toBeUndefined();
    expect(api.calls.map((call) => call.method)).toEqual([
      'sendMessageDraft',
      'sendMessageDraft',
      'sendMessage',
    ]);
  });

  it('gives every message its own non-zero draft_id, kept across its updates and retries', async () => {
    await start();
    const transport = bot();
    faults[0] = 'rate-limit';
    const error = await rejectionOf(transport.send(edit('send', 0, 'one'), transportCall()));
    expect(error.retryAfterMs).toBe(10);
    const first = await transport.send(edit('send', 0, 'one'), transportCall(2));
    await transport.finish(first, edit('edit', 0, 'one'), transportCall());
    const second = await transport.send(edit('send', 1, 'two'), transportCall());
    await transport.finish(second, edit('edit', 1, 'two'), transportCall());
    expect(first.draftId).not.toBe(0);
    expect(second.draftId).toBe(first.draftId! + 1);
    expect(api.chats.get('42')!.map((m) => m.text)).toEqual(['one', 'two']);
  });

  it('sends and edits in a group: no draft call at all', async () => {
    await start();
    const transport = bot({ chatId: group });
    const ref = await transport.send(edit('send', 0, 'a'), transportCall());
    await transport.edit(ref, edit('edit', 0, 'ab'), transportCall());
    await transport.finish(ref, edit('edit', 0, 'ab'), transportCall());
    expect(transport.drafting).toBe(false);
    expect(api.calls.map((call) => call.method)).toEqual(['sendMessage', 'editMessageText']);
    expect(api.chats.get(String(group))![0].history).toEqual(['a', 'ab']);
  });

  it('meets TEXTDRAFT_PEER_INVALID once, then sends messages for the rest of its life', async () => {
    await start();
    const transport = bot({ chatId: group, mode: 'draft' });
    const error = await rejectionOf(transport.send(edit('send', 0, 'a'), transportCall()));
    expect([error.retryAfterMs, error.permanent]).toEqual([0, false]);
    expect(error.message).toBe(
      'Telegram sendMessageDraft: 400 Bad Request: TEXTDRAFT_PEER_INVALID; drafts are for private chats: sending messages from now on',
    );
    const ref = await transport.send(edit('send', 0, 'a'), transportCall(2));
    await transport.finish(ref, edit('edit', 0, 'ab'), transportCall());
    const next = await transport.send(edit('send', 1, 'c'), transportCall());
    await transport.finish(next, edit('edit', 1, 'c'), transportCall());
    const rejected = api.calls.filter((call) => call.status !== 200);
    expect(rejected).toEqual([
      {
        method: 'sendMessageDraft',
        chat: String(group),
        status: 400,
        description: 'Bad Request: TEXTDRAFT_PEER_INVALID',
      },
    ]);
    expect(api.chats.get(String(group))!.map((m) => m.text)).toEqual(['ab', 'c']);
  });

  it('a server without sendMessageDraft (404): latches to messages, as TEXTDRAFT_PEER_INVALID does', async () => {
    api = await startFakeBotApi({ token, minIntervalMs: 0, drafts: false });
    const transport = bot({ mode: 'draft' });
    const error = await rejectionOf(transport.send(edit('send', 0, 'a'), transportCall()));
    expect([error.retryAfterMs, error.permanent]).toEqual([0, false]);
    expect(error.message).toBe(
      'Telegram sendMessageDraft: 404 Not Found; this Bot API server refuses drafts: sending messages from now on',
    );
    const ref = await transport.send(edit('send', 0, 'a'), transportCall(2));
    await transport.edit(ref, edit('edit', 0, 'ab'), transportCall());
    await transport.finish(ref, edit('edit', 0, 'ab'), transportCall());
    expect(transport.drafting).toBe(false);
    expect(api.calls.map((call) => `${call.method} ${call.status}`)).toEqual([
      'sendMessageDraft 404',
      'sendMessage 200',
      'editMessageText 200',
    ]);
    expect(api.chats.get('42')!.map((m) => m.text)).toEqual(['ab']);
  });

  it('refreshes a draft through a pause longer than its expiry, and stops once persisted', async () => {
    // Scaled: expiry 600 ms, a refresh every 100 ms (slack for a busy machine).
    await start(600);
    const transport = bot({ draftRefreshMs: 100 });
    const ref = await transport.send(edit('send', 0, 'thinking…'), transportCall());
    await sleep(1500);
    expect(api.expiredDrafts).toEqual([]);
    expect(api.draftOf('42')?.text).toBe('thinking…');
    // Surviving 1500 ms over a 600 ms expiry takes at least 3 writes after the first.
    expect(api.draftOf('42')!.history.length).toBeGreaterThanOrEqual(4);
    await transport.finish(ref, edit('edit', 0, 'thinking… done'), transportCall());
    const callsAtFinish = api.calls.length;
    await sleep(300);
    expect(api.calls.length).toBe(callsAtFinish);
    expect(api.chats.get('42')!.map((m) => m.text)).toEqual(['thinking… done']);
  });

  it('is seen by the fake: a draft nobody refreshes expires (and finish still persists it)', async () => {
    await start(60);
    const transport = bot({ draftRefreshMs: 10_000 });
    const ref = await transport.send(edit('send', 0, 'slow'), transportCall());
    await sleep(150);
    expect(api.draftOf('42')).toBeUndefined();
    expect(api.expiredDrafts.map((draft) => draft.text)).toEqual(['slow']);
    await transport.finish(ref, edit('edit', 0, 'slow'), transportCall());
    expect(api.chats.get('42')!.map((m) => m.text)).toEqual(['slow']);
    transport.close();
  });

  it('honours a 429 on the persist, and persists once', async () => {
    await start();
    const transport = bot();
    const ref = await transport.send(edit('send', 0, 'x'), transportCall());
    faults[1] = 'rate-limit';
    const error = await rejectionOf(transport.finish(ref, edit('edit', 0, 'xy'), transportCall()));
    expect([error.status, error.retryAfterMs]).toEqual([429, 10]);
    await transport.finish(ref, edit('edit', 0, 'xy'), transportCall(2));
    expect(api.chats.get('42')!.map((m) => m.text)).toEqual(['xy']);
    transport.close();
  });

  it('posts drafts and messages in its topic (message_thread_id)', async () => {
    await start();
    const transport = bot({ messageThreadId: 7 });
    const ref = await transport.send(edit('send', 0, 'topic'), transportCall());
    expect(api.draftOf('42')?.threadId).toBe(7);
    await transport.finish(ref, edit('edit', 0, 'topic'), transportCall());
    expect(api.chats.get('42')![0].threadId).toBe(7);
  });

  it('continues a text longer than one message in further messages, in order', async () => {
    await start();
    const transport = bot();
    const long = Array.from({ length: 900 }, (_, i) => `word${i}`).join(' ');
    const ref = await transport.send(edit('send', 0, long), transportCall());
    expect(api.draftOf('42')!.text.length).toBeLessThanOrEqual(4096);
    await transport.finish(ref, edit('edit', 0, long), transportCall());
    const held = api.chats.get('42')!.map((m) => m.text);
    expect(held.length).toBe(2);
    expect(ref.messageIds).toEqual([1, 2]);
    expect(held.join(' ')).toBe(long);
  });

  it('releases its refresh timers on close()', async () => {
    await start();
    const transport = bot({ draftRefreshMs: 20 });
    await transport.send(edit('send', 0, 'left open'), transportCall());
    transport.close();
    const calls = api.calls.length;
    await sleep(100);
    expect(api.calls.length).toBe(calls);
  });
});

describe('telegramTransport drafts through deliver', () => {
  it('drafts every message, persists each once, and leaves no timer', async () => {
    const api = await startFakeBotApi({ token, minIntervalMs: 0 });
    try {
      const transport = telegramTransport({
        token,
        chatId: user,
        apiBase: api.apiBase,
        minIntervalMs: 0,
        draftRefreshMs: 30,
      });
      const reports = await lastValueFrom(
        of(edit('send', 0, 'A'), edit('edit', 0, 'A **b**'), edit('send', 1, 'C')).pipe(
          deliver(transport, { minIntervalMs: 0 }),
          toArray(),
        ),
      );
      // The edit waited for the send, and message 1 closed message 0: it went out as the finish.
      expect(reports.map((report) => report.type)).toEqual([
        'sent',
        'finished',
        'sent',
        'finished',
      ]);
      expect(api.chats.get('42')!.map((m) => [m.text, m.entities])).toEqual([
        ['A b', [{ type: 'bold', offset: 2, length: 1 }]],
        ['C', undefined],
      ]);
      const calls = api.calls.length;
      await sleep(100);
      expect(api.calls.length).toBe(calls);
    } finally {
      await api.close();
    }
  });
});
