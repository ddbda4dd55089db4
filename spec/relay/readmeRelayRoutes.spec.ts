import { relayRoutes } from '../../examples/web/server/relayRoutes';
import type { StreamEvent } from '../../src/events';
import { memoryEventLog } from '../../src/relay/log/memoryEventLog';
import { streamEvents } from '../../src/streamEvents';
import { collect } from '../helpers/bytes';
import { fakeModel, userMessage } from './chatServerHelpers';

const base = 'http://localhost/api/chat';
const post = (chatId: string, text: string) =>
  new Request(base, {
    method: 'POST',
    body: JSON.stringify({ chatId, messages: [userMessage('u', text)] }),
  });
const get = (query: string, lastEventId?: string) =>
  new Request(`${base}?${query}`, {
    headers: lastEventId === undefined ? {} : { 'last-event-id': lastEventId },
  });
const textOf = (events: StreamEvent[]) =>
  events.map((event) => (event.type === 'text-delta' ? event.delta : '')).join('');

// The web chat guide's fetch-style handlers on llm-rx's wire (examples/web/server/relayRoutes.ts).
describe("the README's fetch-style handlers, llm-rx's wire", () => {
  const model = fakeModel();
  const log = memoryEventLog();
  const routes = relayRoutes(log, (messages) => model.call(messages));
  afterAll(() => log.close());

  it('a turn, a resume after Last-Event-ID, the latest by chat, 204 and 400', async () => {
    const none = await routes.GET(get('chatId=c1'));
    expect(none.status).toBe(204);
    const answer = await routes.POST(post('c1', 'hi'));
    const responseId = answer.headers.get('x-llm-rx-response')!;
    const events = await collect(streamEvents(answer));
    expect([textOf(events), events[events.length - 1].type]).toEqual([
      'You said: hi.',
      'completed',
    ]);

    const resumed = await routes.GET(get(`responseId=${responseId}`, '1'));
    const body = await resumed.text();
    const ids = [...body.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
    expect(ids).toEqual(events.slice(2).map((_, i) => i + 2));

    const latest = await routes.GET(get('chatId=c1', '5')); // by chat: from the start
    expect(latest.headers.get('x-llm-rx-response')).toBe(responseId);
    expect(await collect(streamEvents(latest))).toEqual(events);

    const second = await routes.POST(post('c1', 'again'));
    expect(textOf(await collect(streamEvents(second)))).toBe('You said: again.');
    expect(second.headers.get('x-llm-rx-response')).not.toBe(responseId);
    expect(await log.latest('c1')).toBe(second.headers.get('x-llm-rx-response'));

    const bad = await routes.GET(get(`responseId=${responseId}`, 'abc'));
    expect(bad.status).toBe(400);
  });
});
