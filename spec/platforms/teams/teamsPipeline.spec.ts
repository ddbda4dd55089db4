import { concatMap, delay, lastValueFrom, of, tap, toArray } from 'rxjs';
import { channel } from '../../../src/channels/channel';
import { isMessageEdit, type MessageEdit } from '../../../src/channels/messageEditPlanner';
import { toMessageEdits } from '../../../src/channels/toMessageEdits';
import { deliver } from '../../../src/delivery/deliver';
import {
  teamsTransport,
  type TeamsMessageRef,
  type TeamsTransportOptions,
} from '../../../src/platforms/teams/teamsTransport';
import type { DeliveryReport } from '../../../src/delivery/types';
import { streamEvents } from '../../../src/streamEvents';
import { describeCorpus } from '../../helpers/corpus';
import { startFakeTeamsApi, type FakeTeamsApi } from '../../helpers/teams/fakeTeamsApi';

const token = 'eyJ-PIPELINE-TEAMS-SECRET';
const personal = 'a:1pipeline-personal';
const group = '19:pipeline-group@thread.v2';
// Teams' 1 s between streaming requests and 2-minute streams, scaled down (the transport finishes
// its streams after 300 ms: the margin is wide, as a shared machine delays the calls).
const fakeTiming = { minStreamIntervalMs: 40, maxStreamMs: 1500 };

/** streamEvents → channel('msteams') → toMessageEdits → deliver(teamsTransport), blocks paced. */
async function deliverToTeams(
  sse: string,
  api: FakeTeamsApi,
  options: Partial<TeamsTransportOptions>,
  blockGapMs = 150,
) {
  const transport = teamsTransport({
    serviceUrl: api.serviceUrl,
    conversationId: personal,
    token,
    minIntervalMs: 50,
    maxStreamMs: 300,
    ...options,
  } as TeamsTransportOptions);
  const refs = new Map<number, TeamsMessageRef>();
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
      channel('msteams'),
      concatMap((event) =>
        event.type === 'block' ? of(event).pipe(delay(blockGapMs)) : of(event),
      ),
      toMessageEdits({ maxMessageChars: transport.maxMessageChars }),
      tap((step) => isMessageEdit(step) && planned.push(step)),
      deliver(recorded, { backoffMs: 5 }),
      toArray(),
    ),
  );
  return { planned, reports, refs };
}

const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * Each planned message's final text is in Teams, whole (its parts joined, up to whitespace at
 * the cuts), every part persisted (a final stream or a posted message), none over 28,000.
 */
function expectFinalTextsDelivered(
  api: FakeTeamsApi,
  conversationId: string,
  planned: MessageEdit[],
  refs: Map<number, TeamsMessageRef>,
) {
  const finals = new Map<number, string>();
  for (const edit of planned) finals.set(edit.message, edit.text);
  const held = new Map(api.messages(conversationId).map((m) => [m.id, m]));
  expect([...refs.keys()]).toEqual([...finals.keys()]);
  for (const [message, text] of finals) {
    const parts = refs.get(message)!.parts.map((part) => held.get(part.id)!);
    expect({ message, text: squeeze(parts.map((p) => p.text).join(' ')) }).toEqual({
      message,
      text: squeeze(text),
    });
    for (const part of parts) {
      expect(part.text.length).toBeLessThanOrEqual(28000);
      expect(part.state === 'final' || part.state === 'posted' || part.updated).toBe(true);
    }
  }
  expect(api.messages(conversationId)).toHaveLength(
    [...refs.values()].reduce((sum, ref) => sum + ref.parts.length, 0),
  );
}

/** Sequences strictly increase per stream; requests never overlap nor come too fast. */
function expectStreamingRules(api: FakeTeamsApi) {
  expect([api.counts.outOfOrder, api.counts.tooFast, api.counts.overlaps]).toEqual([0, 0, 0]);
  const byStream = new Map<string, number[]>();
  for (const request of api.requests) {
    if (request.kind !== 'stream-update') continue;
    byStream.set(request.streamId!, [
      ...(byStream.get(request.streamId!) ?? [1]),
      request.sequence!,
    ]);
  }
  for (const sequences of byStream.values()) {
    expect(sequences.every((s, i) => i === 0 || s > sequences[i - 1])).toBe(true);
  }
  const starts = api.requests.map((r) => r.receivedAt);
  expect(
    starts.every((at, i) => i === 0 || at - starts[i - 1] >= fakeTiming.minStreamIntervalMs),
  ).toBe(true);
}

function expectCleanReports(reports: DeliveryReport[], planned: MessageEdit[]) {
  expect(reports.filter((r) => r.type === 'delivery-failed')).toEqual([]);
  expect(JSON.stringify(reports)).not.toContain('SECRET');
  const finals = new Map<number, string>();
  for (const edit of planned) finals.set(edit.message, edit.text);
  expect(reports.filter((r) => r.type === 'finished').map((r) => r.text)).toEqual([
    ...finals.values(),
  ]);
}

describeCorpus(
  'a long real capture through channel(msteams) → toMessageEdits → deliver(teamsTransport)',
  (captures) => {
    const longest = captures.find((c) => c.name.includes('long-markdown-codefences-compaction'))!;
    let api: FakeTeamsApi;
    beforeEach(async () => {
      api = await startFakeTeamsApi({
        token,
        conversations: { [personal]: { personal: true }, [group]: { personal: false } },
        ...fakeTiming,
      });
    });
    afterEach(() => api.close());

    it(`a 1:1 chat streams ${longest.name}, continued in new messages before each stream's limit`, async () => {
      const { planned, reports, refs } = await deliverToTeams(longest.sse, api, {});
      expectFinalTextsDelivered(api, personal, planned, refs);
      const streams = api.messages(personal);
      expect(streams.length).toBeGreaterThanOrEqual(2);
      expect(streams.map((m) => [m.kind, m.state])).toEqual(streams.map(() => ['stream', 'final']));
      expect(api.counts.timedOut).toBe(0);
      expect(api.requests.filter((r) => r.kind === 'stream-update').length).toBeGreaterThan(0);
      expectStreamingRules(api);
      expectCleanReports(reports, planned);
    });

    it(`a group chat gets ${longest.name} posted and updated, never streamed`, async () => {
      const { planned, reports, refs } = await deliverToTeams(longest.sse, api, {
        conversationId: group,
      });
      expectFinalTextsDelivered(api, group, planned, refs);
      expect(api.requests.every((r) => r.kind === 'post' || r.kind === 'update')).toBe(true);
      expect(api.counts.overlaps).toBe(0);
      expectCleanReports(reports, planned);
    });

    it(`falls back after 403 ContentStreamNotAllowed and still delivers ${longest.name}`, async () => {
      const { planned, reports, refs } = await deliverToTeams(longest.sse, api, {
        conversationId: group,
        isPersonalChat: true,
      });
      expectFinalTextsDelivered(api, group, planned, refs);
      expect(api.counts.refused).toBe(1);
      expect(api.requests.filter((r) => r.kind.startsWith('stream'))).toHaveLength(1);
      expectCleanReports(reports, planned);
    });

    it('updates streams that Teams ended itself, losing nothing', async () => {
      // Five blocks 450 ms apart: the stream outlives the fake's 1500 ms.
      const { planned, reports, refs } = await deliverToTeams(
        longest.sse,
        api,
        { maxStreamMs: 60_000 },
        450,
      );
      expectFinalTextsDelivered(api, personal, planned, refs);
      expect(api.counts.timedOut).toBeGreaterThan(0);
      expectStreamingRules(api);
      expectCleanReports(reports, planned);
    });

    it('reports a wrong token once per message, never printing it', async () => {
      const { reports } = await deliverToTeams(longest.sse, api, { token: 'eyJ-WRONG-SECRET' }, 0);
      const failed = reports.filter((r) => r.type === 'delivery-failed');
      expect(failed.length).toBeGreaterThanOrEqual(1);
      expect(failed.every((r) => r.error.status === 401 && r.attempts === 1)).toBe(true);
      expect(JSON.stringify(reports)).not.toContain('SECRET');
    });
  },
  ['anthropic'],
);
