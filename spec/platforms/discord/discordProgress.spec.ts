// Tool progress on Discord: a status line in the message while it grows, gone at finish.
import type { MessageEdit, ToolStatus } from '../../../src/channels/messageEditPlanner';
import { discordTransport } from '../../../src/platforms/discord/discordTransport';
import { startFakeDiscordApi, type FakeDiscordApi } from '../../helpers/discord/fakeDiscordApi';
import { transportCall } from '../../helpers/transportCall';

const token = 'MTA-DISCORD-SECRET.progress';
const channelId = '1100';
const tool = (status: ToolStatus['status']): ToolStatus => ({ id: 'c1', name: 'fetch', status });
const edit = (text: string, progress?: ToolStatus[]): MessageEdit => ({
  op: 'edit',
  message: 0,
  text,
  ...(progress ? { progress } : {}),
});

describe('discordTransport tool progress', () => {
  let api: FakeDiscordApi;
  beforeEach(async () => {
    api = await startFakeDiscordApi({ token, channels: [channelId] });
  });
  afterEach(() => api.close());

  it('shows the status line in the preview; the finished message holds the answer only', async () => {
    const discord = discordTransport({ token, channelId, apiBase: api.apiBase });
    const ref = await discord.send(edit('', [tool('running')]), transportCall());
    await discord.edit(ref, edit('Reading', [tool('running')]), transportCall());
    await discord.finish(ref, edit('Reading done.', [tool('done')]), transportCall());
    const [message] = api.channels.get(channelId)!;
    expect(message.history).toEqual(['⏳ fetch', 'Reading\n\n⏳ fetch…', 'Reading done.']);
  });
});
