import { startChatNode } from '../../examples/web/server/redisChatNode';
import {
  connectClient,
  describeRedis,
  type RedisServer,
  type TestClient,
} from '../helpers/redisServer';
import {
  chatClient,
  fakeModel,
  openUIAnswer,
  readUIAnswer,
  userMessage,
} from '../relay/chatServerHelpers';

// The web chat guide's useChat server on two nodes sharing one Redis (examples/web/server/
// redisChatNode.ts, shown verbatim in docs/redis.md): a turn and a resume may land on either node.
describeRedis("the README's useChat server, two nodes on redisEventLog", (server) => {
  // A describe of its own, so the nodes close before the redis-server is killed.
  describe('turns and resumes', () => body(server));
});

function body(server: () => RedisServer) {
  const model = fakeModel();
  let nodes: Awaited<ReturnType<typeof startChatNode>>[];
  let a: ReturnType<typeof chatClient>;
  let b: ReturnType<typeof chatClient>;
  let probe: TestClient;
  beforeAll(async () => {
    nodes = await Promise.all(
      [0, 1].map(() => startChatNode(server().url, (messages) => model.call(messages), 0)),
    );
    const [first, second] = nodes.map(({ server: node }) => {
      const { port } = node.address() as { port: number };
      return chatClient(`http://127.0.0.1:${port}`);
    });
    [a, b] = [first, second];
    probe = await connectClient(server());
  });
  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.close()));
    probe.destroy();
  });

  it('two turns of one chat, on two nodes, get two different answers', async () => {
    const one = await readUIAnswer(await a.turn('chat-r', [userMessage('u1', 'hello')]));
    const two = await readUIAnswer(
      await b.turn('chat-r', [userMessage('u1', 'hello'), userMessage('u2', 'again')]),
    );
    expect([one.text, two.text]).toEqual(['You said: hello.', 'You said: again.']);
    expect(one.messageId).not.toEqual(two.messageId);
    // The chat's pointer names the second response.
    expect(String(await probe.sendCommand(['GET', 'llm-rx:chat:{chat-r}:latest']))).toBe(
      two.messageId,
    );
  });

  it('the resume route on the other node: 204 with nothing to resume, then the open response', async () => {
    const nothing = await b.resume('chat-s');
    expect([nothing.status, await nothing.text()]).toEqual([204, '']);
    model.hold();
    const turn = openUIAnswer(await a.turn('chat-s', [userMessage('u1', 'wait for it')]));
    await turn.started; // the user saw the first words, then reloads (on another node)
    const reading = turn.done;
    const resumed = await b.resume('chat-s');
    expect(resumed.status).toBe(200);
    const resuming = readUIAnswer(resumed);
    model.release();
    const [live, again] = await Promise.all([reading, resuming]);
    expect([live.text, live.finishReason]).toEqual(['You said: wait for it.', 'stop']);
    expect(again).toEqual(live);
  });
}
