import { redisEventLog } from '../../src/redis';
import type { EventLog } from '../../src/relay/log/eventLog';
import { connectClient, describeRedis, type TestClient } from '../helpers/redisServer';
import { eventLogContract } from '../relay/eventLogContract';

// The same checks as memoryEventLog, each test with a log of its own on one client.
describeRedis('the EventLog contract: redisEventLog', (server) => {
  let client: TestClient;
  const logs: EventLog[] = [];
  beforeAll(async () => {
    client = await connectClient(server());
  });
  afterAll(async () => {
    await Promise.all(logs.map((log) => log.close()));
    client.destroy();
  });
  eventLogContract(() => {
    const log = redisEventLog({ client, heartbeatMs: 200 });
    logs.push(log);
    return log;
  }, 'redis');
});
