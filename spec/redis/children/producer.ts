// A recorder in a process of its own (spawned by multiProcess.spec.ts): it records events into a
// redisEventLog and says "ready <n>" once n events landed; each "more" line on stdin adds five.
// The parent SIGKILLs it mid-stream: no terminal, no goodbye.
import { createClient } from 'redis';
import { Observable, Subject } from 'rxjs';
import type { StreamEvent } from '../../../src/events';
import { redisEventLog } from '../../../src/redis';
import { recordTo } from '../../../src/relay/log/recordTo';

const [url, streamId, heartbeatMs] = process.argv.slice(2);

async function main() {
  const client = createClient({ url });
  client.on('error', () => undefined);
  await client.connect();
  const log = redisEventLog({ client, heartbeatMs: Number(heartbeatMs) });
  const source = new Subject<StreamEvent>();
  let started: () => void = () => undefined;
  const subscribed = new Promise<void>((resolve) => (started = resolve));
  // recordTo subscribes its source once the claim is granted: only then may events flow.
  new Observable<StreamEvent>((subscriber) => {
    const inner = source.subscribe(subscriber);
    started();
    return inner;
  })
    .pipe(recordTo(log, streamId))
    .subscribe();
  await subscribed;
  let appended = 0;
  const addFive = async () => {
    for (let i = 0; i < 5; i++)
      source.next({ type: 'text-delta', id: 't', delta: `e${appended++}` });
    await client.sendCommand(['PING']); // same connection: every append before it landed
    process.stdout.write(`ready ${appended}\n`);
  };
  process.stdin.on('data', () => void addFive());
  await addFive();
}

void main();
