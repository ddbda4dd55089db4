import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  concatMap,
  from,
  lastValueFrom,
  map,
  of,
  Subject,
  take,
  tap,
  toArray,
  type Observable,
} from 'rxjs';
import { channel } from '../../src/channels/channel';
import { isMessageEdit, type MessageEdit } from '../../src/channels/messageEditPlanner';
import { toMessageEdits } from '../../src/channels/toMessageEdits';
import { deliver } from '../../src/delivery/deliver';
import { memoryLedger } from '../../src/delivery/memoryLedger';
import { telegramTransport } from '../../src/platforms/telegram/telegramTransport';
import type { DeliveryLedger, DeliveryReport } from '../../src/delivery/types';
import type { StreamEvent } from '../../src/events';
import { streamEvents } from '../../src/streamEvents';
import { expectDeliveredAsPlanned } from '../helpers/deliveryChecks';
import { startFakeBotApi, type FakeBotApi } from '../helpers/telegram/fakeBotApi';
import { startInterceptingProxy, type Interception } from '../helpers/interceptingProxy';

const token = '777:LEDGER-SECRET';
const demoSse = readFileSync(
  join(__dirname, '../../fixtures/demo/openrouter-reasoning-markdown.sse'),
  'utf8',
);

let events: StreamEvent[];
let api: FakeBotApi;
let chat = 0;
beforeAll(async () => {
  events = await lastValueFrom(streamEvents(new Response(demoSse)).pipe(toArray()));
  api = await startFakeBotApi({ token, minIntervalMs: 2 });
});
afterAll(() => api.close());

/**
 * The pipeline over the recorded events. `oneAtATime`: each edit waits until the one before it
 * was delivered, so that every edit is a call of its own (none collapse).
 */
function run(
  apiBase: string,
  chatId: number,
  ledger: DeliveryLedger,
  planned: MessageEdit[],
  oneAtATime = false,
): Observable<DeliveryReport> {
  const delivered = new Subject<void>();
  return from(events).pipe(
    channel('telegram', { minChars: 100, maxChars: 300 }),
    toMessageEdits({ maxMessageChars: 400, render: 'telegram' }),
    tap((step) => isMessageEdit(step) && planned.push(step)),
    concatMap((edit, i) =>
      !oneAtATime || i === 0
        ? of(edit)
        : delivered.pipe(
            take(1),
            map(() => edit),
          ),
    ),
    deliver(telegramTransport({ token, chatId, apiBase, minIntervalMs: 2, mode: 'edit' }), {
      ledger,
      key: `reply-${chatId}`,
      backoffMs: 1,
    }),
    tap((report) => {
      if (report.type === 'sent' || report.type === 'edited') delivered.next();
    }),
  );
}

describe('deliver with a memoryLedger, against the fake Bot API', () => {
  it('delivering twice over the same events makes no new message and no call', async () => {
    const ledger = memoryLedger();
    const chatId = ++chat;
    const planned: MessageEdit[] = [];
    const first = await lastValueFrom(run(api.apiBase, chatId, ledger, planned).pipe(toArray()));
    expect(first.filter((r) => r.type === 'delivery-failed' || r.type === 'warning')).toEqual([]);
    const held = api.chats.get(String(chatId))!;
    const finals = expectDeliveredAsPlanned(held, planned);
    expect(finals.length).toBeGreaterThanOrEqual(3);
    const requestsAfterFirst = api.counts.requests;

    const again: MessageEdit[] = [];
    const second = await lastValueFrom(run(api.apiBase, chatId, ledger, again).pipe(toArray()));
    expect(again).toEqual(planned);
    expect(api.counts.requests).toBe(requestsAfterFirst);
    expect(second).toEqual([
      ...finals.map((_, message) => ({
        type: 'resumed',
        message,
        text: planned.filter((edit) => edit.message === message).at(-1)!.text,
        finished: true,
      })),
      { type: 'answer', outcome: 'completed', messages: finals.length, delivered: true },
    ]);
    expectDeliveredAsPlanned(api.chats.get(String(chatId))!, planned);
  });

  it('a run stopped while an edit of a later message is in flight is finished by the next, each message once', async () => {
    const ledger = memoryLedger();
    const chatId = ++chat;
    // Hold the answer of the first edit after the first message (the fake applied it).
    const proxy = await startInterceptingProxy(api.apiBase, ({ path, body }) =>
      path.endsWith('/editMessageText') && body.message_id >= 2 ? 'hold' : 'pass',
    );
    try {
      const planned: MessageEdit[] = [];
      const firstReports: DeliveryReport[] = [];
      const subscription = run(proxy.base, chatId, ledger, planned, true).subscribe((report) =>
        firstReports.push(report),
      );
      const held = await proxy.held();
      subscription.unsubscribe();
      // Telegram numbers this chat's messages from 1: the held edit is of message id - 1.
      const open = held.body.message_id - 1;
      const sent = firstReports.filter((r) => r.type === 'sent').map((r) => r.message);
      expect(sent).toEqual(Array.from({ length: open + 1 }, (_, i) => i));

      const again: MessageEdit[] = [];
      const second = await lastValueFrom(run(api.apiBase, chatId, ledger, again).pipe(toArray()));
      expect(again).toEqual(planned);
      expect(second.filter((r) => r.type === 'resumed').map((r) => r.message)).toEqual(sent);
      expect(second.filter((r) => r.type === 'sent').map((r) => r.message)[0]).toBe(open + 1);
      expect(second.filter((r) => r.type === 'delivery-failed' || r.type === 'warning')).toEqual(
        [],
      );
      const finals = expectDeliveredAsPlanned(api.chats.get(String(chatId))!, planned);
      expect(finals.length).toBeGreaterThan(open + 1);
    } finally {
      await proxy.close();
    }
  });

  it.each<[Interception, RegExp]>([
    ['server-error', /Internal Server Error/],
    ['reset', /the request failed/],
  ])(
    'a send answered by %s after the platform acted is retried with a possible-duplicate warning',
    async (interception, failure) => {
      const chatId = ++chat;
      const proxy = await startInterceptingProxy(api.apiBase, ({ n }) =>
        n === 0 ? interception : 'pass',
      );
      try {
        const ledger = memoryLedger();
        const transport = telegramTransport({
          token,
          chatId,
          apiBase: proxy.base,
          minIntervalMs: 2,
          mode: 'edit',
        });
        const reports = await lastValueFrom(
          of<MessageEdit>({ op: 'send', message: 0, text: 'Hello' }).pipe(
            deliver(transport, { ledger, key: 'ambiguous', backoffMs: 5 }),
            toArray(),
          ),
        );
        expect(reports.map((r) => [r.type, 'code' in r ? r.code : undefined])).toEqual([
          ['warning', 'possible-duplicate'],
          ['retrying', undefined],
          ['sent', undefined],
          ['finished', undefined],
        ]);
        const warning = reports[0] as Extract<DeliveryReport, { type: 'warning' }>;
        expect(warning.detail).toMatch(failure);
        expect(warning.detail).not.toContain(token);
        // The platform had acted: the chat shows the message twice, as the warning said.
        expect(api.chats.get(String(chatId))!.map((m) => m.text)).toEqual(['Hello', 'Hello']);
        expect(await ledger.read('ambiguous')).toEqual([
          { message: 0, ref: { messageIds: [2] }, text: 'Hello', finished: true },
        ]);
      } finally {
        await proxy.close();
      }
    },
  );

  it('rejects a ledger without a key, a key without a ledger, and a ledger that is not one', () => {
    const transport = { send: async () => 1, edit: async () => undefined };
    expect(() => deliver(transport, { ledger: memoryLedger() })).toThrow(
      /ledger and key go together/,
    );
    expect(() => deliver(transport, { key: 'k' })).toThrow(/ledger and key go together/);
    expect(() => deliver(transport, { ledger: {} as any, key: 'k' })).toThrow(
      /expected a ledger with read\(key\) and write\(key, entry\)/,
    );
  });
});
