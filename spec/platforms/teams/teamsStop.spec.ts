import { lastValueFrom, toArray } from 'rxjs';
import { channel } from '../../../src/channels/channel';
import { toMessageEdits } from '../../../src/channels/toMessageEdits';
import { deliver } from '../../../src/delivery/deliver';
import type { DeliveryReport } from '../../../src/delivery/types';
import { teamsTransport, type TeamsTransport } from '../../../src/platforms/teams/teamsTransport';
import { streamEvents } from '../../../src/streamEvents';
import { startFakeModelServer, type FakeModelServer } from '../../helpers/fakeModelServer';
import { startFakeTeamsApi, type FakeTeamsApi } from '../../helpers/teams/fakeTeamsApi';

const token = 'eyJ-STOP-TEAMS-SECRET';
const personal = 'a:1stop-personal';
// Paragraphs of five words: the channel sends a block at each, while the model writes.
const paragraphs = (count: number) =>
  Array.from({ length: count }, (_, i) => `Word${i}${i % 5 === 4 ? '.\n\n' : ' '}`);
// Where a pause cut a paragraph, the blocks are joined by a blank line: compare the words.
const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(ready: () => boolean, what: string) {
  for (let i = 0; i < 400 && !ready(); i++) await sleep(10);
  if (!ready()) throw new Error(`timed out waiting for ${what}`);
}

describe('Stop in Teams, end to end (fake model, fake Connector)', () => {
  let api: FakeTeamsApi;
  let model: FakeModelServer;
  afterEach(async () => {
    await api.close();
    await model.close();
  });

  async function answer(transport: TeamsTransport): Promise<DeliveryReport[]> {
    const signal = transport.stopSignal;
    const response = await fetch(model.url, { method: 'POST', body: '{}', signal });
    return lastValueFrom(
      streamEvents(response, { signal }).pipe(
        channel('msteams', { minChars: 10, idleMs: 60 }),
        toMessageEdits({ maxMessageChars: transport.maxMessageChars }),
        deliver(transport, { backoffMs: 5 }),
        toArray(),
      ),
    );
  }
  const streamed = () => api.messages(personal).find((m) => m.kind === 'stream');

  it('"cancelled by user" aborts stopSignal and the model; the message keeps the partial text', async () => {
    const pieces = paragraphs(300);
    api = await startFakeTeamsApi({
      token,
      conversations: { [personal]: { personal: true } },
      minStreamIntervalMs: 30,
    });
    model = await startFakeModelServer({ pieces, intervalMs: 15 });
    const transport = teamsTransport({
      serviceUrl: api.serviceUrl,
      conversationId: personal,
      token,
      minIntervalMs: 40,
    });
    const reports = answer(transport);
    await until(() => (streamed()?.text.length ?? 0) >= 30, 'a streamed text of 30 characters');
    const shown = streamed()!.text;
    api.pressStop(personal);
    const done = await reports;

    expect(transport.stopSignal.aborted).toBe(true);
    expect(transport.stopSignal.reason).toMatchObject({ name: 'AbortError' });
    expect(model.requests[0]).toMatchObject({ aborted: true, done: false });
    expect(model.requests[0].sent).toBeLessThan(pieces.length);
    const [message, ...others] = api.messages(personal);
    expect(others).toEqual([]);
    expect(message).toMatchObject({ kind: 'stream', state: 'cancelled', updated: true });
    const kept = squeeze(message.text.split('⏹')[0]);
    expect(kept.startsWith(squeeze(shown))).toBe(true);
    expect(squeeze(pieces.join('')).startsWith(kept)).toBe(true);
    expect(kept.length).toBeLessThan(squeeze(pieces.join('')).length);
    expect(done.filter((report) => report.type === 'delivery-failed')).toEqual([]);
    expect(message.text.endsWith('\n\n⏹ Stopped.')).toBe(true);
    expect(done.at(-1)).toEqual({
      type: 'answer',
      outcome: 'stopped',
      reason: 'aborted',
      messages: 1,
      delivered: true,
    });
    // Nothing streamed into the cancelled message after the Stop but the one refused update.
    const refused = api.requests.filter((r) => r.status === 403);
    expect(refused).toHaveLength(1);
    expect(refused[0].kind).toBe('stream-update');
  });

  it("Teams' time limit is no stop: the whole text is delivered by PUT", async () => {
    const pieces = paragraphs(40);
    api = await startFakeTeamsApi({
      token,
      conversations: { [personal]: { personal: true } },
      minStreamIntervalMs: 30,
      maxStreamMs: 250,
    });
    model = await startFakeModelServer({ pieces, intervalMs: 15 });
    const transport = teamsTransport({
      serviceUrl: api.serviceUrl,
      conversationId: personal,
      token,
      minIntervalMs: 40,
      maxStreamMs: 60_000,
    });
    const done = await answer(transport);

    expect(api.counts.timedOut).toBe(1);
    expect(transport.stopSignal.aborted).toBe(false);
    expect(model.requests[0]).toMatchObject({ aborted: false, done: true, sent: pieces.length });
    const [message, ...others] = api.messages(personal);
    expect(others).toEqual([]);
    expect(message).toMatchObject({ kind: 'stream', state: 'timed-out', updated: true });
    expect(squeeze(message.text)).toBe(squeeze(pieces.join('')));
    expect(done.filter((report) => report.type === 'delivery-failed')).toEqual([]);
    expect(done.at(-1)).toEqual({
      type: 'answer',
      outcome: 'completed',
      messages: 1,
      delivered: true,
    });
  });
});
