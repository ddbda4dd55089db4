import type { MessageEdit } from '../../../src/channels/messageEditPlanner';
import { DeliveryError } from '../../../src/delivery/errors';
import { cutChunks, teamsTransport } from '../../../src/platforms/teams/teamsTransport';
import { startFakeTeamsApi, type FakeTeamsApi } from '../../helpers/teams/fakeTeamsApi';
import { rejectionOf, transportCall } from '../../helpers/transportCall';

const token = 'eyJ-TEAMS-SECRET-token';
const personal = 'a:1personal-chat';
const group = '19:group-chat@thread.v2';
// Teams' one second and two minutes, scaled down; the transport keeps a margin inside each.
// Specs about a stream's lifetime restart the fake with a short one.
const fakeTiming = { minStreamIntervalMs: 40, maxStreamMs: 10_000 };
const timing = { minIntervalMs: 50, maxStreamMs: 8_000 };

const edit = (op: 'send' | 'edit', text: string, message = 0): MessageEdit => ({
  op,
  message,
  text,
});

/** Every stream's sequence numbers strictly increase, and no two requests overlapped. */
function expectStreamingRules(api: FakeTeamsApi) {
  expect([api.counts.outOfOrder, api.counts.tooFast, api.counts.overlaps]).toEqual([0, 0, 0]);
  const byStream = new Map<string, number[]>();
  for (const request of api.requests) {
    if (request.kind !== 'stream-update' || request.status >= 300) continue;
    byStream.set(request.streamId!, [
      ...(byStream.get(request.streamId!) ?? [1]),
      request.sequence!,
    ]);
  }
  for (const sequences of byStream.values()) {
    expect(sequences.every((s, i) => i === 0 || s > sequences[i - 1])).toBe(true);
  }
  const starts = api.requests.map((r) => r.receivedAt);
  expect(starts.every((at, i) => i === 0 || at - starts[i - 1] >= 40)).toBe(true);
}

describe('teamsTransport against a fake Teams (Bot Framework Connector)', () => {
  let api: FakeTeamsApi;
  let faults: Array<'throttled' | 'server-error' | undefined> = [];
  const startFake = (maxStreamMs = fakeTiming.maxStreamMs) =>
    startFakeTeamsApi({
      token,
      conversations: { [personal]: { personal: true }, [group]: { personal: false } },
      fault: (n) => faults[n],
      ...fakeTiming,
      maxStreamMs,
    });
  /** A fake whose streams end after `maxStreamMs`. */
  const restartWithShortStreams = async (maxStreamMs = 400) => {
    await api.close();
    api = await startFake(maxStreamMs);
  };
  beforeEach(async () => {
    faults = [];
    api = await startFake();
  });
  afterEach(() => api.close());

  const transport = (options: Partial<Parameters<typeof teamsTransport>[0]> = {}) =>
    teamsTransport({
      serviceUrl: api.serviceUrl,
      conversationId: personal,
      token,
      ...timing,
      ...options,
    } as Parameters<typeof teamsTransport>[0]);

  it('streams in a 1:1 chat: typing activities with the whole text, then the final message', async () => {
    const teams = transport();
    const ref = await teams.send(edit('send', 'A brown'), transportCall());
    await teams.edit(ref, edit('edit', 'A brown fox'), transportCall());
    await teams.edit(ref, edit('edit', 'A brown fox jumped'), transportCall());
    await teams.finish(ref, edit('edit', 'A brown fox jumped.'), transportCall());
    expect(api.messages(personal)).toEqual([
      {
        id: ref.parts[0].id,
        kind: 'stream',
        state: 'final',
        text: 'A brown fox jumped.',
        history: ['A brown', 'A brown fox', 'A brown fox jumped', 'A brown fox jumped.'],
      },
    ]);
    expect(api.requests.map((r) => [r.kind, r.sequence, r.status])).toEqual([
      ['stream-start', 1, 201],
      ['stream-update', 2, 202],
      ['stream-update', 3, 202],
      ['stream-final', undefined, 200],
    ]);
    expect(api.requests.slice(1).every((r) => r.streamId === ref.parts[0].id)).toBe(true);
    expectStreamingRules(api);
  });

  it('paces its own requests minIntervalMs apart, even when called sooner', async () => {
    const teams = transport({ minIntervalMs: 120 });
    const ref = await teams.send(edit('send', 'a'), transportCall());
    await teams.edit(ref, edit('edit', 'a b'), transportCall());
    await teams.edit(ref, edit('edit', 'a b c'), transportCall());
    const [first, , third] = api.requests;
    expect(third.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(235);
    expectStreamingRules(api);
  });

  it('finishes a stream before its time runs out and goes on in a new message', async () => {
    await restartWithShortStreams(1500);
    const teams = transport({ maxStreamMs: 300 });
    const ref = await teams.send(edit('send', 'one'), transportCall());
    await new Promise((resolve) => setTimeout(resolve, 320));
    await teams.edit(ref, edit('edit', 'one two'), transportCall());
    await teams.finish(ref, edit('edit', 'one two three'), transportCall());
    const messages = api.messages(personal);
    expect(messages.map((m) => [m.kind, m.state, m.text])).toEqual([
      ['stream', 'final', 'one'],
      ['stream', 'final', 'two three'],
    ]);
    expect(api.counts.timedOut).toBe(0);
    expect(ref.parts.map((p) => p.id)).toEqual(messages.map((m) => m.id));
    expectStreamingRules(api);
  });

  it('updates a stream Teams ended itself (time exceeded), keeping the whole text', async () => {
    // The transport's limit is above the fake's: Teams ends the stream first.
    await restartWithShortStreams();
    const teams = transport();
    const ref = await teams.send(edit('send', 'one'), transportCall());
    await new Promise((resolve) => setTimeout(resolve, 420));
    await teams.edit(ref, edit('edit', 'one two'), transportCall());
    await teams.finish(ref, edit('edit', 'one two three'), transportCall());
    const [message] = api.messages(personal);
    expect([message.state, message.updated, message.text]).toEqual([
      'timed-out',
      true,
      'one two three',
    ]);
    expect(api.messages(personal)).toHaveLength(1);
  });

  it('posts then updates in a group chat, and finish sends nothing more', async () => {
    const teams = transport({ conversationId: group });
    const ref = await teams.send(edit('send', 'Hello'), transportCall());
    await teams.edit(ref, edit('edit', 'Hello team'), transportCall());
    await teams.finish(ref, edit('edit', 'Hello team'), transportCall());
    expect(api.messages(group)).toEqual([
      {
        id: ref.parts[0].id,
        kind: 'message',
        state: 'posted',
        updated: true,
        text: 'Hello team',
        history: ['Hello', 'Hello team'],
      },
    ]);
    expect(api.requests.map((r) => r.kind)).toEqual(['post', 'update']);
  });

  it('falls back to post and update after 403 ContentStreamNotAllowed, for good', async () => {
    const teams = transport({ conversationId: group, isPersonalChat: true });
    const ref = await teams.send(edit('send', 'Hi'), transportCall());
    await teams.finish(ref, edit('edit', 'Hi all'), transportCall());
    const next = await teams.send(edit('send', 'Second', 1), transportCall());
    await teams.finish(next, edit('edit', 'Second reply'), transportCall());
    expect(api.messages(group).map((m) => [m.kind, m.state, m.text])).toEqual([
      ['message', 'posted', 'Hi all'],
      ['message', 'posted', 'Second reply'],
    ]);
    expect(api.counts.refused).toBe(1);
    expect(api.requests.map((r) => r.kind)).toEqual([
      'stream-start',
      'post',
      'update',
      'post',
      'update',
    ]);
  });

  it('updates a finished stream when a later text arrives', async () => {
    const teams = transport();
    const ref = await teams.send(edit('send', 'Done'), transportCall());
    await teams.finish(ref, edit('edit', 'Done'), transportCall());
    await teams.edit(ref, edit('edit', 'Done, and more'), transportCall());
    const [message] = api.messages(personal);
    expect([message.state, message.updated, message.text]).toEqual([
      'final',
      true,
      'Done, and more',
    ]);
    expect(api.requests.map((r) => r.kind)).toEqual(['stream-start', 'stream-final', 'update']);
  });

  it('continues a text over 28,000 characters in a new message', async () => {
    const teams = transport();
    const paragraph = `${'lorem ipsum dolor sit amet '.repeat(40).trim()}\n\n`;
    const long = paragraph.repeat(30).trim();
    expect(long.length).toBeGreaterThan(28000);
    const ref = await teams.send(edit('send', paragraph.trim()), transportCall());
    await teams.finish(ref, edit('edit', long), transportCall());
    const messages = api.messages(personal);
    expect(messages.map((m) => m.state)).toEqual(['final', 'final']);
    expect(messages.every((m) => m.text.length <= 28000)).toBe(true);
    expect(messages.map((m) => m.text).join('\n\n')).toBe(long);
    expectStreamingRules(api);
  });

  it('calls getToken before every request, so a refreshed token is used', async () => {
    let current = token;
    const getToken = jest.fn(async () => current);
    const teams = transport({ token: undefined, getToken });
    const ref = await teams.send(edit('send', 'a'), transportCall());
    api.rotateToken('eyJ-NEW-SECRET');
    current = 'eyJ-NEW-SECRET';
    await teams.edit(ref, edit('edit', 'a b'), transportCall());
    await teams.finish(ref, edit('edit', 'a b c'), transportCall());
    expect(getToken).toHaveBeenCalledTimes(3);
    expect(api.messages(personal)[0]).toMatchObject({ state: 'final', text: 'a b c' });
  });

  it('makes 401 and an unknown conversation permanent, never printing the token', async () => {
    const unauthorized = await rejectionOf(
      transport({ token: 'eyJ-WRONG-SECRET' }).send(edit('send', 'x'), transportCall()),
    );
    expect([unauthorized.status, unauthorized.permanent, unauthorized.message]).toEqual([
      401,
      true,
      'Teams POST activities (stream start): 401 Authorization has been denied for this request.',
    ]);
    const unknown = await rejectionOf(
      transport({ conversationId: 'a:missing' }).send(edit('send', 'x'), transportCall()),
    );
    expect([unknown.status, unknown.permanent]).toEqual([404, true]);
    expect(`${unauthorized.message} ${unknown.message}`).not.toContain('SECRET');
  });

  it('waits Retry-After on 429 and retries 5xx, carrying on the same stream', async () => {
    const teams = transport();
    const ref = await teams.send(edit('send', 'a'), transportCall());
    faults[1] = 'throttled';
    const throttled = await rejectionOf(teams.edit(ref, edit('edit', 'a b'), transportCall()));
    expect(throttled).toBeInstanceOf(DeliveryError);
    expect([throttled.status, throttled.retryAfterMs, throttled.permanent]).toEqual([
      429,
      20,
      false,
    ]);
    faults[2] = 'server-error';
    const failed = await rejectionOf(teams.edit(ref, edit('edit', 'a b'), transportCall(2)));
    expect([failed.status, failed.permanent]).toEqual([500, false]);
    await teams.edit(ref, edit('edit', 'a b'), transportCall(3));
    await teams.finish(ref, edit('edit', 'a b'), transportCall());
    expect(api.messages(personal)).toHaveLength(1);
    expect(api.messages(personal)[0]).toMatchObject({ state: 'final', text: 'a b' });
    expect(api.requests.map((r) => r.sequence).filter((s) => s !== undefined)).toEqual([
      1, 2, 3, 4,
    ]);
    expectStreamingRules(api);
  });

  it('validates its options at once', () => {
    const base = { serviceUrl: 'https://smba.trafficmanager.net/amer/', conversationId: personal };
    expect(() => teamsTransport(base)).toThrow(/exactly one of token and getToken/);
    expect(() => teamsTransport({ ...base, token, getToken: () => token })).toThrow(/exactly one/);
    expect(() => teamsTransport({ ...base, token, minIntervalMs: -1 })).toThrow(/minIntervalMs/);
  });

  it('cuts long text at whitespace, covering every character', () => {
    const text = `${'x'.repeat(20000)} ${'y'.repeat(20000)}`;
    const chunks = cutChunks(text);
    expect(chunks.map((c) => c.text.length)).toEqual([20000, 20000]);
    expect(chunks.reduce((sum, c) => sum + c.consumed, 0)).toBe(text.length);
    expect(cutChunks('  ')).toEqual([]);
  });
});
