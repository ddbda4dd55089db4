import { redisEventLog } from '../../src/redis';
import type { EventLog } from '../../src/relay/log/eventLog';
import { connectClient, describeRedis, type TestClient } from '../helpers/redisServer';
import { stopContract } from '../relay/stopContract';

// Two nodes: two logs on two clients of one redis-server; the stop is called on the one that
// does not record, and reaches the recorder through Redis.
describeRedis('Stop: redisEventLog, two nodes', (server) => {
  const clients: TestClient[] = [];
  const logs: EventLog[] = [];
  beforeAll(async () => {
    clients.push(await connectClient(server()), await connectClient(server()));
  });
  afterAll(async () => {
    await Promise.all(logs.map((log) => log.close()));
    for (const client of clients) client.destroy();
  });
  stopContract(() => {
    const [producer, other] = clients.map((client) => redisEventLog({ client, heartbeatMs: 200 }));
    logs.push(producer, other);
    return { producer, other };
  }, 'redis');
});
