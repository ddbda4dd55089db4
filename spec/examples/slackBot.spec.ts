import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { answerInSlack, type SlackMention } from '../../examples/slack-bot/answer';
import { collectTurn, renderMarkdown, streamEvents } from '../../src/index';
import { startFakeSlackApi, type FakeSlackApi } from '../helpers/slack/fakeSlackApi';

// docs/slack-bot.md: its example (examples/slack-bot/answer.ts) against the fake Slack Web API.
const token = 'xoxb-GUIDE-SECRET';
const sse = readFileSync(
  join(__dirname, '../../fixtures/demo/openrouter-reasoning-markdown.sse'),
  'utf8',
);
const mention: SlackMention = { channel: 'C1', ts: '1700000000.000100', user: 'U1', team: 'T1' };

describe('docs/slack-bot.md: answerInSlack against the fake Slack API', () => {
  let api: FakeSlackApi;
  let answer: string;
  beforeAll(async () => {
    answer = (await firstValueFrom(streamEvents(new Response(sse)).pipe(collectTurn()))).text;
  });
  beforeEach(async () => {
    api = await startFakeSlackApi({ token, channels: ['C1'], minIntervalMs: 5 });
  });
  afterEach(() => api.close());
  const options = () => ({ token, apiBase: api.apiBase, minIntervalMs: 5 });

  it('streams the whole answer in the thread: one stream, started, appended, stopped once', async () => {
    const reports = await answerInSlack(new Response(sse), mention, options());
    const [message, ...others] = api.channels.get('C1')!;
    expect(others).toEqual([]);
    expect(message).toMatchObject({ threadTs: mention.ts, stream: 'stopped', stops: 1 });
    // A stream takes markdown as the model wrote it; blocks drop only whitespace at their cuts.
    expect(message.text.replace(/\s+/g, '')).toBe(answer.replace(/\s+/g, ''));
    expect(message.chunks!.join('')).toBe(message.text);
    expect(reports.filter((r) => r.type === 'delivery-failed')).toEqual([]);
    expect(reports.filter((r) => r.type === 'finished').length).toBe(1);
    expect(JSON.stringify(reports)).not.toContain(token);
  });

  it('in a thread already: the answer goes under its root', async () => {
    await answerInSlack(
      new Response(sse),
      { ...mention, thread_ts: '1699999999.000001' },
      options(),
    );
    expect(api.channels.get('C1')!.map((m) => m.threadTs)).toEqual(['1699999999.000001']);
  });

  it('an unknown channel: one delivery-failed report, no retries', async () => {
    const reports = await answerInSlack(
      new Response(sse),
      { ...mention, channel: 'C9' },
      options(),
    );
    expect(reports.map((r) => r.type)).toEqual(['delivery-failed', 'answer']);
    expect(reports[1]).toMatchObject({ delivered: false, messages: 0 });
    expect(api.rejected).toEqual(['channel_not_found']);
  });

  it('the same answer posted and updated when streaming is off, as mrkdwn', async () => {
    await answerInSlack(new Response(sse), mention, { ...options(), mode: 'update' });
    const [message] = api.channels.get('C1')!;
    expect(message.stream).toBeUndefined();
    expect(message.text).toBe(renderMarkdown(answer, 'slack', { maxLength: 40000 })[0].text);
  });
});
