import fc from 'fast-check';
import { lastValueFrom, toArray } from 'rxjs';
import { channel } from '../../../src/channels/channel';
import { toMessageEdits } from '../../../src/channels/toMessageEdits';
import { deliver } from '../../../src/delivery/deliver';
import type { DeliveryReport } from '../../../src/delivery/types';
import { telegramStopOf } from '../../../src/platforms/telegram/stop';
import {
  telegramTransport,
  type TelegramTransport,
} from '../../../src/platforms/telegram/telegramTransport';
import { streamEvents } from '../../../src/streamEvents';
import { startFakeModelServer, type FakeModelServer } from '../../helpers/fakeModelServer';
import { startFakeBotApi, type FakeBotApi } from '../../helpers/telegram/fakeBotApi';
import { STOPPED_DRAFT } from '../../helpers/telegram/fakeBotApiStop';

const token = '777:STOP-secret';
const user = 42;
// Paragraphs of five words: the channel sends a block at each, while the model writes.
const pieces = Array.from({ length: 300 }, (_, i) => `Word${i}${i % 5 === 4 ? '.\n\n' : ' '}`);
const whole = pieces.join('');
// Where a pause cut a paragraph, the blocks are joined by a blank line: compare the words.
const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (bounded) until `ready()` holds. */
async function until(ready: () => boolean, what: string) {
  for (let i = 0; i < 400 && !ready(); i++) await sleep(10);
  if (!ready()) throw new Error(`timed out waiting for ${what}`);
}

describe('telegramStopOf', () => {
  it('reads the chat, draft and topic of a stopped_message_generation update', () => {
    const update = {
      update_id: 9,
      stopped_message_generation: {
        chat: { id: 42, type: 'private' },
        draft_id: 5001,
        message_thread_id: 7,
      },
    };
    expect(telegramStopOf(update)).toEqual({ chatId: 42, draftId: 5001, messageThreadId: 7 });
    const noTopic = { update_id: 10, stopped_message_generation: { chat: { id: 8 }, draft_id: 3 } };
    expect(telegramStopOf(noTopic)).toEqual({ chatId: 8, draftId: 3 });
  });

  it('is undefined for any other update, or one without a chat id or a draft id', () => {
    expect(telegramStopOf({ update_id: 1, message: { chat: { id: 42 }, text: '/stop' } })).toBe(
      undefined,
    );
    expect(telegramStopOf({ stopped_message_generation: { draft_id: 3 } })).toBe(undefined);
    expect(telegramStopOf({ stopped_message_generation: { chat: { id: 1 } } })).toBe(undefined);
    expect(telegramStopOf(null)).toBe(undefined);
    expect(telegramStopOf('stopped_message_generation')).toBe(undefined);
  });
});

describe('telegramStopOf (property)', () => {
  it('never throws; reads exactly the ids of any stopped_message_generation update', () => {
    fc.assert(fc.property(fc.anything(), (update) => void telegramStopOf(update)));
    fc.assert(
      fc.property(
        fc.integer(),
        fc.integer(),
        fc.option(fc.integer(), { nil: undefined }),
        (chatId, draftId, thread) => {
          const update = {
            update_id: 1,
            stopped_message_generation: {
              chat: { id: chatId },
              draft_id: draftId,
              message_thread_id: thread,
            },
          };
          const expected =
            thread === undefined
              ? { chatId, draftId }
              : { chatId, draftId, messageThreadId: thread };
          expect(telegramStopOf(update)).toEqual(expected);
        },
      ),
    );
  });
});

describe('Stop on a Telegram draft, end to end (fake model, fake Bot API)', () => {
  let api: FakeBotApi;
  let model: FakeModelServer;
  beforeEach(async () => {
    api = await startFakeBotApi({ token, minIntervalMs: 0 });
    model = await startFakeModelServer({ pieces, intervalMs: 15 });
  });
  afterEach(async () => {
    await api.close();
    await model.close();
  });

  /** The bot: its model request and its delivery both hang on `transport.stopSignal`. */
  async function answer(transport: TelegramTransport): Promise<DeliveryReport[]> {
    const signal = transport.stopSignal;
    const response = await fetch(model.url, { method: 'POST', body: '{}', signal });
    return lastValueFrom(
      streamEvents(response, { signal }).pipe(
        channel('telegram', { minChars: 10, idleMs: 60 }),
        toMessageEdits({ maxMessageChars: transport.maxMessageChars }),
        deliver(transport, { backoffMs: 5 }),
        toArray(),
      ),
    );
  }

  const draftCalls = () => api.calls.filter((call) => call.method === 'sendMessageDraft');

  it('the update stops the model request; the message keeps the partial text', async () => {
    const transport = telegramTransport({
      token,
      chatId: user,
      mode: 'draft',
      apiBase: api.apiBase,
      minIntervalMs: 20,
    });
    const reports = answer(transport);
    await until(() => (api.draftOf('42')?.text.length ?? 0) >= 40, 'a draft of 40 characters');
    const shown = api.draftOf('42')!.text;
    // The user presses Stop; Telegram sends the update; the bot's handler stops the transport.
    const stop = telegramStopOf(api.stopGeneration('42'))!;
    expect(stop).toEqual({ chatId: user, draftId: expect.any(Number) });
    expect(transport.hasDraft(stop.draftId)).toBe(true);
    expect(transport.hasDraft(stop.draftId + 1)).toBe(false);
    transport.stop();
    const done = await reports;

    expect(transport.stopSignal.aborted).toBe(true);
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0].aborted).toBe(true);
    expect(model.requests[0].sent).toBeLessThan(pieces.length);
    const [message, ...others] = api.chats.get('42')!;
    expect(others).toEqual([]);
    const kept = squeeze(message.text.split('⏹')[0]);
    expect(kept.startsWith(squeeze(shown))).toBe(true);
    expect(squeeze(whole).startsWith(kept)).toBe(true);
    expect(kept.length).toBeLessThan(squeeze(whole).length);
    expect(done.filter((report) => report.type === 'delivery-failed')).toEqual([]);
    expect(message.text.endsWith('\n\n⏹ Stopped.')).toBe(true);
    expect(done.at(-1)).toEqual({
      type: 'answer',
      outcome: 'stopped',
      reason: 'aborted',
      messages: 1,
      delivered: true,
    });
    // No draft of the stopped answer was written after the Stop.
    const stoppedAt = draftCalls().findIndex((call) => call.status === 400);
    expect(
      draftCalls()
        .slice(stoppedAt === -1 ? draftCalls().length : stoppedAt)
        .every((c) => c.status !== 200),
    ).toBe(true);
  });

  it('a draft call refused as stopped stops the transport by itself', async () => {
    const transport = telegramTransport({
      token,
      chatId: user,
      mode: 'draft',
      apiBase: api.apiBase,
      minIntervalMs: 20,
    });
    const reports = answer(transport);
    await until(() => (api.draftOf('42')?.text.length ?? 0) >= 30, 'a draft of 30 characters');
    // The bot has no handler for the update: the next draft write is refused.
    api.stopGeneration('42');
    const done = await reports;

    expect(transport.stopSignal.aborted).toBe(true);
    expect(draftCalls().filter((call) => call.status === 400)).toEqual([
      { method: 'sendMessageDraft', chat: '42', status: 400, description: STOPPED_DRAFT },
    ]);
    expect(model.requests[0].aborted).toBe(true);
    const [message] = api.chats.get('42')!;
    expect(squeeze(whole).startsWith(squeeze(message.text.split('⏹')[0]))).toBe(true);
    expect(done.filter((report) => report.type === 'delivery-failed')).toEqual([]);
    expect(message.text.endsWith('\n\n⏹ Stopped.')).toBe(true);
    expect(done.at(-1)).toEqual({
      type: 'answer',
      outcome: 'stopped',
      reason: 'aborted',
      messages: 1,
      delivered: true,
    });
  });

  it('drafts carry can_stop: the fake shows no Stop button otherwise', async () => {
    const transport = telegramTransport({
      token,
      chatId: user,
      mode: 'draft',
      apiBase: api.apiBase,
      minIntervalMs: 20,
    });
    const reports = answer(transport);
    await until(() => api.draftOf('42') !== undefined, 'a draft');
    expect(api.draftOf('42')!.canStop).toBe(true);
    transport.stop('the user sent /stop');
    await reports;
    expect(transport.stopSignal.reason).toMatchObject({
      name: 'AbortError',
      message: 'the user sent /stop',
    });
    expect(model.requests[0].aborted).toBe(true);
  });
});
