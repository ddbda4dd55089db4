// Tool progress on Teams: informative updates (the progress bar) before the answer streams,
// never part of the message's text.
import type { MessageEdit, ToolStatus } from '../../../src/channels/messageEditPlanner';
import { teamsTransport } from '../../../src/platforms/teams/teamsTransport';
import { startFakeTeamsApi, type FakeTeamsApi } from '../../helpers/teams/fakeTeamsApi';
import { transportCall } from '../../helpers/transportCall';

const token = 'eyJ-TEAMS-SECRET-progress';
const personal = 'a:1personal-chat';
const group = '19:group-chat@thread.v2';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
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

describe('teamsTransport tool progress', () => {
  let api: FakeTeamsApi;
  beforeEach(async () => {
    api = await startFakeTeamsApi({
      token,
      conversations: { [personal]: { personal: true }, [group]: { personal: false } },
      minStreamIntervalMs: 20,
    });
  });
  afterEach(() => api.close());
  const transport = (conversationId: string) =>
    teamsTransport({ serviceUrl: api.serviceUrl, conversationId, token, minIntervalMs: 30 });

  it('shows tool activity as informative updates, then streams and persists only the answer', async () => {
    const teams = transport(personal);
    const ref = await teams.send(edit('', [search('running')]), transportCall());
    await sleep(40);
    await teams.edit(ref, edit('', [search('done')]), transportCall());
    await sleep(40);
    await teams.edit(ref, edit('Found', [search('done')]), transportCall());
    await sleep(40);
    await teams.finish(ref, edit('Found it.', [search('done')]), transportCall());
    const [message] = api.messages(personal);
    expect(message.informative).toEqual(['⏳ web_search', '✓ web_search']);
    expect(message.history).toEqual(['Found', 'Found it.']);
    expect(message.state).toBe('final');
    expect(api.requests.map((r) => [r.kind, r.status])).toEqual([
      ['stream-start', 201],
      ['stream-update', 202],
      ['stream-update', 202],
      ['stream-final', 200],
    ]);
  });

  it('in a group chat (no streams) shows no progress and posts the answer alone', async () => {
    const teams = transport(group);
    const ref = await teams.send(edit('', [search('running')]), transportCall());
    expect(api.requests).toEqual([]);
    await teams.edit(ref, edit('Found it.', [search('done')]), transportCall());
    await teams.finish(ref, edit('Found it.', [search('done')]), transportCall());
    expect(api.messages(group).map((m) => m.text)).toEqual(['Found it.']);
  });
});
