import fc from 'fast-check';
import { lastValueFrom, toArray } from 'rxjs';
import { channel as channelStage } from '../../../src/channels/channel';
import { toMessageEdits } from '../../../src/channels/toMessageEdits';
import { deliver } from '../../../src/delivery/deliver';
import type { DeliveryReport } from '../../../src/delivery/types';
import { slackTransport, type SlackTransport } from '../../../src/platforms/slack/slackTransport';
import { slackStopOf } from '../../../src/platforms/slack/stop';
import { streamEvents } from '../../../src/streamEvents';
import { startFakeModelServer, type FakeModelServer } from '../../helpers/fakeModelServer';
import { startFakeSlackApi, type FakeSlackApi } from '../../helpers/slack/fakeSlackApi';

const token = 'xoxb-SECRET-stop-token';
const channel = 'C0STOP';
const threadTs = '1699999999.000042';
const recipients = { recipientUserId: 'U0USER', recipientTeamId: 'T0TEAM' };
// Paragraphs of five words: the channel sends a block at each, while the model writes.
const pieces = Array.from({ length: 300 }, (_, i) => `Word${i}${i % 5 === 4 ? '.\n\n' : ' '}`);
// Where a pause cut a paragraph, the blocks are joined by a blank line: compare the words.
const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(ready: () => boolean, what: string) {
  for (let i = 0; i < 400 && !ready(); i++) await sleep(10);
  if (!ready()) throw new Error(`timed out waiting for ${what}`);
}

describe('slackStopOf', () => {
  const event = {
    type: 'agent_session_stopped',
    channel: 'C0123ABC456',
    thread_ts: '1782234671.392669',
    streaming_message_ts: ['1782234987.693923'],
    user: 'U123ABC456',
    event_ts: '1783536983.783769',
  };

  it('reads the channel, thread and stopped streams, bare or in its envelope', () => {
    const stop = {
      channel: 'C0123ABC456',
      threadTs: '1782234671.392669',
      streamingMessageTs: ['1782234987.693923'],
      user: 'U123ABC456',
    };
    expect(slackStopOf(event)).toEqual(stop);
    expect(slackStopOf({ type: 'event_callback', team_id: 'T1', event })).toEqual(stop);
    expect(slackStopOf({ ...event, streaming_message_ts: [] })).toEqual({
      ...stop,
      streamingMessageTs: [],
    });
  });

  it('is undefined for any other event', () => {
    expect(slackStopOf({ ...event, type: 'app_mention' })).toBe(undefined);
    expect(slackStopOf({ type: 'event_callback', event: { type: 'message' } })).toBe(undefined);
    expect(slackStopOf({ ...event, channel: 7 })).toBe(undefined);
    expect(slackStopOf(null)).toBe(undefined);
  });
});

describe('slackStopOf (property)', () => {
  it('never throws, and keeps exactly the string timestamps of the stopped streams', () => {
    fc.assert(fc.property(fc.anything(), (event) => void slackStopOf(event)));
    fc.assert(
      fc.property(fc.string(), fc.array(fc.oneof(fc.string(), fc.integer())), (channel, listed) => {
        const event = { type: 'agent_session_stopped', channel, streaming_message_ts: listed };
        expect(slackStopOf(event)).toEqual({
          channel,
          streamingMessageTs: listed.filter((ts) => typeof ts === 'string'),
        });
      }),
    );
  });
});

describe('Stop in Slack, end to end (fake model, fake Web API)', () => {
  let api: FakeSlackApi;
  let model: FakeModelServer;
  beforeEach(async () => {
    api = await startFakeSlackApi({ token, channels: [channel] });
    model = await startFakeModelServer({ pieces, intervalMs: 15 });
  });
  afterEach(async () => {
    await api.close();
    await model.close();
  });

  const bot = () =>
    slackTransport({
      token,
      channel,
      threadTs,
      ...recipients,
      apiBase: api.apiBase,
      minIntervalMs: 25,
    });

  async function answer(transport: SlackTransport): Promise<DeliveryReport[]> {
    const signal = transport.stopSignal;
    const response = await fetch(model.url, { method: 'POST', body: '{}', signal });
    return lastValueFrom(
      streamEvents(response, { signal }).pipe(
        channelStage('slack', { minChars: 10, idleMs: 60 }),
        toMessageEdits({ maxMessageChars: transport.maxMessageChars }),
        deliver(transport, { backoffMs: 5 }),
        toArray(),
      ),
    );
  }
  const streamed = () => api.channels.get(channel)!.find((m) => m.chunks !== undefined);

  /** One message: the partial text (never the whole answer), then the stop notice. */
  function expectStopped(shown: string, done: DeliveryReport[]) {
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]).toMatchObject({ aborted: true, done: false });
    expect(model.requests[0].sent).toBeLessThan(pieces.length);
    const [message, ...others] = api.channels.get(channel)!;
    expect(others).toEqual([]);
    expect(message.stream).toBe('stopped-by-user');
    expect(message.text.endsWith('\n\n⏹ Stopped.')).toBe(true);
    const kept = squeeze(message.text.split('⏹')[0]);
    expect(kept.startsWith(squeeze(shown))).toBe(true);
    expect(squeeze(pieces.join('')).startsWith(kept)).toBe(true);
    expect(kept.length).toBeLessThan(squeeze(pieces.join('')).length);
    expect(done.filter((report) => report.type === 'delivery-failed')).toEqual([]);
    expect(done.at(-1)).toEqual({
      type: 'answer',
      outcome: 'stopped',
      reason: 'aborted',
      messages: 1,
      delivered: true,
    });
  }

  it('agent_session_stopped: the bot stops the transport; the model request ends', async () => {
    const transport = bot();
    const reports = answer(transport);
    await until(() => (streamed()?.text.length ?? 0) >= 30, 'a stream of 30 characters');
    const shown = streamed()!.text;
    const stop = slackStopOf(api.pressStop(channel, threadTs))!;
    expect(stop).toMatchObject({ channel, threadTs, streamingMessageTs: [streamed()!.ts] });
    transport.stop();
    const done = await reports;

    expect(transport.stopSignal.aborted).toBe(true);
    expectStopped(shown, done);
  });

  it('a stream call answered stopped_by_user stops the transport by itself', async () => {
    const transport = bot();
    const reports = answer(transport);
    await until(() => (streamed()?.text.length ?? 0) >= 30, 'a stream of 30 characters');
    const shown = streamed()!.text;
    api.pressStop(channel, threadTs);
    const done = await reports;

    expect(transport.stopSignal.aborted).toBe(true);
    expect(transport.stopSignal.reason).toMatchObject({
      name: 'AbortError',
      message: 'The user pressed Stop in Slack.',
    });
    expect(api.rejected.filter((code) => code === 'stopped_by_user')).toHaveLength(1);
    expectStopped(shown, done);
  });
});
