import {
  concat,
  concatMap,
  filter,
  from,
  ignoreElements,
  lastValueFrom,
  map,
  timer,
  toArray,
} from 'rxjs';
import { channel } from '../../../src/channels/channel';
import { isMessageEdit, type MessageEdit } from '../../../src/channels/messageEditPlanner';
import { toMessageEdits } from '../../../src/channels/toMessageEdits';
import { deliver } from '../../../src/delivery/deliver';
import {
  telegramTransport,
  type TelegramTransportOptions,
} from '../../../src/platforms/telegram/telegramTransport';
import type { DeliveryReport } from '../../../src/delivery/types';
import { renderMarkdown } from '../../../src/render/renderMarkdown';
import { streamEvents } from '../../../src/streamEvents';
import { describeCorpus, type Capture } from '../../helpers/corpus';
import { startFakeBotApi, type FakeBotApiOptions } from '../../helpers/telegram/fakeBotApi';

const token = '999:CORPUS-secret';
const user = 4242;
const group = -100555;

/** The capture's edits, as toMessageEdits plans them for the transport's limit and format. */
async function planEdits(capture: Capture, format: TelegramTransportOptions['format']) {
  const limit = format === 'telegram-rich' ? 32768 : 4096;
  return lastValueFrom(
    streamEvents(new Response(capture.sse)).pipe(
      channel('telegram'),
      toMessageEdits({ maxMessageChars: limit, render: format }),
      filter(isMessageEdit),
      toArray(),
    ),
  );
}

/** The last edit of each message, in message order. */
const finalsOf = (planned: MessageEdit[]) => [
  ...new Map(planned.map((edit) => [edit.message, edit])).values(),
];

/** The edits one by one, `gapMs` apart (a model writing), so drafts show more than the end. */
const paced = (edits: MessageEdit[], gapMs = 8) =>
  from(edits).pipe(concatMap((edit) => timer(gapMs).pipe(map(() => edit))));

/** Delivers `planned` (with an optional pause after edit `pauseAfter`) through the fake. */
async function deliverPlanned(
  planned: MessageEdit[],
  transportOptions: Partial<TelegramTransportOptions>,
  apiOptions: Partial<FakeBotApiOptions> = {},
  pauseAfter?: { index: number; ms: number },
  gapMs?: number,
) {
  const api = await startFakeBotApi({ token, minIntervalMs: 2, ...apiOptions });
  try {
    const transport = telegramTransport({
      token,
      chatId: user,
      apiBase: api.apiBase,
      minIntervalMs: 2,
      // Drafts are opt-in (mode 'edit' is the default); these specs are about the draft path.
      mode: 'auto',
      ...transportOptions,
    });
    const source = pauseAfter
      ? concat(
          paced(planned.slice(0, pauseAfter.index + 1), gapMs),
          timer(pauseAfter.ms).pipe(ignoreElements()),
          paced(planned.slice(pauseAfter.index + 1), gapMs),
        )
      : paced(planned, gapMs);
    const reports: DeliveryReport[] = await lastValueFrom(
      source.pipe(deliver(transport, { backoffMs: 2 }), toArray()),
    );
    const chat = String(transportOptions.chatId ?? user);
    return { api, reports, held: api.chats.get(chat) ?? [], transport };
  } finally {
    await api.close();
  }
}

const failures = (reports: DeliveryReport[]) =>
  reports.filter((report) => report.type === 'delivery-failed');

describeCorpus(
  'telegramTransport over a long real capture, through deliver',
  (captures) => {
    const capture = captures.find((c) => c.name.includes('long-markdown-tables-codefences'))!;

    it(`private chat: drafts, then exactly one persisted message per message (${capture.name})`, async () => {
      const planned = await planEdits(capture, 'telegram');
      const finals = finalsOf(planned);
      expect(finals.length).toBeGreaterThanOrEqual(3);
      // Edits 60 ms apart: each shows as a draft update before the next comes.
      const { api, reports, held } = await deliverPlanned(planned, {}, {}, undefined, 60);
      expect(failures(reports)).toEqual([]);
      expect(api.calls.filter((c) => c.method === 'sendMessageDraft').length).toBeGreaterThan(
        finals.length,
      );
      expect(api.calls.filter((c) => c.method === 'editMessageText')).toEqual([]);
      expect(held.map((m) => [m.text, m.entities ?? []])).toEqual(
        finals.map((edit) => [edit.rendered!.text, edit.rendered!.entities ?? []]),
      );
      expect(held.every((m) => m.history.length === 1)).toBe(true);
      expect(api.expiredDrafts).toEqual([]);
      expect(JSON.stringify(reports)).not.toContain('CORPUS-secret');
    });

    it('a pause longer than the draft expiry: the draft is refreshed, nothing is lost', async () => {
      const planned = await planEdits(capture, 'telegram');
      // Pause inside the first message that has several edits.
      const index = planned.findIndex((edit, i) => planned[i + 1]?.message === edit.message);
      const { api, reports, held } = await deliverPlanned(
        planned,
        // Scaled: a refresh every 100 ms, an expiry of 600 ms (slack for a busy machine).
        { draftRefreshMs: 100 },
        { draftExpiryMs: 600 },
        { index, ms: 1500 },
      );
      expect(failures(reports)).toEqual([]);
      expect(api.expiredDrafts).toEqual([]);
      // Every sent / edited report was a draft write of deliver's; the other writes are
      // refreshes: a 1500 ms pause over a 600 ms expiry needs at least 3 of them.
      const draftCalls = api.calls.filter((c) => c.method === 'sendMessageDraft').length;
      const delivered = reports.filter((r) => r.type === 'sent' || r.type === 'edited').length;
      expect(draftCalls - delivered).toBeGreaterThanOrEqual(3);
      expect(held.map((m) => m.text)).toEqual(finalsOf(planned).map((e) => e.rendered!.text));
    });

    it.each([
      ['auto', 0],
      ['draft', 1],
    ] as const)(
      'group chat, mode %s: send/edit, %i rejected draft call',
      async (mode, rejected) => {
        const planned = await planEdits(capture, 'telegram');
        const { api, reports, held } = await deliverPlanned(planned, { chatId: group, mode });
        expect(failures(reports)).toEqual([]);
        const drafts = api.calls.filter((c) => c.method === 'sendMessageDraft');
        expect(drafts.map((c) => c.description)).toEqual(
          Array(rejected).fill('Bad Request: TEXTDRAFT_PEER_INVALID'),
        );
        expect(held.map((m) => m.text)).toEqual(finalsOf(planned).map((e) => e.rendered!.text));
      },
    );

    it('honours a 429 on a draft and on a persist', async () => {
      const planned = await planEdits(capture, 'telegram');
      const hit = new Set<string>();
      const fault = (_n: number, method: string) => {
        if (hit.has(method) || (method !== 'sendMessageDraft' && method !== 'sendMessage')) return;
        hit.add(method);
        return 'rate-limit' as const;
      };
      const { reports, held } = await deliverPlanned(planned, {}, { fault });
      expect(hit).toEqual(new Set(['sendMessageDraft', 'sendMessage']));
      const waits = reports.filter((r) => r.type === 'retrying' && r.reason === 'retry-after');
      expect(waits.map((r) => r.type === 'retrying' && r.delayMs)).toEqual([10, 10]);
      expect(failures(reports)).toEqual([]);
      expect(held.map((m) => m.text)).toEqual(finalsOf(planned).map((e) => e.rendered!.text));
    });

    it('telegram-rich: tables arrive as markdown tables, each message ≤ 32,768', async () => {
      const planned = await planEdits(capture, 'telegram-rich');
      const { api, reports, held } = await deliverPlanned(planned, { format: 'telegram-rich' });
      expect(failures(reports)).toEqual([]);
      expect(api.calls.some((c) => c.method === 'sendRichMessageDraft')).toBe(true);
      expect(held.map((m) => m.text)).toEqual(finalsOf(planned).map((e) => e.rendered!.text));
      expect(held.every((m) => m.rich && m.text.length <= 32768)).toBe(true);
      const text = held.map((m) => m.text).join('\n');
      expect(text).toMatch(/^\|.*\|\s*$/m);
      expect(text).toMatch(/^\|\s*:?-{3,}/m);
    });

    it('telegram-rich on a server that refuses it: entities, nothing lost', async () => {
      const planned = await planEdits(capture, 'telegram-rich');
      const { reports, held } = await deliverPlanned(
        planned,
        { format: 'telegram-rich' },
        { richMessages: false },
      );
      expect(failures(reports)).toEqual([]);
      expect(held.every((m) => !m.rich && m.text.length <= 4096)).toBe(true);
      const expected = finalsOf(planned).flatMap((edit) => renderMarkdown(edit.text, 'telegram'));
      expect(held.map((m) => m.text)).toEqual(expected.map((m) => m.text));
      expect(held.some((m) => m.entities?.some((e) => e.type === 'pre'))).toBe(true);
    });
  },
  ['anthropic'],
);
