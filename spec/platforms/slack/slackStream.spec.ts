import { asyncScheduler } from 'rxjs';
import type { MessageEdit } from '../../../src/channels/messageEditPlanner';
import type { SlackRef } from '../../../src/platforms/slack/slackRef';
import {
  slackTransport,
  type SlackTransportOptions,
} from '../../../src/platforms/slack/slackTransport';
import {
  callInOrder,
  startFakeSlackApi,
  type FakeSlackApi,
} from '../../helpers/slack/fakeSlackApi';
import { rejectionOf, transportCall } from '../../helpers/transportCall';

const token = 'xoxb-SECRET-stream-token';
const channel = 'C0STREAM';
const dm = 'D0DIRECT';
const threadTs = '1699999999.000001';
const recipients = { recipientUserId: 'U0USER', recipientTeamId: 'T0TEAM' };

const edit = (message: number, text: string): MessageEdit => ({ op: 'edit', message, text });
/** The whole-text edits of one message growing by `pieces`. */
const growing = (message: number, pieces: string[]) =>
  pieces.map((_, i) => edit(message, pieces.slice(0, i + 1).join('')));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('slackTransport streams in a thread', () => {
  let api: FakeSlackApi;
  let faults: Array<'rate-limit' | 'server-error' | undefined> = [];
  const start = async (options: Partial<Parameters<typeof startFakeSlackApi>[0]> = {}) => {
    api = await startFakeSlackApi({
      token,
      channels: [channel, dm],
      minIntervalMs: 0,
      fault: (n) => faults[n],
      ...options,
    });
  };
  beforeEach(() => {
    faults = [];
  });
  afterEach(() => api?.close());

  const transport = (options: Partial<SlackTransportOptions> = {}) =>
    slackTransport({ token, channel, threadTs, ...recipients, apiBase: api.apiBase, ...options });
  const held = (id = channel) => api.channels.get(id) ?? [];

  it('starts on the first text, appends only what was added, stops with the rest at finish', async () => {
    await start();
    const slack = transport();
    expect(slack.maxMessageChars).toBe(12000);
    const ts = await slack.send(edit(0, 'Hel'), transportCall());
    expect(await slack.edit(ts, edit(0, 'Hello'), transportCall())).toBe(ts);
    await slack.edit(ts, edit(0, 'Hello'), transportCall());
    await slack.edit(ts, edit(0, 'Hello, **world**'), transportCall());
    expect(await slack.finish(ts, edit(0, 'Hello, **world**!'), transportCall())).toBe(ts);
    expect(held()).toEqual([
      expect.objectContaining({
        ts,
        text: 'Hello, **world**!',
        chunks: ['Hel', 'lo', ', **world**', '!'],
        stream: 'stopped',
        stops: 1,
        threadTs,
      }),
    ]);
    expect(api.counts.byMethod).toEqual({
      'chat.startStream': 1,
      'chat.appendStream': 2,
      'chat.stopStream': 1,
    });
  });

  it('a finish with nothing new stops the stream without text', async () => {
    await start();
    const slack = transport();
    const ts = await slack.send(edit(0, 'All of it'), transportCall());
    await slack.finish(ts, edit(0, 'All of it'), transportCall());
    expect(held()[0]).toMatchObject({ chunks: ['All of it', ''], stops: 1, text: 'All of it' });
  });

  it('a text arriving after the finish updates the stopped message; no stream is left open', async () => {
    await start();
    const slack = transport();
    const ts = await slack.send(edit(0, 'Done'), transportCall());
    await slack.finish(ts, edit(0, 'Done'), transportCall());
    expect(await slack.edit(ts, edit(0, 'Done, **really**'), transportCall())).toBe(ts);
    expect(held().map((m) => [m.text, m.stream, m.stops])).toEqual([
      ['Done, *really*', 'stopped', 1],
    ]);
    expect(api.counts.byMethod['chat.startStream']).toBe(1);
  });

  it('continues in a new streamed message before 12,000 characters, each stream stopped once', async () => {
    await start();
    const text = 'word '.repeat(6000); // 30,000 characters
    await callInOrder(transport({ maxStreamBytes: 48000 }), [
      edit(0, text.slice(0, 100)),
      edit(0, text),
    ]);
    const messages = held();
    expect(messages.map((m) => m.text.length)).toEqual([12000, 12000, 6000]);
    expect(messages.map((m) => m.text).join('')).toBe(text);
    expect(messages.map((m) => [m.stream, m.stops])).toEqual([
      ['stopped', 1],
      ['stopped', 1],
      ['stopped', 1],
    ]);
    expect(messages.every((m) => m.chunks!.every((chunk) => chunk.length <= 12000))).toBe(true);
  });

  it('never cuts an emoji in two at the 12,000-character limit', async () => {
    await start();
    const text = 'x' + '🙂'.repeat(7000);
    await callInOrder(transport({ maxStreamBytes: 48000 }), [edit(0, text)]);
    expect(held().map((m) => m.text.length)).toEqual([11999, 2002]);
    expect(
      held()
        .map((m) => m.text)
        .join(''),
    ).toBe(text);
  });

  it('continues in a new stream once one is older than maxStreamMs, nothing lost or repeated', async () => {
    await start({ streamLifetimeMs: 5000 });
    const slack = transport({ maxStreamMs: 40 });
    const pieces = ['One. ', 'Two. ', 'Three. ', 'Four. ', 'Five.'];
    const ts = await slack.send(edit(0, pieces[0]), transportCall());
    let ref = ts;
    for (const step of growing(0, pieces).slice(1)) {
      await sleep(25);
      ref = await slack.edit(ref, step, transportCall());
    }
    ref = await slack.finish(ref, edit(0, pieces.join('')), transportCall());
    const messages = held();
    expect(messages.length).toBeGreaterThanOrEqual(2);
    expect(messages.map((m) => m.text).join('')).toBe(pieces.join(''));
    expect(messages.every((m) => m.stops === 1 && m.threadTs === threadTs)).toBe(true);
    // The ref lists every part (a ledger keeps it for a restart), the newest as its ts.
    expect(ref).toEqual({
      ts: messages.at(-1)!.ts,
      parts: messages.map((m) => ({ ts: m.ts, chars: m.text.length })),
    });
    expect(api.rejected).toEqual([]);
  });

  it("reads a stream's age on the transport's scheduler: rotation exactly at maxStreamMs", async () => {
    await start({ streamLifetimeMs: 5000 });
    let clock = 0;
    const scheduler = { now: () => clock, schedule: asyncScheduler.schedule.bind(asyncScheduler) };
    const slack = transport({ maxStreamMs: 30, scheduler });
    let ref = await slack.send(edit(0, 'One. '), transportCall());
    clock = 29;
    ref = await slack.edit(ref, edit(0, 'One. Two. '), transportCall());
    clock = 30;
    ref = await slack.edit(ref, edit(0, 'One. Two. Three. '), transportCall());
    ref = await slack.finish(ref, edit(0, 'One. Two. Three. '), transportCall());
    expect(held().map((m) => [m.text, m.stops])).toEqual([
      ['One. Two. ', 1],
      ['Three. ', 1],
    ]);
    expect(typeof ref !== 'string' && ref.ts).toBe(held()[1].ts);
  });

  it('a text that does not extend the stream stops it and rewrites the message by chat.update', async () => {
    await start();
    const slack = transport();
    const ts = await slack.send(edit(0, 'The answer is **4'), transportCall());
    await slack.edit(ts, edit(0, 'The answer is **42**.'), transportCall());
    await slack.edit(ts, edit(0, 'The answer: **42**.'), transportCall());
    await slack.finish(ts, edit(0, 'The answer: **42**. Done'), transportCall());
    expect(held()).toEqual([
      expect.objectContaining({
        ts,
        text: 'The answer: *42*. Done',
        stream: 'stopped',
        stops: 1,
      }),
    ]);
    expect(held()[0].history.at(-2)).toBe('The answer: *42*.');
  });

  it('a rewrite keeps each continued message its share, deleting one left empty', async () => {
    await start();
    const first = 'a'.repeat(12000);
    const rewritten = 'b'.repeat(11000);
    const refs = await callInOrder(transport({ maxStreamBytes: 48000 }), [
      edit(0, first + 'tail'),
      edit(0, rewritten),
    ]);
    expect(held().map((m) => m.text)).toEqual([rewritten]);
    expect(refs.get(0)).toBe(held()[0].ts);
    expect(api.counts.byMethod['chat.delete']).toBe(1);
  });

  it('a rewrite retried after a 429 does not delete a message twice', async () => {
    await start();
    const slack = transport({ maxStreamBytes: 48000 });
    const ts = await slack.send(edit(0, 'a'.repeat(24000) + 't'), transportCall()); // requests 0–4
    expect(held().map((m) => m.text.length)).toEqual([12000, 12000, 1]);
    faults[7] = 'rate-limit'; // update 5, delete 6, then the stop of the third stream
    const rewritten = edit(0, 'b'.repeat(11000));
    expect((await rejectionOf(slack.edit(ts, rewritten, transportCall()))).retryAfterMs).toBe(10);
    await slack.finish(
      await slack.edit(ts, rewritten, transportCall()),
      rewritten,
      transportCall(),
    );
    expect(held().map((m) => m.text)).toEqual([rewritten.text]);
    expect(api.counts.byMethod['chat.delete']).toBe(2);
    expect(api.rejected).toEqual(['ratelimited']);
  });

  it('in a channel without recipient ids, falls back to post + update for good after one rejected start', async () => {
    await start();
    const slack = transport({ recipientUserId: undefined, recipientTeamId: undefined });
    const edits = [...growing(0, ['Hi **there**', ', you']), ...growing(1, ['Second'])];
    await callInOrder(slack, edits);
    expect(held().map((m) => [m.text, m.chunks])).toEqual([
      ['Hi *there*, you', undefined],
      ['Second', undefined],
    ]);
    expect(api.rejected).toEqual(['missing_recipient_team_id']);
  });

  it('in a DM, streams without recipient ids', async () => {
    await start();
    const slack = transport({
      channel: dm,
      recipientUserId: undefined,
      recipientTeamId: undefined,
    });
    await callInOrder(slack, growing(0, ['a', 'b']));
    expect(held(dm).map((m) => [m.text, m.chunks])).toEqual([['ab', ['a', 'b', '']]]);
  });

  it("without threadTs, mode 'auto' posts and updates; mode 'stream' is refused at once", async () => {
    await start();
    const slack = transport({ threadTs: undefined });
    expect(slack.maxMessageChars).toBe(4000);
    await callInOrder(slack, growing(0, ['**a**', ' b']));
    expect(held().map((m) => m.history)).toEqual([['*a*', '*a* b']]);
    expect(() => transport({ threadTs: undefined, mode: 'stream' })).toThrow(
      "slackTransport: mode 'stream' needs threadTs",
    );
    const update = transport({ mode: 'update' });
    expect(update.maxMessageChars).toBe(4000);
  });

  it('a stream Slack closed (message_not_in_streaming_state) keeps what it showed; the rest goes on in a new stream', async () => {
    await start({ streamLifetimeMs: 30 });
    const slack = transport();
    const ts = await slack.send(edit(0, 'Started **bold**'), transportCall());
    await sleep(60);
    const call = transportCall();
    const after = await slack.edit(ts, edit(0, 'Started **bold** and more'), call);
    await slack.finish(after, edit(0, 'Started **bold** and more.'), transportCall());
    const [first, second] = held();
    expect(after).toEqual({
      ts: second.ts,
      parts: [
        { ts, chars: 'Started **bold**'.length },
        { ts: second.ts, chars: ' and more'.length },
      ],
    });
    expect(held().map((m) => [m.ts, m.text, m.stops])).toEqual([
      [ts, 'Started **bold**', 0],
      [second.ts, ' and more.', 1],
    ]);
    expect(first.ts).toBe(ts);
    expect(api.rejected).toEqual(['message_not_in_streaming_state']);
    expect(call.warnings.map((w) => w.code)).toEqual(['slack-stream-expired']);
  });

  it.each(['chat.startStream', 'chat.appendStream', 'chat.stopStream'])(
    'a 429 on %s is retryAfterMs; the retried call repeats nothing',
    async (method) => {
      await start();
      const slack = transport();
      const order = ['chat.startStream', 'chat.appendStream', 'chat.stopStream'];
      faults[order.indexOf(method)] = 'rate-limit';
      const calls = [
        () => slack.send(edit(0, 'ab'), transportCall()),
        (ref: SlackRef) => slack.edit(ref, edit(0, 'abcd'), transportCall()),
        (ref: SlackRef) => slack.finish(ref, edit(0, 'abcdef'), transportCall()),
      ];
      let ref: SlackRef = '';
      for (const [i, call] of calls.entries()) {
        if (i === order.indexOf(method)) {
          const error = await rejectionOf(call(ref));
          expect([error.status, error.retryAfterMs, error.message]).toEqual([
            429,
            10,
            `Slack ${method}: 429 ratelimited`,
          ]);
        }
        ref = (await call(ref)) || ref;
      }
      expect(held().map((m) => [m.text, m.chunks, m.stops])).toEqual([
        ['abcdef', ['ab', 'cd', 'ef'], 1],
      ]);
    },
  );

  it('a send that failed after its stream started goes on in that stream when retried', async () => {
    await start();
    const slack = transport();
    faults[1] = 'server-error';
    const text = 'x'.repeat(10000);
    const error = await rejectionOf(slack.send(edit(0, text), transportCall()));
    expect([error.status, error.permanent]).toEqual([500, false]);
    const ts = await slack.send(edit(0, text), transportCall());
    await slack.finish(ts, edit(0, text), transportCall());
    expect(held().map((m) => m.text.length)).toEqual([9000, 1000]);
    expect(api.counts.byMethod['chat.startStream']).toBe(2);
  });

  it('stream errors are classified once and never print the token', async () => {
    await start();
    const error = await rejectionOf(
      transport({ token: 'xoxb-OTHER-SECRET' }).send(edit(0, 'x'), transportCall()),
    );
    expect([error.permanent, error.message]).toEqual([
      true,
      'Slack chat.startStream: 200 invalid_auth',
    ]);
    const notInChannel = await rejectionOf(
      transport({ channel: 'C0MISSING' }).send(edit(0, 'x'), transportCall()),
    );
    expect([notInChannel.permanent, notInChannel.message]).toEqual([
      true,
      'Slack chat.startStream: 200 channel_not_found',
    ]);
  });
});
