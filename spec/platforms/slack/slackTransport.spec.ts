import { DeliveryError } from '../../../src/delivery/errors';
import { slackTransport } from '../../../src/platforms/slack/slackTransport';
import { startFakeSlackApi, type FakeSlackApi } from '../../helpers/slack/fakeSlackApi';
import { rejectionOf, transportCall } from '../../helpers/transportCall';

const token = 'xoxb-SECRET-slack-token';
const channel = 'C0123';

describe('slackTransport against a fake Slack Web API', () => {
  let api: FakeSlackApi;
  let faults: Array<'rate-limit' | 'server-error' | undefined> = [];
  beforeEach(async () => {
    faults = [];
    api = await startFakeSlackApi({
      token,
      channels: [channel],
      minIntervalMs: 0,
      fault: (n) => faults[n],
    });
  });
  afterEach(() => api.close());

  const transport = (options: Partial<Parameters<typeof slackTransport>[0]> = {}) =>
    slackTransport({ token, channel, apiBase: api.apiBase, ...options });

  it('posts mrkdwn, then updates it, rendering markdown the edit did not render; the reference is the ts', async () => {
    const slack = transport();
    const ts = await slack.send(
      {
        op: 'send',
        message: 0,
        text: '**Hi**',
        rendered: { text: '*Hi*', format: 'slack', plain: 'Hi' },
      },
      transportCall(),
    );
    const after = await slack.edit(
      ts,
      { op: 'edit', message: 0, text: '**Hi** all & <you>' },
      transportCall(),
    );
    expect([ts, after]).toEqual(['1700000001.000100', '1700000001.000100']);
    expect(api.channels.get(channel)).toEqual([
      { ts, text: '*Hi* all &amp; &lt;you&gt;', history: ['*Hi*', '*Hi* all &amp; &lt;you&gt;'] },
    ]);
  });

  it("with format 'plain', posts the visible text with mrkdwn off", async () => {
    const requests: any[] = [];
    const spy: typeof fetch = async (url, init) => {
      requests.push(JSON.parse(String(init?.body)));
      return fetch(url, init);
    };
    const slack = transport({ format: 'plain', fetch: spy });
    await slack.send({ op: 'send', message: 0, text: '**Hi** _there_' }, transportCall());
    expect(requests).toEqual([{ channel, text: 'Hi there', mrkdwn: false }]);
  });

  it('an edit with nothing new makes no call', async () => {
    const slack = transport();
    const ts = await slack.send({ op: 'send', message: 0, text: 'same' }, transportCall());
    await slack.edit(ts, { op: 'edit', message: 0, text: 'same' }, transportCall());
    await slack.finish(ts, { op: 'edit', message: 0, text: 'same' }, transportCall());
    expect(api.counts.byMethod).toEqual({ 'chat.postMessage': 1 });
  });

  it('turns a 429 into retryAfterMs from the Retry-After header', async () => {
    faults[0] = 'rate-limit';
    const error = await rejectionOf(
      transport().send({ op: 'send', message: 0, text: 'x' }, transportCall()),
    );
    expect(error).toBeInstanceOf(DeliveryError);
    expect([error.status, error.retryAfterMs, error.message]).toEqual([
      429,
      10,
      'Slack chat.postMessage: 429 ratelimited',
    ]);
  });

  it.each([
    ['invalid_auth', { token: 'xoxb-OTHER-SECRET' }],
    ['channel_not_found', { channel: 'C-missing' }],
  ])('makes %s permanent, never printing the token', async (code, options) => {
    const error = await rejectionOf(
      transport(options).send({ op: 'send', message: 0, text: 'x' }, transportCall()),
    );
    expect([error.permanent, error.message]).toEqual([true, `Slack chat.postMessage: 200 ${code}`]);
  });

  it('makes message_not_found permanent on update', async () => {
    const error = await rejectionOf(
      transport().edit('1.2', { op: 'edit', message: 0, text: 'x' }, transportCall()),
    );
    expect([error.permanent, error.message]).toEqual([
      true,
      'Slack chat.update: 200 message_not_found',
    ]);
  });

  it('retries internal_error (HTTP 500)', async () => {
    faults[0] = 'server-error';
    const error = await rejectionOf(
      transport().send({ op: 'send', message: 0, text: 'x' }, transportCall()),
    );
    expect([error.status, error.permanent]).toEqual([500, false]);
  });

  it('scrubs the token from anything fetch says', async () => {
    const leaky: typeof fetch = async (_url, init) => {
      throw new Error(`refused ${JSON.stringify(init?.headers)}`);
    };
    const error = await rejectionOf(
      slackTransport({ token, channel, fetch: leaky }).send(
        { op: 'send', message: 0, text: 'x' },
        transportCall(),
      ),
    );
    expect(error.message).toBe(
      'Slack chat.postMessage: the request failed (refused {"content-type":"application/json; charset=utf-8","authorization":"Bearer ***"})',
    );
  });
});
