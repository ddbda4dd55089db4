import { concatMap, delay, lastValueFrom, of, tap, toArray } from 'rxjs';
import { channel } from '../../../src/channels/channel';
import { isMessageEdit, type MessageEdit } from '../../../src/channels/messageEditPlanner';
import { toMessageEdits } from '../../../src/channels/toMessageEdits';
import { deliver } from '../../../src/delivery/deliver';
import {
  discordPieces,
  discordTransport,
  type DiscordMessageRef,
} from '../../../src/platforms/discord/discordTransport';
import type { DeliveryReport } from '../../../src/delivery/types';
import type { RenderFormat } from '../../../src/render/types';
import { streamEvents } from '../../../src/streamEvents';
import { describeCorpus } from '../../helpers/corpus';
import { expectDeliveredAsPlanned } from '../../helpers/deliveryChecks';
import { startFakeDiscordApi, type FakeDiscordApi } from '../../helpers/discord/fakeDiscordApi';

const token = 'MTA-PIPELINE-DISCORD-SECRET';
const channelId = '2200';
const bucket = { bucketLimit: 2, bucketWindowMs: 120 };

/** streamEvents → channel('discord') → toMessageEdits → deliver(discordTransport), blocks paced. */
async function deliverToDiscord(
  sse: string,
  api: FakeDiscordApi,
  { render, blockGapMs = 15 }: { render?: RenderFormat; blockGapMs?: number },
) {
  const transport = discordTransport({ token, channelId, apiBase: api.apiBase });
  const refs = new Map<number, DiscordMessageRef>();
  const recorded = {
    ...transport,
    send: async (edit: MessageEdit, call: Parameters<typeof transport.send>[1]) => {
      const ref = await transport.send(edit, call);
      refs.set(edit.message, ref);
      return ref;
    },
  };
  const planned: MessageEdit[] = [];
  const reports: DeliveryReport[] = await lastValueFrom(
    streamEvents(new Response(sse)).pipe(
      channel('discord'),
      concatMap((event) =>
        event.type === 'block' ? of(event).pipe(delay(blockGapMs)) : of(event),
      ),
      toMessageEdits({ maxMessageChars: transport.maxMessageChars, render }),
      tap((step) => isMessageEdit(step) && planned.push(step)),
      deliver(recorded, { backoffMs: 5 }),
      toArray(),
    ),
  );
  return { planned, reports, refs };
}

/** The final edit of each planned message, in order. */
const finalEdits = (planned: MessageEdit[]) => {
  const last = new Map<number, MessageEdit>();
  for (const edit of planned) last.set(edit.message, edit);
  return [...last.values()];
};

function expectCleanReports(reports: DeliveryReport[], planned: MessageEdit[]) {
  expect(reports.filter((r) => r.type === 'delivery-failed')).toEqual([]);
  expect(JSON.stringify(reports)).not.toContain('SECRET');
  // One finished report per message, with its final text.
  expect(reports.filter((r) => r.type === 'finished').map((r) => r.text)).toEqual(
    finalEdits(planned).map((edit) => edit.text),
  );
}

/**
 * No request hit an empty bucket or a global limit, and each route's requests span at least the
 * windows they needed: a bucket holds `bucketLimit` requests per window (a lower bound only).
 */
function expectBucketsObeyed(api: FakeDiscordApi) {
  expect([api.counts.rateLimited, api.counts.globalViolations]).toEqual([0, 0]);
  for (const route of ['POST messages', 'PATCH message']) {
    const times = api.requests.filter((r) => r.route === route).map((r) => r.at);
    const windows = Math.ceil(times.length / bucket.bucketLimit);
    if (times.length > 0) {
      expect(times.at(-1)! - times[0]).toBeGreaterThanOrEqual(
        (windows - 1) * bucket.bucketWindowMs - 5,
      );
    }
  }
}

describeCorpus(
  'a long real capture through channel(discord) → toMessageEdits → deliver(discordTransport)',
  (captures) => {
    const longest = captures.find((c) => c.name.includes('long-markdown-tables-codefences'))!;
    let api: FakeDiscordApi;
    afterEach(() => api.close());

    it(`Discord holds ${longest.name} rendered, each message within 2000, buckets obeyed`, async () => {
      api = await startFakeDiscordApi({ token, channels: [channelId], ...bucket });
      const { planned, reports } = await deliverToDiscord(longest.sse, api, { render: 'discord' });
      const held = api.channels.get(channelId)!;
      const finals = expectDeliveredAsPlanned(held, planned);
      expect(finals.length).toBeGreaterThanOrEqual(4);
      expect(held.every((m) => m.text.length <= 2000 && !m.deleted)).toBe(true);
      expectBucketsObeyed(api);
      expectCleanReports(reports, planned);
    });

    it(`Discord renders ${longest.name} itself when the edits are not rendered`, async () => {
      api = await startFakeDiscordApi({ token, channels: [channelId], ...bucket });
      const { planned, reports, refs } = await deliverToDiscord(longest.sse, api, {});
      const held = api.channels.get(channelId)!.filter((m) => !m.deleted);
      const expected = finalEdits(planned).flatMap((edit) => discordPieces(edit));
      expect(held.map((m) => m.text)).toEqual(expected);
      expect([...refs.values()].flatMap((ref) => ref.ids)).toEqual(held.map((m) => m.id));
      expect(held.every((m) => m.text.length <= 2000)).toBe(true);
      expectBucketsObeyed(api);
      expectCleanReports(reports, planned);
    });

    it('waits a global 429 out (float retry_after) and still delivers every final text', async () => {
      api = await startFakeDiscordApi({
        token,
        channels: [channelId],
        ...bucket,
        globalRetryAfterSeconds: 0.15,
        fault: (n) => (n === 2 || n === 6 ? 'global-rate-limit' : undefined),
      });
      const { planned, reports } = await deliverToDiscord(longest.sse, api, { render: 'discord' });
      expectDeliveredAsPlanned(api.channels.get(channelId)!, planned);
      expect(api.requests.length).toBeGreaterThan(8);
      expect(api.counts.globalRateLimited).toBe(2);
      expectBucketsObeyed(api);
      const limited = api.requests.findIndex((r) => r.status === 429);
      expect(api.requests[limited + 1].at - api.requests[limited].at).toBeGreaterThanOrEqual(145);
      const retrying = reports.filter((r) => r.type === 'retrying');
      expect(retrying.map((r) => [r.reason, r.delayMs])).toEqual([
        ['retry-after', 150],
        ['retry-after', 150],
      ]);
      expectCleanReports(reports, planned);
    });

    it('a wrong token makes one failed call for the whole answer, never printing it', async () => {
      api = await startFakeDiscordApi({ token: 'MTA-THE-RIGHT-SECRET', channels: [channelId] });
      const { reports } = await deliverToDiscord(longest.sse, api, {
        render: 'discord',
        blockGapMs: 0,
      });
      const failed = reports.filter((r) => r.type === 'delivery-failed');
      expect(failed.map((r) => [r.message, r.error.status, r.attempts, r.permanent])).toEqual([
        [0, 401, 1, true],
      ]);
      expect(api.requests.length).toBe(1);
      expect(reports.at(-1)).toEqual({
        type: 'answer',
        outcome: 'completed',
        messages: 0,
        delivered: false,
      });
      expect(JSON.stringify(reports)).not.toContain('SECRET');
    });
  },
  ['anthropic'],
);
