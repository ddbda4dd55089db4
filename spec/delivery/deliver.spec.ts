import { lastValueFrom, of, Subject, toArray, type Observable } from 'rxjs';
import type { MessageEdit } from '../../src/channels/messageEditPlanner';
import { deliver } from '../../src/delivery/deliver';
import { telegramTransport } from '../../src/platforms/telegram/telegramTransport';
import type { DeliveryReport, DeliveryTransport } from '../../src/delivery/types';
import { LlmRxError } from '../../src/errors';
import { startFakeBotApi } from '../helpers/telegram/fakeBotApi';

const send = (message: number, text: string): MessageEdit => ({ op: 'send', message, text });
const reportsOf = (reports$: Observable<DeliveryReport>) => lastValueFrom(reports$.pipe(toArray()));

describe('deliver with real Promises', () => {
  it('rejects a transport without send and edit', () => {
    let thrown: any;
    try {
      deliver({ send: () => Promise.resolve(1) } as any);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(LlmRxError);
    expect([thrown.code, thrown.message]).toEqual([
      'invalid-options',
      'deliver: transport must be an object with send(edit) and edit(ref, edit) methods (and optionally finish(ref, edit)), such as telegramTransport({ … }).',
    ]);
  });

  it('rejects bad options at once', () => {
    const transport = { send: async () => 1, edit: async () => undefined };
    expect(() => deliver(transport, { maxAttempts: 0 })).toThrow(/deliver: invalid options/);
    expect(() => deliver(transport, { backoffMs: -1 })).toThrow(/backoffMs/);
  });

  it('retries a rejection that is not an Error, then reports it', async () => {
    let calls = 0;
    const transport: DeliveryTransport<number> = {
      send: () => (calls++ === 0 ? Promise.reject('socket hang up') : Promise.resolve(7)),
      edit: () => Promise.resolve(),
    };
    const reports = await reportsOf(
      of(send(0, 'A'), { ...send(0, 'AB'), op: 'edit' as const }).pipe(
        deliver(transport, { backoffMs: 1 }),
      ),
    );
    expect(reports).toEqual([
      {
        type: 'retrying',
        message: 0,
        op: 'send',
        attempt: 1,
        delayMs: 1,
        reason: 'backoff',
        error: { message: 'socket hang up' },
      },
      // AB arrived while A was in flight: the retry carries it.
      { type: 'superseded', message: 0, text: 'A' },
      { type: 'sent', message: 0, text: 'AB', attempts: 2 },
    ]);
  });

  it('leaves no unhandled rejection when a call rejects after unsubscribe, and aborts its signal', async () => {
    let reject!: (error: unknown) => void;
    let signal!: AbortSignal;
    const transport: DeliveryTransport<number> = {
      send: (_edit, call) => {
        signal = call.signal;
        return new Promise<number>((_resolve, rejectCall) => (reject = rejectCall));
      },
      edit: () => Promise.resolve(),
    };
    const edits = new Subject<MessageEdit>();
    const seen: DeliveryReport[] = [];
    const subscription = edits.pipe(deliver(transport)).subscribe((report) => seen.push(report));
    edits.next(send(0, 'A'));
    subscription.unsubscribe();
    expect(signal.aborted).toBe(true);
    reject(new Error('late failure'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([]);
  });

  it('never puts the token into a report, even when fetch names the URL', async () => {
    const token = '777:TOP-SECRET';
    const leaky: typeof fetch = async (url) => {
      throw new Error(`ECONNREFUSED ${String(url)}`);
    };
    const reports = await reportsOf(
      of(send(0, 'A')).pipe(
        deliver(telegramTransport({ token, chatId: 1, mode: 'edit', fetch: leaky }), {
          maxAttempts: 2,
          backoffMs: 1,
          minIntervalMs: 0,
        }),
      ),
    );
    expect(JSON.stringify(reports)).not.toContain('SECRET');
    expect(reports.map((report) => report.type)).toEqual(['retrying', 'delivery-failed']);
    expect(reports[1]).toEqual({
      type: 'delivery-failed',
      message: 0,
      op: 'send',
      text: 'A',
      attempts: 2,
      error: {
        code: 'delivery-failed',
        message:
          'deliver: the send of message 0 failed after 2 attempts: Telegram sendMessage: the request failed (ECONNREFUSED https://api.telegram.org/bot***/sendMessage)',
      },
    });
  });

  it('reports a permanent HTTP failure with its status, and makes no further call for the answer', async () => {
    const api = await startFakeBotApi({ token: 'good', minIntervalMs: 0, knownChats: ['1'] });
    try {
      const transport = telegramTransport({
        token: 'good',
        chatId: 2,
        mode: 'edit',
        apiBase: api.apiBase,
      });
      const reports = await reportsOf(
        of(send(0, 'A'), send(1, 'B')).pipe(deliver(transport, { minIntervalMs: 0 })),
      );
      expect(
        reports.map((report) => [report.type, 'message' in report ? report.message : undefined]),
      ).toEqual([['delivery-failed', 0]]);
      expect(api.counts.requests).toBe(1);
      expect((reports[0] as any).permanent).toBe(true);
      expect((reports[0] as any).error).toEqual({
        code: 'delivery-failed',
        status: 400,
        message:
          'deliver: the send of message 0 failed after 1 attempt: Telegram sendMessage: 400 Bad Request: chat not found',
      });
    } finally {
      await api.close();
    }
  });

  it('retries a message whose entities Telegram rejected as plain text, and reports it', async () => {
    const api = await startFakeBotApi({ token: 'good', minIntervalMs: 0 });
    try {
      const transport = telegramTransport({
        token: 'good',
        chatId: 5,
        mode: 'edit',
        apiBase: api.apiBase,
      });
      const broken = {
        text: 'Hi',
        entities: [{ type: 'bold' as const, offset: 1, length: 5 }],
        format: 'telegram' as const,
        plain: 'Hi',
      };
      const reports = await reportsOf(
        of({ ...send(0, '**Hi**'), rendered: broken }).pipe(
          deliver(transport, { minIntervalMs: 0 }),
        ),
      );
      expect(reports).toEqual([
        {
          type: 'retrying',
          message: 0,
          op: 'send',
          attempt: 1,
          delayMs: 0,
          reason: 'retry-after',
          error: {
            message:
              "Telegram sendMessage: 400 Bad Request: can't parse entities: entity 0 ends after the end of the text; retrying as plain text",
          },
        },
        {
          type: 'sent',
          message: 0,
          text: '**Hi**',
          attempts: 2,
          warnings: [
            {
              code: 'plain-text-fallback',
              message: 'Telegram rejected this formatting once; sent as plain text.',
            },
          ],
        },
        // The message already shows its final text: the finish makes no call.
        { type: 'finished', message: 0, text: '**Hi**', attempts: 1 },
      ]);
      expect(api.chats.get('5')!.map((m) => [m.text, m.entities])).toEqual([['Hi', undefined]]);
      expect(api.counts.requests).toBe(2);
    } finally {
      await api.close();
    }
  });

  it('rejects a finish that is not a function', () => {
    const transport = { send: async () => 1, edit: async () => undefined, finish: 'yes' };
    expect(() => deliver(transport as any)).toThrow(/optionally finish\(ref, edit\)/);
  });

  it('finishes every message once with its final text, through real Promises', async () => {
    const log: string[] = [];
    const transport: DeliveryTransport<string> = {
      send: async (edit) => (log.push(`send ${edit.message} ${edit.text}`), `m${edit.message}`),
      edit: async (ref, edit) => void log.push(`edit ${ref} ${edit.text}`),
      finish: async (ref, edit) => (log.push(`finish ${ref} ${edit.text}`), `${ref}-final`),
    };
    const edit = (message: number, text: string): MessageEdit => ({ op: 'edit', message, text });
    const reports = await reportsOf(
      of(send(0, 'A'), edit(0, 'AB'), send(1, 'C'), edit(1, 'CD')).pipe(deliver(transport)),
    );
    // of() is synchronous: AB waits behind the send in flight and goes out as message 0's
    // finish; C waits too and collapses into CD, which is sent, then finished.
    expect(log).toEqual(['send 0 A', 'finish m0 AB', 'send 1 CD', 'finish m1 CD']);
    expect(
      reports.map((r) => [
        r.type,
        'message' in r ? r.message : undefined,
        'text' in r ? r.text : undefined,
      ]),
    ).toEqual([
      ['superseded', 1, 'C'],
      ['sent', 0, 'A'],
      ['finished', 0, 'AB'],
      ['sent', 1, 'CD'],
      ['finished', 1, 'CD'],
    ]);
  });
});
