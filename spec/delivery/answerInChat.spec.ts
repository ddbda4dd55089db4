// Issue 37 acceptance: every way an answer ends reaches the chat of each app (fakes on
// 127.0.0.1): one `answer` report with its outcome, a notice in the chat unless it completed,
// nothing at all for NO_REPLY, and one failed call for a wrong token.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lastValueFrom, toArray } from 'rxjs';
import { channel } from '../../src/channels/channel';
import { toMessageEdits } from '../../src/channels/toMessageEdits';
import { deliver } from '../../src/delivery/deliver';
import type { AnswerReport, DeliveryReport, DeliveryTransport } from '../../src/delivery/types';
import { discordTransport } from '../../src/platforms/discord/discordTransport';
import { slackTransport } from '../../src/platforms/slack/slackTransport';
import { teamsTransport } from '../../src/platforms/teams/teamsTransport';
import { telegramTransport } from '../../src/platforms/telegram/telegramTransport';
import { streamEvents } from '../../src/streamEvents';
import { startFakeDiscordApi } from '../helpers/discord/fakeDiscordApi';
import { startFakeSlackApi } from '../helpers/slack/fakeSlackApi';
import { startFakeTeamsApi } from '../helpers/teams/fakeTeamsApi';
import { startFakeBotApi } from '../helpers/telegram/fakeBotApi';

const fixture = (name: string) => readFileSync(join(__dirname, '../../fixtures', name), 'utf8');
const sse = (payloads: object[]) =>
  payloads
    .map((p) => `event: ${(p as { type: string }).type}\ndata: ${JSON.stringify(p)}\n\n`)
    .join('');
const start = { type: 'message_start', message: { id: 'msg_a', model: 'm', usage: {} } };
const textStart = {
  type: 'content_block_start',
  index: 0,
  content_block: { type: 'text', text: '' },
};
const delta = (text: string) => ({
  type: 'content_block_delta',
  index: 0,
  delta: { type: 'text_delta', text },
});
const PARTIAL = 'The first part of the answer, which the model had written.';

/** How each case makes its Response, what the answer report says, and the notice shown. */
const cases: Array<{
  name: string;
  response: () => Response;
  abortAfterMs?: number;
  report: Partial<AnswerReport>;
  notice: string;
  text?: string;
}> = [
  {
    name: 'a stream cut before its end',
    response: () => new Response(sse([start, textStart, delta(PARTIAL)])),
    report: { outcome: 'failed', reason: 'stream-closed' },
    notice: '⚠️ The answer was cut off.',
    text: PARTIAL,
  },
  {
    name: 'an Anthropic `event: error` mid-stream',
    response: () => new Response(fixture('anthropic/overloaded-error-mid-stream.sse')),
    report: { outcome: 'failed', reason: 'overloaded_error' },
    // (the code's `_` is escaped in markdown: each app shows it as it renders markdown)
    notice: '⚠️ The answer failed (overloaded',
    text: 'Let me think about that',
  },
  {
    name: 'an abort mid-stream',
    response: () => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(sse([start, textStart, delta(PARTIAL)])));
        },
      });
      return new Response(body);
    },
    abortAfterMs: 50,
    report: { outcome: 'incomplete', reason: 'aborted' },
    notice: '⚠️ The answer was cut off.',
    text: PARTIAL,
  },
  {
    name: 'a 502 HTML page before any text',
    response: () =>
      new Response('<html><body><h1>502 Bad Gateway</h1></body></html>', {
        status: 502,
        headers: { 'content-type': 'text/html' },
      }),
    report: { outcome: 'failed', reason: 'http-error' },
    notice: '⚠️ The model did not answer (HTTP 502).',
  },
  {
    name: 'a 200 HTML page instead of a stream',
    response: () =>
      new Response('<!doctype html><html><body>Please log in</body></html>', {
        status: 200,
        headers: { 'content-type': 'text/html' },
      }),
    report: { outcome: 'failed', reason: 'unexpected-body' },
    notice: '⚠️ The model did not answer (its reply was not a stream).',
  },
  {
    name: 'the length limit',
    response: () => new Response(fixture('anthropic/max-tokens-no-message-stop.sse')),
    report: { outcome: 'incomplete', reason: 'length' },
    notice: '… (cut at the length limit)',
  },
];

interface Platform {
  name: 'telegram' | 'slack' | 'discord' | 'msteams';
  /** A fake of the app, a transport to it (`token` as given), and what its chat shows. */
  open(token?: string): Promise<{
    transport: DeliveryTransport<any>;
    shown(): string[];
    requests(): number;
    close(): Promise<void>;
  }>;
}

const TOKEN = 'RIGHT-SECRET-TOKEN';
const platforms: Platform[] = [
  {
    name: 'telegram',
    async open(token = TOKEN) {
      const api = await startFakeBotApi({ token: TOKEN, minIntervalMs: 0, knownChats: ['7'] });
      const transport = telegramTransport({ token, chatId: 7, mode: 'edit', apiBase: api.apiBase });
      return {
        transport,
        shown: () => (api.chats.get('7') ?? []).map((m) => m.text),
        requests: () => api.counts.requests,
        close: api.close,
      };
    },
  },
  {
    name: 'slack',
    async open(token = TOKEN) {
      const api = await startFakeSlackApi({ token: TOKEN, channels: ['C1'], minIntervalMs: 0 });
      const transport = slackTransport({
        token,
        channel: 'C1',
        threadTs: '1699999999.000001',
        recipientUserId: 'U1',
        recipientTeamId: 'T1',
        apiBase: api.apiBase,
        minIntervalMs: 0,
      });
      return {
        transport,
        shown: () => (api.channels.get('C1') ?? []).map((m) => m.text),
        requests: () => api.counts.requests,
        close: api.close,
      };
    },
  },
  {
    name: 'discord',
    async open(token = TOKEN) {
      const api = await startFakeDiscordApi({ token: TOKEN, channels: ['42'] });
      const transport = discordTransport({ token, channelId: '42', apiBase: api.apiBase });
      return {
        transport,
        shown: () => (api.channels.get('42') ?? []).map((m) => m.text),
        requests: () => api.counts.requests,
        close: api.close,
      };
    },
  },
  {
    name: 'msteams',
    async open(token = TOKEN) {
      const api = await startFakeTeamsApi({
        token: TOKEN,
        conversations: { 'a:1': { personal: true } },
        minStreamIntervalMs: 5,
      });
      const transport = teamsTransport({
        serviceUrl: api.serviceUrl,
        conversationId: 'a:1',
        token,
        minIntervalMs: 10,
      });
      return {
        transport,
        shown: () => api.messages('a:1').map((m) => m.text),
        requests: () => api.counts.requests,
        close: api.close,
      };
    },
  },
];

async function answer(
  platform: Platform['name'],
  transport: DeliveryTransport<any>,
  response: Response,
  abortAfterMs?: number,
): Promise<DeliveryReport[]> {
  const controller = new AbortController();
  const timer =
    abortAfterMs === undefined ? undefined : setTimeout(() => controller.abort(), abortAfterMs);
  try {
    return await lastValueFrom(
      streamEvents(response, { signal: controller.signal }).pipe(
        channel(platform),
        toMessageEdits({ maxMessageChars: transport.maxMessageChars ?? 4000 }),
        deliver(transport, { backoffMs: 5 }),
        toArray(),
      ),
    );
  } finally {
    clearTimeout(timer);
  }
}

describe.each(platforms)('the answer reaches the $name chat', (platform) => {
  it.each(cases)('$name: one answer report, and the notice in the chat', async (c) => {
    const chat = await platform.open();
    try {
      const reports = await answer(platform.name, chat.transport, c.response(), c.abortAfterMs);
      const answers = reports.filter((r) => r.type === 'answer');
      expect(answers).toHaveLength(1);
      expect(reports.at(-1)).toMatchObject({ ...c.report, delivered: true });
      expect(reports.filter((r) => r.type === 'delivery-failed')).toEqual([]);
      const shown = chat.shown();
      expect(shown.length).toBeGreaterThan(0);
      const last = shown.at(-1)!;
      expect(last).toContain(c.notice);
      if (c.text) expect(shown.join('\n')).toContain(c.text);
      // Never a provider's page: no markup reaches the chat.
      expect(shown.join('\n')).not.toMatch(/<html|<body|Bad Gateway|Please log in/);
    } finally {
      await chat.close();
    }
  });

  it('NO_REPLY: the answer is silent and no call is made', async () => {
    const chat = await platform.open();
    try {
      const body = sse([
        start,
        textStart,
        delta('NO_'),
        delta('REPLY'),
        { type: 'content_block_stop', index: 0 },
        { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: {} },
        { type: 'message_stop' },
      ]);
      const reports = await answer(platform.name, chat.transport, new Response(body));
      expect(reports).toEqual([
        { type: 'answer', outcome: 'silent', messages: 0, delivered: true },
      ]);
      expect(chat.requests()).toBe(0);
    } finally {
      await chat.close();
    }
  });

  it('a wrong token: one delivery-failed, no further call, the answer undelivered', async () => {
    const chat = await platform.open('WRONG-TOKEN');
    try {
      const long = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} of a long answer.`);
      const body = sse([start, textStart, ...long.map((p) => delta(`${p}\n\n`))]);
      const reports = await answer(platform.name, chat.transport, new Response(body));
      const failed = reports.filter((r) => r.type === 'delivery-failed');
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({ permanent: true, attempts: 1 });
      expect(chat.requests()).toBe(1);
      expect(reports.at(-1)).toMatchObject({ type: 'answer', delivered: false, messages: 0 });
      expect(JSON.stringify(reports)).not.toContain('TOKEN');
    } finally {
      await chat.close();
    }
  });
});
