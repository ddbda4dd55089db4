import { lastValueFrom, tap, toArray } from 'rxjs';
import { channel } from '../../../src/channels/channel';
import { isMessageEdit, type MessageEdit } from '../../../src/channels/messageEditPlanner';
import { toMessageEdits } from '../../../src/channels/toMessageEdits';
import { deliver } from '../../../src/delivery/deliver';
import {
  slackTransport,
  type SlackTransportOptions,
} from '../../../src/platforms/slack/slackTransport';
import type { DeliveryReport } from '../../../src/delivery/types';
import { renderMarkdown } from '../../../src/render/renderMarkdown';
import { streamEvents } from '../../../src/streamEvents';
import { describeCorpus, type Capture } from '../../helpers/corpus';
import { seededRandom } from '../../helpers/seededRandom';
import { startFakeSlackApi } from '../../helpers/slack/fakeSlackApi';
import { expectFencedRotations } from '../../helpers/slack/fenceLines';

const token = 'xoxb-SECRET-capture-token';
const channelId = 'C0CAPTURE';
const threadTs = '1699999999.000042';
const recipients = { recipientUserId: 'U0USER', recipientTeamId: 'T0TEAM' };

/** The capture's bytes one SSE event every `everyMs`, as a model streams them. */
function pacedBody(sse: string, everyMs: number): ReadableStream<Uint8Array> {
  const events = sse.split(/(?<=\n\n)/);
  const encoder = new TextEncoder();
  let next = 0;
  return new ReadableStream({
    async pull(controller) {
      if (next >= events.length) return controller.close();
      await new Promise((resolve) => setTimeout(resolve, everyMs));
      controller.enqueue(encoder.encode(events[next++]));
    },
  });
}

/**
 * The capture through the whole pipeline (small blocks: many appends) into `deliver`; returns
 * the edits `toMessageEdits` planned and the reports.
 */
async function runPipeline(capture: Capture, slack: ReturnType<typeof slackTransport>) {
  const edits: MessageEdit[] = [];
  const reports: DeliveryReport[] = await lastValueFrom(
    streamEvents(new Response(pacedBody(capture.sse, 4))).pipe(
      channel('slack', { minChars: 200, maxChars: 600 }),
      toMessageEdits({ maxMessageChars: slack.maxMessageChars }),
      tap((step) => isMessageEdit(step) && edits.push(step)),
      deliver(slack, { backoffMs: 2 }),
      toArray(),
    ),
  );
  return { edits, reports };
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

/** Delivers the capture through `deliver` and the transport, against a faulty fake. */
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
      minIntervalMs: 2,
      ...options,
    });
    const { edits, reports } = await runPipeline(capture, slack);
    expect(reports.filter((report) => report.type === 'delivery-failed')).toEqual([]);
    expect(JSON.stringify(reports)).not.toContain('SECRET');
    const finished = reports.filter((report) => report.type === 'finished');
    expect(finished.map((report) => report.message)).toEqual(finalsOf(edits).map((_, i) => i));
    return { edits, reports, held: api.channels.get(channelId)!, api };
  } finally {
    await api.close();
  }
}

describeCorpus('deliver(slackTransport) delivers a long real capture', (captures) => {
  const capture = captures.find((c) => c.name.includes('long-markdown-tables-codefences'))!;

  it(`streams ${capture.name}: the appends are the final text exactly, one stop per stream`, async () => {
    const { edits, held, api } = await deliverCapture(capture, {}, {}, 1);
    const finals = finalsOf(edits);
    expect(finals.join('').length).toBeGreaterThan(5000);
    expect(edits.length).toBeGreaterThan(10);
    // A message over the stream's byte budget (9,000) goes on in a new stream, after a line
    // (inside a code block: the part closes it and the next reopens it).
    const reads = expectFencedRotations(held, finals);
    for (const { shares } of reads)
      for (const share of shares.slice(0, -1)) expect(share.endsWith('\n')).toBe(true);
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
      expectFencedRotations(held, finals);
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
    if ('streamLifetimeMs' in fake) {
      // A stream Slack ended goes on in a new stream with the text it had not confirmed: the
      // markdown arrives whole, nothing repeated, over more Slack messages (a part that starts
      // inside a code block reopens it; one Slack closed could take no closer).
      expectFencedRotations(held, finals);
    } else {
      expect(held.map((m) => m.text)).toEqual(finals.map(mrkdwn));
    }
    expect(held.every((m) => m.stream !== 'streaming')).toBe(true);
    const fallbacks = api.rejected.filter((code) => code.startsWith('m'));
    if (rejected) expect(fallbacks).toEqual(rejected);
    else expect(fallbacks.length).toBeGreaterThanOrEqual(finals.length);
  });
});

describeCorpus('deliver(slackTransport) honours Retry-After', (captures) => {
  const capture = captures.find((c) => c.name.includes('long-markdown-tables-codefences'))!;

  it('waits at least Retry-After after a 429 on each stream method', async () => {
    const requestedAt: number[] = [];
    const seen = new Map<string, number>();
    const forced = new Set<number>();
    const { held, api, reports } = await deliverCapture(
      capture,
      {
        forcedRetryAfterSeconds: 0.06,
        // Only the forced 429s: no pacing or tier limit can add one.
        minIntervalMs: 0,
        tierWindowMs: 60000,
        latencyMs: () => 0,
        // The first call of each method, and the third append, answer 429 once.
        fault: (n, method) => {
          requestedAt[n] = performance.now();
          const count = (seen.get(method) ?? 0) + 1;
          seen.set(method, count);
          if (count !== 1 && !(method === 'chat.appendStream' && count === 3)) return undefined;
          forced.add(n);
          return 'rate-limit';
        },
      },
      {},
      5,
    );
    expect(forced.size).toBe(4);
    for (const n of forced) expect(requestedAt[n + 1] - requestedAt[n]).toBeGreaterThanOrEqual(55);
    const waits = reports.filter((r) => r.type === 'retrying' && r.reason === 'retry-after');
    expect(waits.map((r) => (r as { delayMs: number }).delayMs)).toEqual([60, 60, 60, 60]);
    expect(held.map((m) => [m.stream, m.stops])).toEqual(held.map(() => ['stopped', 1]));
    expect([...seen.keys()].sort()).toEqual([
      'chat.appendStream',
      'chat.startStream',
      'chat.stopStream',
    ]);
    expect(api.counts.rateLimited).toBe(4);
  });
});
