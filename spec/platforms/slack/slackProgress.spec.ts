// Tool progress in a Slack stream: task_update chunks for a tool run, never markdown_text and
// chunks in one request, and a final message that holds only the answer.
import { from, lastValueFrom, toArray } from 'rxjs';
import type { MessageEdit, ToolStatus } from '../../../src/channels/messageEditPlanner';
import { channel as channelPipeline } from '../../../src/channels/channel';
import { toMessageEdits } from '../../../src/channels/toMessageEdits';
import { deliver } from '../../../src/delivery/deliver';
import type { StreamEvent } from '../../../src/events';
import { slackTransport } from '../../../src/platforms/slack/slackTransport';
import { startFakeSlackApi, type FakeSlackApi } from '../../helpers/slack/fakeSlackApi';
import { transportCall } from '../../helpers/transportCall';

const token = 'xoxb-SECRET-progress-token';
const channel = 'C0PROGRESS';
const threadTs = '1699999999.000001';
const recipients = { recipientUserId: 'U0USER', recipientTeamId: 'T0TEAM' };
const search = (status: ToolStatus['status']): ToolStatus => ({
  id: 'call_1',
  name: 'web_search',
  status,
});
const edit = (text: string, progress?: ToolStatus[]): MessageEdit => ({
  op: 'edit',
  message: 0,
  text,
  ...(progress ? { progress } : {}),
});

describe('slackTransport tool progress (stream mode)', () => {
  let api: FakeSlackApi;
  let requests: Array<{ method: string; body: any }>;
  beforeEach(async () => {
    requests = [];
    api = await startFakeSlackApi({ token, channels: [channel], minIntervalMs: 0 });
  });
  afterEach(() => api.close());
  const transport = () =>
    slackTransport({ token, channel, threadTs, ...recipients, apiBase: api.apiBase, fetch: spy });
  const spy: typeof fetch = async (input, init) => {
    const method = String(input).split('/api/')[1]!;
    requests.push({ method, body: JSON.parse(String(init?.body)) });
    return fetch(input, init);
  };

  it('shows a tool run as task_update chunks; the final message holds only the answer', async () => {
    const slack = transport();
    const ts = await slack.send(edit('', [search('running')]), transportCall());
    await slack.edit(ts, edit('Found', [search('running')]), transportCall());
    await slack.edit(ts, edit('Found it.', [search('done')]), transportCall());
    await slack.finish!(ts, edit('Found it.', [search('done')]), transportCall());
    const [message] = api.channels.get(channel)!;
    expect(message.text).toBe('Found it.');
    expect(message.stream).toBe('stopped');
    expect(message.taskUpdates).toEqual([
      { id: 'call_1', title: 'web_search', status: 'in_progress' },
      { id: 'call_1', title: 'web_search', status: 'complete' },
    ]);
    expect(requests.map((r) => r.method)).toEqual([
      'chat.startStream',
      'chat.appendStream',
      'chat.appendStream',
      'chat.stopStream',
    ]);
    for (const { body } of requests)
      expect(body.markdown_text !== undefined && body.chunks !== undefined).toBe(false);
    expect(requests[2].body.chunks).toEqual([
      { type: 'markdown_text', text: ' it.' },
      { type: 'task_update', id: 'call_1', title: 'web_search', status: 'complete' },
    ]);
    expect(api.rejected).toEqual([]);
  });

  it('in update mode (no thread) shows no progress and posts the answer alone', async () => {
    const slack = slackTransport({ token, channel, apiBase: api.apiBase, fetch: spy });
    const ref = await slack.send(edit('', [search('running')]), transportCall());
    expect(requests).toEqual([]);
    const ts = await slack.edit(ref, edit('Found it.', [search('done')]), transportCall());
    await slack.finish!(ts ?? ref, edit('Found it.', [search('done')]), transportCall());
    expect(api.channels.get(channel)!.map((m) => m.text)).toEqual(['Found it.']);
    expect(requests.map((r) => r.method)).toEqual(['chat.postMessage']);
    expect(api.rejected).toEqual([]);
  });

  it('the fake rejects markdown_text and chunks in one request, and malformed chunks', async () => {
    const call = async (method: string, body: Record<string, unknown>) =>
      (
        await fetch(`${api.apiBase}/api/${method}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            channel,
            thread_ts: threadTs,
            recipient_user_id: 'U0USER',
            recipient_team_id: 'T0TEAM',
            ...body,
          }),
        })
      ).json();
    const task = { type: 'task_update', id: 't', title: 'x', status: 'in_progress' };
    expect(await call('chat.startStream', { markdown_text: 'a', chunks: [task] })).toEqual({
      ok: false,
      error: 'invalid_arguments',
    });
    expect(await call('chat.startStream', { chunks: [{ ...task, status: 'running' }] })).toEqual({
      ok: false,
      error: 'invalid_chunks',
    });
    expect(await call('chat.startStream', { chunks: [task] })).toMatchObject({ ok: true });
  });

  it('from events to Slack: channel({ progress: true }) → toMessageEdits → deliver', async () => {
    const events: StreamEvent[] = [
      { type: 'tool-start', id: 'ws_1', name: 'web_search', providerExecuted: true },
      { type: 'tool-end', id: 'ws_1', name: 'web_search', providerExecuted: true },
      { type: 'text-delta', id: 't', delta: 'Here is what I found.' },
      { type: 'text-end', id: 't' },
      { type: 'finish', reason: 'stop' },
      { type: 'completed', finishReason: 'stop' },
    ];
    const reports = await lastValueFrom(
      from(events).pipe(
        channelPipeline('slack', { progress: true }),
        toMessageEdits({ maxMessageChars: 12000 }),
        deliver(transport(), { minIntervalMs: 0 }),
        toArray(),
      ),
    );
    expect(reports.filter((r) => r.type === 'delivery-failed')).toEqual([]);
    const messages = api.channels.get(channel)!;
    expect(messages.map((m) => m.text)).toEqual(['Here is what I found.']);
    expect(messages[0].taskUpdates!.at(-1)).toEqual({
      id: 'ws_1',
      title: 'web_search',
      status: 'complete',
    });
    expect(messages[0].taskUpdates![0].status).toBe('in_progress');
  });
});
