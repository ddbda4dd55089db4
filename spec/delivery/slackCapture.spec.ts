import { lastValueFrom, toArray } from 'rxjs';
import { channel } from '../../src/channels/channel';
import type { MessageEdit } from '../../src/channels/messageEditPlanner';
import { toMessageEdits } from '../../src/channels/toMessageEdits';
import { slackTransport, type SlackTransportOptions } from '../../src/delivery/slackTransport';
import { renderMarkdown } from '../../src/render/renderMarkdown';
import { streamEvents } from '../../src/streamEvents';
import { describeCorpus, type Capture } from '../helpers/corpus';
import { seededRandom } from '../helpers/deliveryChecks';
import { callInOrder, startFakeSlackApi } from '../helpers/fakeSlackApi';

const token = 'xoxb-SECRET-capture-token';
const channelId = 'C0CAPTURE';
const threadTs = '1699999999.000042';
const recipients = { recipientUserId: 'U0USER', recipientTeamId: 'T0TEAM' };

/** The whole-text edits `toMessageEdits` plans for a capture (small blocks: many appends). */
async function planEdits(capture: Capture, maxMessageChars: number): Promise<MessageEdit[]> {
  return lastValueFrom(
    streamEvents(new Response(capture.sse)).pipe(
      channel('slack', { minChars: 200, maxChars: 600 }),
      toMessageEdits({ maxMessageChars }),
      toArray(),
    ),
  );
}

/** The final markdown of every planned message, in order. */
const finalsOf = (edits: MessageEdit[]) => [
  ...new Map(edits.map((edit) => [edit.message, edit.text])).values(),
];

/** What a posted message shows for `markdown` (the transport's mrkdwn). */
const mrkdwn = (markdown: string) =>
  renderMarkdown(markdown, 'slack', { maxLength: 40000 })
    .map((message) => message.text)
    .join('\n\n');

/** Delivers the capture's edits straight through the transport, against a faulty fake. */
async function deliverCapture(
  capture: Capture,
  fake: Partial<Parameters<typeof startFakeSlackApi>[0]>,
  options: Partial<SlackTransportOptions>,
  seed: number,
) {
  const random = seededRandom(seed);
  const api = await startFakeSlackApi({
    token,
    channels: [channelId],
    minIntervalMs: 2,
    tierWindowMs: 100,
    latencyMs: () => 1 + Math.floor(random() * 4),
    fault: (n) => (n % 13 === 7 ? 'rate-limit' : n % 17 === 11 ? 'server-error' : undefined),
    ...fake,
  });
  try {
    const slack = slackTransport({
      token,
      channel: channelId,
      threadTs,
      ...recipients,
      apiBase: api.apiBase,
      ...options,
    });
    const edits = await planEdits(capture, slack.maxMessageChars);
    await callInOrder(slack, edits);
    return { edits, held: api.channels.get(channelId)!, api };
  } finally {
    await api.close();
  }
}

describeCorpus('slackTransport delivers a long real capture', (captures) => {
  const capture = captures.find((c) => c.name.includes('long-markdown-tables-codefences'))!;

  it(`streams ${capture.name}: the appends are the final text exactly, one stop per stream`, async () => {
    const { edits, held, api } = await deliverCapture(capture, {}, {}, 1);
    const finals = finalsOf(edits);
    expect(finals.join('').length).toBeGreaterThan(5000);
    expect(edits.length).toBeGreaterThan(10);
    expect(held.map((m) => m.text)).toEqual(finals);
    for (const message of held) {
      expect(message.chunks!.join('')).toBe(message.text);
      expect([message.stream, message.stops, message.threadTs]).toEqual(['stopped', 1, threadTs]);
    }
    expect(api.counts.byMethod['chat.appendStream']).toBeGreaterThan(5);
    expect(api.counts.byMethod['chat.update']).toBeUndefined();
    expect(api.counts.rateLimited).toBeGreaterThan(0);
  });

  it.each([1, 2, 3])(
    'with a small maxStreamMs, continues in new streams and loses or repeats nothing (seed %i)',
    async (seed) => {
      const { edits, held, api } = await deliverCapture(capture, {}, { maxStreamMs: 15 }, seed);
      const finals = finalsOf(edits);
      expect(held.length).toBeGreaterThan(finals.length);
      expect(held.map((m) => m.text).join('')).toBe(finals.join(''));
      expect(held.every((m) => m.stream === 'stopped' && m.stops === 1)).toBe(true);
      expect(held.every((m) => m.chunks!.join('') === m.text)).toBe(true);
      expect(api.rejected).not.toContain('message_not_in_streaming_state');
    },
  );

  it.each([
    ['without threadTs', {}, { threadTs: undefined }, []],
    ['without recipient ids', {}, { recipientUserId: undefined }, ['missing_recipient_user_id']],
    ['when every stream expires at once', { streamLifetimeMs: 0 }, {}, undefined],
  ] as const)('falls back %s and delivers the final text', async (_, fake, options, rejected) => {
    const { edits, held, api } = await deliverCapture(capture, fake, options, 4);
    const finals = finalsOf(edits);
    expect(held.map((m) => m.text)).toEqual(finals.map(mrkdwn));
    expect(held.every((m) => m.stream !== 'streaming')).toBe(true);
    const fallbacks = api.rejected.filter((code) => code.startsWith('m'));
    if (rejected) expect(fallbacks).toEqual(rejected);
    else expect(fallbacks.length).toBe(finals.length);
  });
});
