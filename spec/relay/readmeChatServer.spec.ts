import type { Server } from 'node:http';
import { chatRoutes } from '../../examples/web/server/chatRoutes';
import { chatServer } from '../../examples/web/server/nodeServer';
import { memoryEventLog } from '../../src/relay/log/memoryEventLog';
import {
  chatClient,
  fakeModel,
  listen,
  openUIAnswer,
  readUIAnswer,
  userMessage,
} from './chatServerHelpers';

// The web chat guide's useChat server (examples/web/server/chatRoutes.ts + nodeServer.ts, which
// docs/web-chat.md shows verbatim) on one process with memoryEventLog.
describe("the README's useChat server, on memoryEventLog", () => {
  const model = fakeModel();
  const log = memoryEventLog();
  let server: Server;
  let client: ReturnType<typeof chatClient>;
  beforeAll(async () => {
    server = chatServer(chatRoutes(log, (messages) => model.call(messages)));
    client = chatClient(await listen(server));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await log.close();
  });

  it('two turns of one chat get two different answers, each its own response', async () => {
    const first = [userMessage('u1', 'hello')];
    const one = await readUIAnswer(await client.turn('chat-a', first));
    const second = [
      ...first,
      { id: one.messageId, role: 'assistant', parts: [] },
      userMessage('u2', 'again'),
    ];
    const two = await readUIAnswer(await client.turn('chat-a', second));
    expect([one.text, one.finishReason, two.text, two.finishReason]).toEqual([
      'You said: hello.',
      'stop',
      'You said: again.',
      'stop',
    ]);
    expect(one.messageId).not.toEqual(two.messageId);
    expect(await log.latest('chat-a')).toBe(two.messageId);
  });

  it('the resume route: 204 with nothing to resume, then the open response from its start', async () => {
    const nothing = await client.resume('chat-b');
    expect([nothing.status, await nothing.text()]).toEqual([204, '']);
    model.hold();
    const turn = openUIAnswer(await client.turn('chat-b', [userMessage('u1', 'wait for it')]));
    await turn.started; // the user saw the first words, then reloads
    const reading = turn.done;
    // The response is open (the model holds its answer): a reload resumes it.
    expect(await log.status((await log.latest('chat-b'))!)).toBe('open');
    const resumed = await client.resume('chat-b');
    expect(resumed.status).toBe(200);
    const resuming = readUIAnswer(resumed);
    model.release();
    const [live, again] = await Promise.all([reading, resuming]);
    expect(live).toEqual({
      status: 200,
      messageId: live.messageId,
      text: 'You said: wait for it.',
      finishReason: 'stop',
    });
    expect(again).toEqual(live);
    expect(await log.status(live.messageId!)).toBe('finished');
  });
});
