import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { answerInDiscord, answerInTeams } from '../../examples/discord-teams/answer';
import { collectTurn, renderMarkdown, streamEvents } from '../../src/index';
import { startFakeDiscordApi, type FakeDiscordApi } from '../helpers/discord/fakeDiscordApi';
import { startFakeTeamsApi, type FakeTeamsApi } from '../helpers/teams/fakeTeamsApi';

// docs/discord-teams.md: its example (examples/discord-teams/answer.ts) against the fakes.
const sse = readFileSync(
  join(__dirname, '../../fixtures/demo/openrouter-reasoning-markdown.sse'),
  'utf8',
);
const squeeze = (text: string) => text.replace(/\s+/g, '');
let answer: string;
beforeAll(async () => {
  answer = (await firstValueFrom(streamEvents(new Response(sse)).pipe(collectTurn()))).text;
});

describe('docs/discord-teams.md: answerInDiscord against the fake Discord API', () => {
  const token = 'MTA-GUIDE-DISCORD-SECRET';
  let api: FakeDiscordApi;
  beforeEach(async () => {
    api = await startFakeDiscordApi({ token, channels: ['2200'] });
  });
  afterEach(() => api.close());

  it('creates the message and edits it to the whole answer, rendered for Discord', async () => {
    const reports = await answerInDiscord(new Response(sse), {
      token,
      channelId: '2200',
      apiBase: api.apiBase,
    });
    const shown = api.channels.get('2200')!.filter((m) => !m.deleted);
    expect(shown.map((m) => m.text)).toEqual(renderMarkdown(answer, 'discord').map((m) => m.text));
    expect(shown.every((m) => m.text.length <= 2000)).toBe(true);
    expect(reports.filter((r) => r.type === 'delivery-failed')).toEqual([]);
    expect(JSON.stringify(reports)).not.toContain('SECRET');
  });
});

describe('docs/discord-teams.md: answerInTeams against the fake Teams connector', () => {
  const token = 'eyJ-GUIDE-TEAMS-SECRET';
  const personal = 'a:1guide-personal';
  const group = '19:guide-group@thread.v2';
  let api: FakeTeamsApi;
  beforeEach(async () => {
    api = await startFakeTeamsApi({
      token,
      conversations: { [personal]: { personal: true }, [group]: { personal: false } },
      minStreamIntervalMs: 20,
    });
  });
  afterEach(() => api.close());
  const activity = (id: string, conversationType: string) => ({
    serviceUrl: api.serviceUrl,
    conversation: { id, conversationType },
  });

  it('a 1:1 chat: streamed, then one final message holding the whole answer', async () => {
    const reports = await answerInTeams(new Response(sse), activity(personal, 'personal'), {
      token,
      minIntervalMs: 25,
    });
    const messages = api.messages(personal);
    expect(messages.map((m) => [m.kind, m.state])).toEqual([['stream', 'final']]);
    expect(squeeze(messages[0].text)).toBe(squeeze(answer));
    expect(reports.filter((r) => r.type === 'delivery-failed')).toEqual([]);
  });

  it('a group chat: a posted message (no stream) holding the whole answer', async () => {
    await answerInTeams(new Response(sse), activity(group, 'groupChat'), {
      token,
      minIntervalMs: 25,
    });
    const messages = api.messages(group);
    expect(messages.map((m) => m.kind)).toEqual(['message']);
    expect(squeeze(messages[0].text)).toBe(squeeze(answer));
  });
});
