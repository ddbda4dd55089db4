import type { MessageEdit } from '../../../src/channels/messageEditPlanner';
import { telegramTransport } from '../../../src/platforms/telegram/telegramTransport';
import { renderMarkdown } from '../../../src/render/renderMarkdown';
import { startFakeBotApi, type FakeBotApi } from '../../helpers/telegram/fakeBotApi';
import { rejectionOf, transportCall } from '../../helpers/transportCall';

const token = '888:RICH-secret';
const user = 42;
const group = -100777;
const table = '| Name | Qty |\n|---|--:|\n| apple | 2 |\n| pear | 10 |';
const answer = `# Fruit\n\nWhat we have:\n\n${table}\n\n- fresh\n- cheap`;
const wide = `| ${Array.from({ length: 21 }, (_, i) => `c${i}`).join(' | ')} |\n|${'---|'.repeat(21)}\n| ${Array.from({ length: 21 }, (_, i) => i).join(' | ')} |`;
const edit = (op: 'send' | 'edit', text: string, rendered?: MessageEdit['rendered']) => ({
  op,
  message: 0,
  text,
  ...(rendered ? { rendered } : {}),
});

describe('telegramTransport with format telegram-rich', () => {
  let api: FakeBotApi;
  afterEach(() => api.close());
  const bot = async (
    chatId: number,
    options: { richMessages?: boolean; fetch?: typeof fetch } = {},
  ) => {
    api = await startFakeBotApi({ token, minIntervalMs: 0, richMessages: options.richMessages });
    return telegramTransport({
      token,
      chatId,
      format: 'telegram-rich',
      mode: 'auto',
      apiBase: api.apiBase,
      fetch: options.fetch,
    });
  };

  it('drafts with sendRichMessageDraft and persists with sendRichMessage, tables kept', async () => {
    const transport = await bot(user);
    expect(transport.maxMessageChars).toBe(32768);
    const ref = await transport.send(edit('send', '# Fruit\n\nWhat we'), transportCall());
    await transport.finish(ref, edit('edit', answer), transportCall());
    expect(api.calls.map((call) => call.method)).toEqual([
      'sendRichMessageDraft',
      'sendRichMessage',
    ]);
    expect(api.chats.get('42')).toEqual([{ id: 1, text: answer, rich: true, history: [answer] }]);
    expect(api.chats.get('42')![0].text).toContain('| apple | 2 |');
  });

  it('sends and edits rich messages in a group (editMessageText with rich_message)', async () => {
    const transport = await bot(group);
    const ref = await transport.send(edit('send', '# Fruit'), transportCall());
    await transport.edit(ref, edit('edit', answer), transportCall());
    await transport.finish(ref, edit('edit', answer), transportCall());
    expect(api.calls.map((call) => call.method)).toEqual(['sendRichMessage', 'editMessageText']);
    expect(api.chats.get(String(group))![0]).toMatchObject({ text: answer, rich: true });
  });

  it('falls back to entities once when Telegram refuses the rich message, and says so', async () => {
    const transport = await bot(group);
    const rendered = { text: wide, format: 'telegram-rich' as const, plain: 'c0 … 20' };
    const first = await rejectionOf(transport.send(edit('send', wide, rendered), transportCall()));
    expect([first.retryAfterMs, first.message]).toEqual([
      0,
      'Telegram sendRichMessage: 400 Bad Request: RICH_MESSAGE_TABLE_COLS_TOO_MANY; retrying with entities',
    ]);
    const retry = transportCall(2);
    await transport.send(edit('send', wide, rendered), retry);
    expect(retry.warnings.map((w) => w.message)).toEqual([
      'Telegram rejected this formatting once; sent with entities.',
    ]);
    const [expected] = renderMarkdown(wide, 'telegram');
    expect(api.chats.get(String(group))).toEqual([
      { id: 1, text: expected.text, entities: expected.entities, history: [expected.text] },
    ]);
    expect(expected.entities?.map((e) => e.type)).toEqual(['pre']);
  });

  it('goes rich → entities → plain text, one step per rejection, and the text is never lost', async () => {
    // A proxy that breaks every entity list on its way: Telegram refuses them.
    const breaking: typeof fetch = (url, init) => {
      const body = JSON.parse(String(init?.body));
      if (Array.isArray(body.entities)) body.entities = [{ type: 'bold', offset: 1e6, length: 1 }];
      return fetch(url, { ...init, body: JSON.stringify(body) });
    };
    const transport = await bot(group, { richMessages: false, fetch: breaking });
    const md = 'Hello **world**!';
    const one = await rejectionOf(transport.send(edit('send', md), transportCall(1)));
    const two = await rejectionOf(transport.send(edit('send', md), transportCall(2)));
    const ref = await transport.send(edit('send', md), transportCall(3));
    expect([one.message, two.message]).toEqual([
      'Telegram sendRichMessage: 404 Not Found; retrying with entities',
      "Telegram sendMessage: 400 Bad Request: can't parse entities: entity 0 ends after the end of the text; retrying as plain text",
    ]);
    expect(ref.messageIds).toEqual([1]);
    expect(api.chats.get(String(group))!.map((m) => [m.text, m.entities])).toEqual([
      ['Hello world!', undefined],
    ]);
  });

  it('continues a rich text longer than 32,768 characters in a second message', async () => {
    const transport = await bot(group);
    const paragraph = 'lorem ipsum dolor sit amet '.repeat(40).trim();
    const long = Array.from({ length: 40 }, (_, i) => `${i} ${paragraph}`).join('\n\n');
    expect(long.length).toBeGreaterThan(32768);
    const ref = await transport.send(edit('send', long), transportCall());
    const held = api.chats.get(String(group))!;
    expect(ref.messageIds).toEqual([1, 2]);
    expect(held.every((m) => m.rich && m.text.length <= 32768)).toBe(true);
    expect(held.map((m) => m.text).join('\n\n')).toBe(long);
  });

  it('is refused by the fake as Telegram refuses it: too long, empty', async () => {
    api = await startFakeBotApi({ token, minIntervalMs: 0 });
    const post = (markdown: string) =>
      fetch(`${api.apiBase}/bot${token}/sendRichMessage`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ chat_id: group, rich_message: { markdown } }),
      }).then((response) => response.json());
    expect(await post('x'.repeat(32769))).toEqual({
      ok: false,
      error_code: 400,
      description: 'Bad Request: RICH_MESSAGE_TEXT_TOO_LONG',
    });
    expect((await post(' ')).description).toBe('Bad Request: RICH_MESSAGE_MARKDOWN_INVALID');
    expect((await post('x'.repeat(32768))).ok).toBe(true);
  });
});
