// Slack's leases and limits as Slack behaves: a stream ends near 11 KB of UTF-8 (undocumented),
// a posted text over 40,000 characters is refused: every reply still arrives whole, once.
import type { MessageEdit } from '../../../src/channels/messageEditPlanner';
import type { DeliveryWarning } from '../../../src/delivery/types';
import {
  slackTransport,
  type SlackTransportOptions,
} from '../../../src/platforms/slack/slackTransport';
import { callInOrder } from '../../helpers/slack/callInOrder';
import { startFakeSlackApi, type FakeSlackApi } from '../../helpers/slack/fakeSlackApi';
import { transportCall } from '../../helpers/transportCall';

const token = 'xoxb-SECRET-leases-token';
const channel = 'C0LEASES';
const threadTs = '1699999999.000001';
const recipients = { recipientUserId: 'U0USER', recipientTeamId: 'T0TEAM' };
const edit = (message: number, text: string): MessageEdit => ({ op: 'edit', message, text });
const bytes = (text: string) => Buffer.byteLength(text);

/** A 20 KB reply of ASCII, accented letters and emoji, as the whole-text edits that grow it. */
function twentyKilobyteReply() {
  const sentences = Array.from(
    { length: 480 },
    (_, i) => `Sentence ${i}: café, naïve, 🙂 — **${i % 7}**. `,
  );
  let text = '';
  const edits: MessageEdit[] = [];
  for (const [i, sentence] of sentences.entries()) {
    text += sentence;
    if (i % 9 === 8 || i === sentences.length - 1) edits.push(edit(0, text));
  }
  return { text, edits };
}

describe('slackTransport against a Slack that ends streams at 11,000 bytes', () => {
  let api: FakeSlackApi;
  afterEach(() => api?.close());
  const start = async (streamCapAnswer: 'msg_too_long' | 'message_not_in_streaming_state') => {
    api = await startFakeSlackApi({
      token,
      channels: [channel],
      minIntervalMs: 0,
      streamByteCap: 11000,
      streamCapAnswer,
    });
  };
  const transport = (options: Partial<SlackTransportOptions> = {}) =>
    slackTransport({ token, channel, threadTs, ...recipients, apiBase: api.apiBase, ...options });
  const held = () => api.channels.get(channel) ?? [];

  it.each([
    ['msg_too_long', 'slack-stream-too-long'],
    ['message_not_in_streaming_state', 'slack-stream-expired'],
  ] as const)(
    'a budget above the cap: each %s continues the unconfirmed text in a new message, whole and once',
    async (answer, warning) => {
      await start(answer);
      const { text, edits } = twentyKilobyteReply();
      expect(bytes(text)).toBeGreaterThan(20000);
      const warnings: DeliveryWarning[] = [];
      await callInOrder(transport({ maxStreamBytes: 48000 }), edits, warnings);
      const messages = held();
      expect(messages.map((m) => m.text).join('')).toBe(text);
      expect(messages.length).toBeGreaterThanOrEqual(2);
      expect(messages.every((m) => bytes(m.text) <= 11000)).toBe(true);
      // Every stream a stop ended, or the cap (a stream the cap ended keeps what it showed).
      expect(messages.map((m) => m.stream)).toEqual([
        ...messages.slice(0, -1).map(() => expect.stringMatching(/^(stopped|expired)$/)),
        'stopped',
      ]);
      const refused = api.rejected.filter((code) => code === answer);
      expect(warnings.filter((w) => w.code === warning)).toHaveLength(refused.length);
      // msg_too_long teaches the transport the cap: one refusal. The other answer says no more.
      if (answer === 'msg_too_long') expect(refused).toHaveLength(1);
      else expect(refused).toHaveLength(messages.length - 1);
      expect(api.rejected.filter((code) => code !== answer)).toEqual([]);
    },
  );

  it('with the defaults (9,000 bytes) the cap is never hit: rotated, each with a warning', async () => {
    await start('msg_too_long');
    const { text, edits } = twentyKilobyteReply();
    const warnings: DeliveryWarning[] = [];
    await callInOrder(transport(), edits, warnings);
    const messages = held();
    expect(api.rejected).toEqual([]);
    expect(messages.map((m) => m.text).join('')).toBe(text);
    expect(messages.length).toBe(Math.ceil(bytes(text) / 9000));
    expect(messages.slice(0, -1).every((m) => bytes(m.text) > 8990)).toBe(true);
    expect(messages.every((m) => bytes(m.text) <= 9000 && m.stops === 1)).toBe(true);
    expect(warnings.map((w) => w.code)).toEqual(
      messages.slice(1).map(() => 'slack-stream-rotated'),
    );
  });

  it('a first chunk Slack refuses as too long is streamed in halves', async () => {
    await start('msg_too_long');
    const text = 'é'.repeat(7000); // 14,000 bytes in one edit
    const call = transportCall();
    const slack = transport({ maxStreamBytes: 48000 });
    await slack.finish(await slack.send(edit(0, text), call), edit(0, text), call);
    expect(held().map((m) => m.text.length)).toEqual([3500, 3500]);
    expect(api.rejected).toEqual(['msg_too_long']);
    expect(call.warnings.map((w) => w.code)).toEqual([
      'slack-stream-too-long',
      'slack-stream-rotated',
    ]);
  });

  it('the fake refuses markdown_text with chunks, as Slack documents', async () => {
    await start('msg_too_long');
    const response = await fetch(`${api.apiBase}/api/chat.startStream`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        channel,
        thread_ts: threadTs,
        ...{ recipient_user_id: 'U0USER', recipient_team_id: 'T0TEAM' },
        markdown_text: 'a',
        chunks: [{ type: 'markdown_text', text: 'a' }],
      }),
    });
    expect(await response.json()).toEqual({ ok: false, error: 'invalid_arguments' });
  });
});

describe('slackTransport posting a text over 40,000 characters', () => {
  let api: FakeSlackApi;
  afterEach(() => api?.close());

  it('a 45,000-character reply goes out as messages of at most 40,000, nothing lost', async () => {
    api = await startFakeSlackApi({ token, channels: [channel], minIntervalMs: 0 });
    const lines = Array.from({ length: 1650 }, (_, i) => `Line ${i} has *bold* word.`);
    const markdown = lines.map((line) => line.replace(/\*(\w+)\*/, '**$1**')).join('\n');
    expect(markdown.length).toBeGreaterThan(45000);
    const slack = slackTransport({ token, channel, apiBase: api.apiBase });
    const warnings: DeliveryWarning[] = [];
    await callInOrder(slack, [edit(0, markdown.slice(0, 1000)), edit(0, markdown)], warnings);
    const messages = api.channels.get(channel) ?? [];
    expect(messages.length).toBe(2);
    expect(messages.every((m) => m.text.length <= 40000)).toBe(true);
    expect(messages.flatMap((m) => m.text.split('\n'))).toEqual(lines);
    expect(api.rejected).toEqual([]);
    expect(warnings.map((w) => w.code)).toEqual(['slack-posted-split']);
  });
});
