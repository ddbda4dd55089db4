// An answer made only of tool calls (no text, finish `tool-calls`) in a chat with
// `progress: true`: every app keeps one message whose final text is the tools and their
// statuses, never an empty message or a status line left running; the answer `completed`
// with no notice. Cut off after its tools, it gets the notice in that message.
import { lastValueFrom, of, toArray } from 'rxjs';
import type { MessageStep } from '../../src/channels/messageEditPlanner';
import { toMessageEdits } from '../../src/channels/toMessageEdits';
import { deliver } from '../../src/delivery/deliver';
import type { DeliveryReport, DeliveryTransport } from '../../src/delivery/types';
import type { StreamEvent } from '../../src/events';
import { failedEvent } from '../../src/terminalEvents';
import { discordTransport } from '../../src/platforms/discord/discordTransport';
import { googleChatTransport } from '../../src/platforms/googlechat/googleChatTransport';
import { whatsappTransport } from '../../src/platforms/whatsapp/whatsappTransport';
import { slackTransport } from '../../src/platforms/slack/slackTransport';
import { teamsTransport } from '../../src/platforms/teams/teamsTransport';
import { telegramTransport } from '../../src/platforms/telegram/telegramTransport';
import { startFakeDiscordApi } from '../helpers/discord/fakeDiscordApi';
import { startFakeGoogleChatApi } from '../helpers/googlechat/fakeGoogleChatApi';
import { startFakeWhatsAppApi } from '../helpers/whatsapp/fakeWhatsAppApi';
import { startFakeSlackApi } from '../helpers/slack/fakeSlackApi';
import { startFakeTeamsApi } from '../helpers/teams/fakeTeamsApi';
import { startFakeBotApi } from '../helpers/telegram/fakeBotApi';

const TOKEN = 'RIGHT-SECRET-TOKEN';

interface Chat {
  transport: DeliveryTransport<any>;
  /** The messages the chat keeps: their text, and whether each is finished (no stream open). */
  shown(): Array<{ text: string; done: boolean }>;
  close(): Promise<void>;
}

const platforms: Array<{ name: string; open(): Promise<Chat> }> = [
  {
    name: 'telegram (edit)',
    async open() {
      const api = await startFakeBotApi({ token: TOKEN, minIntervalMs: 0, knownChats: ['7'] });
      const transport = telegramTransport({
        token: TOKEN,
        chatId: 7,
        mode: 'edit',
        apiBase: api.apiBase,
      });
      const shown = () => (api.chats.get('7') ?? []).map((m) => ({ text: m.text, done: true }));
      return { transport, shown, close: api.close };
    },
  },
  {
    name: 'telegram (drafts)',
    async open() {
      const api = await startFakeBotApi({ token: TOKEN, minIntervalMs: 0, knownChats: ['7'] });
      const transport = telegramTransport({
        token: TOKEN,
        chatId: 7,
        mode: 'auto',
        apiBase: api.apiBase,
      });
      const shown = () => (api.chats.get('7') ?? []).map((m) => ({ text: m.text, done: true }));
      return { transport, shown, close: api.close };
    },
  },
  {
    name: 'slack',
    async open() {
      const api = await startFakeSlackApi({ token: TOKEN, channels: ['C1'], minIntervalMs: 0 });
      const transport = slackTransport({
        token: TOKEN,
        channel: 'C1',
        threadTs: '1699999999.000001',
        recipientUserId: 'U1',
        recipientTeamId: 'T1',
        apiBase: api.apiBase,
        minIntervalMs: 0,
      });
      const shown = () =>
        (api.channels.get('C1') ?? []).map((m) => ({
          text: m.text,
          done: m.stream === undefined || m.stream === 'stopped',
        }));
      return { transport, shown, close: api.close };
    },
  },
  {
    name: 'discord',
    async open() {
      const api = await startFakeDiscordApi({ token: TOKEN, channels: ['42'] });
      const transport = discordTransport({ token: TOKEN, channelId: '42', apiBase: api.apiBase });
      const shown = () => (api.channels.get('42') ?? []).map((m) => ({ text: m.text, done: true }));
      return { transport, shown, close: api.close };
    },
  },
  {
    name: 'msteams',
    async open() {
      const api = await startFakeTeamsApi({
        token: TOKEN,
        conversations: { 'a:1': { personal: true } },
        minStreamIntervalMs: 5,
      });
      const transport = teamsTransport({
        serviceUrl: api.serviceUrl,
        conversationId: 'a:1',
        token: TOKEN,
        minIntervalMs: 10,
      });
      const shown = () =>
        api.messages('a:1').map((m) => ({ text: m.text, done: m.state !== 'streaming' }));
      return { transport, shown, close: api.close };
    },
  },
  {
    name: 'whatsapp',
    async open() {
      const api = await startFakeWhatsAppApi({ token: TOKEN, phoneNumberId: '1065', inbound: [] });
      const transport = whatsappTransport({
        token: TOKEN,
        phoneNumberId: '1065',
        to: '16505550100',
        apiBase: api.apiBase,
      });
      const shown = () => api.messages.map((m) => ({ text: m.body, done: true }));
      return { transport, shown, close: api.close };
    },
  },
  {
    name: 'google chat',
    async open() {
      const space = 'spaces/TOOLS';
      const api = await startFakeGoogleChatApi({ token: TOKEN, space });
      const transport = googleChatTransport({
        space,
        token: TOKEN,
        minIntervalMs: 0,
        apiBase: api.apiBase,
      });
      const shown = () => api.messages.map((m) => ({ text: m.text, done: true }));
      return { transport, shown, close: api.close };
    },
  },
];

const tools: StreamEvent[] = [
  { type: 'progress', id: 'call_1', name: 'lookup', status: 'running' },
  { type: 'progress', id: 'call_1', name: 'lookup', status: 'done' },
  { type: 'progress', id: 'call_2', name: 'fetch', status: 'running' },
  { type: 'progress', id: 'call_2', name: 'fetch', status: 'error' },
];

const run = (transport: DeliveryTransport<any>, events: StreamEvent[]) =>
  lastValueFrom(
    of(...events).pipe(
      toMessageEdits({ maxMessageChars: transport.maxMessageChars ?? 4000 }),
      deliver(transport, { backoffMs: 5 }),
      toArray(),
    ),
  ) as Promise<DeliveryReport[]>;

describe.each(platforms)('a tool-only answer in $name', (platform) => {
  it('completes with one finished message: the tools and their statuses, no notice', async () => {
    const chat = await platform.open();
    try {
      const reports = await run(chat.transport, [
        ...tools,
        { type: 'completed', finishReason: 'tool-calls' },
      ]);
      expect(reports.filter((r) => r.type === 'delivery-failed')).toEqual([]);
      expect(reports.at(-1)).toEqual({
        type: 'answer',
        outcome: 'completed',
        messages: 1,
        delivered: true,
      });
      expect(chat.shown()).toEqual([{ text: '✓ lookup · ✗ fetch', done: true }]);
    } finally {
      await chat.close();
    }
  });

  it('cut off after its tools: the notice in that same message', async () => {
    const chat = await platform.open();
    try {
      const reports = await run(chat.transport, tools); // no terminal: stream-closed
      expect(reports.filter((r) => r.type === 'delivery-failed')).toEqual([]);
      expect(reports.at(-1)).toMatchObject({ type: 'answer', outcome: 'failed', messages: 1 });
      expect(chat.shown()).toEqual([
        { text: '✓ lookup · ✗ fetch\n\n⚠️ The answer was cut off.', done: true },
      ]);
    } finally {
      await chat.close();
    }
  });

  it('a message that showed only a status line gets the notice alone as its text', async () => {
    const chat = await platform.open();
    try {
      const steps: MessageStep[] = [
        {
          op: 'send',
          message: 0,
          text: '',
          progress: [{ id: 'c', name: 'lookup', status: 'done' }],
        },
        { op: 'end', terminal: failedEvent('stream-closed', 'cut', true) },
      ];
      const reports = await lastValueFrom(
        of(...steps).pipe(deliver(chat.transport, { backoffMs: 5 }), toArray()),
      );
      expect(reports.filter((r) => r.type === 'delivery-failed')).toEqual([]);
      expect(reports.at(-1)).toMatchObject({ type: 'answer', outcome: 'failed', messages: 1 });
      expect(chat.shown()).toEqual([{ text: '⚠️ The answer was cut off.', done: true }]);
    } finally {
      await chat.close();
    }
  });
});
