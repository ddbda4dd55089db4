// A follower in a process of its own (spawned by multiProcess.spec.ts): prints every event of
// followLog as one JSON line, then exits.
import { createClient } from 'redis';
import { redisEventLog } from '../../../src/redis';
import { followLog } from '../../../src/relay/log/followLog';

const [url, streamId, after, heartbeatMs] = process.argv.slice(2);

async function main() {
  const client = createClient({ url });
  client.on('error', () => undefined);
  await client.connect();
  const log = redisEventLog({ client, heartbeatMs: Number(heartbeatMs) });
  followLog(log, streamId, { after: Number(after) }).subscribe({
    next: (event) => process.stdout.write(`${JSON.stringify(event)}\n`),
    complete: () => {
      void log.close().then(() => client.destroy());
    },
  });
}

void main();
