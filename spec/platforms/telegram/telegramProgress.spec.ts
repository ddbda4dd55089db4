// Tool progress on Telegram: a status line in the draft (and in edited previews), never in the
// persisted message; the whole bot path from events to the fake Bot API.
import { from, lastValueFrom, toArray } from 'rxjs';
import type { MessageEdit, ToolStatus } from '../../../src/channels/messageEditPlanner';
import { channel } from '../../../src/channels/channel';
import { toMessageEdits } from '../../../src/channels/toMessageEdits';
import { deliver } from '../../../src/delivery/deliver';
import type { StreamEvent } from '../../../src/events';
import { telegramTransport } from '../../../src/platforms/telegram/telegramTransport';
import { startFakeBotApi, type FakeBotApi } from '../../helpers/telegram/fakeBotApi';
import { transportCall } from '../../helpers/transportCall';

const token = '777:PROGRESS-secret';
const user = 42;
const group = -1001234;
const search = (status: ToolStatus['status']): ToolStatus => ({
  id: 'call_1',
  name: 'web_search',
  status,
});
const edit = (text: string, progress?: ToolStatus[]): MessageEdit => ({
  op: 'edit',
  message: 0,
  text,
  ...(progress ? { progress } : {}),
});

describe('telegramTransport tool progress', () => {
  let api: FakeBotApi;
  let shown: string[];
  beforeEach(async () => {
    shown = [];
    api = await startFakeBotApi({
      token,
      minIntervalMs: 0,
      onShown: (_chat, message) => shown.push(message.text),
    });
  });
  afterEach(() => api.close());
  const bot = (chatId: number) =>
    telegramTransport({ token, chatId, apiBase: api.apiBase, mode: 'auto' });

  it('shows the status line in the draft; the persisted message holds the answer only', async () => {
    const transport = bot(user);
    const ref = await transport.send(edit('', [search('running')]), transportCall());
    await transport.edit(ref, edit('Found', [search('running')]), transportCall());
    await transport.edit(ref, edit('Found it.', [search('done')]), transportCall());
    expect(api.draftOf('42')!.history).toEqual([
      '⏳ web_search',
      'Found\n\n⏳ web_search…',
      'Found it.',
    ]);
    await transport.finish(ref, edit('Found it.', [search('done')]), transportCall());
    expect(api.chats.get('42')!.map((m) => m.history)).toEqual([['Found it.']]);
  });

  it('in a group, edits the preview with the line and the final edit takes it out', async () => {
    const transport = bot(group);
    const ref = await transport.send(edit('Looking', [search('running')]), transportCall());
    await transport.finish(ref, edit('Looking', [search('running')]), transportCall());
    expect(api.chats.get(String(group))!.map((m) => m.history)).toEqual([
      ['Looking\n\n⏳ web_search…', 'Looking'],
    ]);
  });

  it('leaves the line out rather than pass the message limit', async () => {
    const transport = bot(group);
    const long = 'x'.repeat(4090);
    const ref = await transport.send(edit(long, [search('running')]), transportCall());
    expect(ref.messageIds).toHaveLength(1);
    expect(api.chats.get(String(group))![0].text).toBe(long);
  });

  it('from events to the chat: channel({ progress: true }) → toMessageEdits → deliver', async () => {
    const events: StreamEvent[] = [
      { type: 'tool-input-start', id: 'call_1', name: 'web_search', index: 0 },
      {
        type: 'tool-call',
        id: 'call_1',
        name: 'web_search',
        input: { q: 'rx' },
        inputText: '{"q":"rx"}',
      },
      { type: 'tool-start', id: 'call_1', name: 'web_search' },
      { type: 'tool-end', id: 'call_1', name: 'web_search', result: 'ok' },
      { type: 'text-delta', id: 't', delta: 'RxJS is a library.' },
      { type: 'text-end', id: 't' },
      { type: 'finish', reason: 'stop' },
      { type: 'completed', finishReason: 'stop' },
    ];
    const transport = bot(user);
    const reports = await lastValueFrom(
      from(events).pipe(
        channel('telegram', { progress: true }),
        toMessageEdits({ maxMessageChars: 4096 }),
        deliver(transport, { minIntervalMs: 0 }),
        toArray(),
      ),
    );
    transport.close();
    expect(reports.filter((r) => r.type === 'delivery-failed')).toEqual([]);
    expect(api.draftOf('42')).toBeUndefined();
    expect(api.chats.get('42')!.map((m) => m.text)).toEqual(['RxJS is a library.']);
    // The first draft shows the tool at work; whatever came between, the chat ends on the answer.
    expect(shown[0]).toBe('⏳ web_search');
    expect(shown.at(-1)).toBe('RxJS is a library.');
  });
});
