import { WebClient } from '@slack/web-api';
import { from, lastValueFrom, toArray } from 'rxjs';
import type { MessageEdit } from '../../../src/channels/messageEditPlanner';
import { deliver } from '../../../src/delivery/deliver';
import { slackTransport } from '../../../src/platforms/slack/slackTransport';
import { startFakeSlackApi, type FakeSlackApi } from '../../helpers/slack/fakeSlackApi';

// The Web API client a bot already has (@slack/web-api's WebClient, pointed at the fake with
// its `slackApiUrl` option) instead of a token: the same calls and the same texts.
const token = 'xoxb-SECRET-client-token';
const channel = 'C0CLIENT';
const threadTs = '1699999999.000001';
const recipients = { recipientUserId: 'U0USER', recipientTeamId: 'T0TEAM' };
const edits: MessageEdit[] = [
  { op: 'send', message: 0, text: 'Hello **wor' },
  { op: 'edit', message: 0, text: 'Hello **world**' },
  { op: 'send', message: 1, text: 'Second message.' },
];

describe('slackTransport({ client: WebClient })', () => {
  let api: FakeSlackApi | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });
  const start = async (faults: Record<number, 'rate-limit'> = {}) =>
    (api = await startFakeSlackApi({
      token,
      channels: [channel],
      minIntervalMs: 0,
      forcedRetryAfterSeconds: 1,
      fault: (n) => faults[n],
    }));
  const webClient = (base: string) =>
    new WebClient(token, {
      slackApiUrl: `${base}/api/`,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
    });
  const run = (transport: ReturnType<typeof slackTransport>) =>
    lastValueFrom(from(edits).pipe(deliver(transport, { minIntervalMs: 0 }), toArray()));
  const shown = (fake: FakeSlackApi) => ({
    byMethod: fake.counts.byMethod,
    texts: (fake.channels.get(channel) ?? []).map((message) => message.text),
  });

  for (const mode of ['update', 'stream'] as const) {
    it(`mode '${mode}': the same calls and final texts as with a token`, async () => {
      const options = { channel, mode, threadTs, ...recipients, minIntervalMs: 0 };
      const first = await start();
      await run(slackTransport({ token, apiBase: first.apiBase, ...options }));
      const withToken = shown(first);
      await first.close();
      const second = await start();
      const reports = await run(slackTransport({ client: webClient(second.apiBase), ...options }));
      expect(shown(second)).toEqual(withToken);
      expect(withToken.texts.length).toBe(2);
      expect(reports.filter((report) => report.type === 'delivery-failed')).toEqual([]);
    });
  }

  it("WebClient's rate-limit error (retryAfter) waits it; a platform error by data.error is permanent", async () => {
    const fake = await start({ 0: 'rate-limit' });
    const reports = await run(
      slackTransport({
        client: webClient(fake.apiBase),
        channel,
        mode: 'update',
        minIntervalMs: 0,
      }),
    );
    expect(reports[0]).toMatchObject({ type: 'retrying', reason: 'retry-after', delayMs: 1000 });
    expect(shown(fake).texts.length).toBe(2);
    const lost = await lastValueFrom(
      from(edits.slice(0, 1)).pipe(
        deliver(
          slackTransport({ client: webClient(fake.apiBase), channel: 'C0NOWHERE', mode: 'update' }),
        ),
        toArray(),
      ),
    );
    expect(lost).toMatchObject([
      {
        type: 'delivery-failed',
        error: {
          message:
            'deliver: the send of message 0 failed after 1 attempt: Slack chat.postMessage: channel_not_found',
        },
      },
    ]);
  }, 10_000);
});
