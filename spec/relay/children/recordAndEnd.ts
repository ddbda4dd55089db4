// A script as a user writes one (spawned by memoryEventLogExit.spec.ts): it records a stream into
// memoryEventLog() with the default one-hour TTL, reads it back, prints it and ends, without
// close(). Node must exit at once: the log may hold nothing open.
import { concat, from, lastValueFrom, toArray } from 'rxjs';
import type { StreamEvent } from '../../../src/events';
import { followLog } from '../../../src/relay/log/followLog';
import { memoryEventLog } from '../../../src/relay/log/memoryEventLog';
import { recordTo } from '../../../src/relay/log/recordTo';

async function main() {
  const log = memoryEventLog();
  const events: StreamEvent[] = [
    { type: 'text-delta', id: 't', delta: 'Hello' },
    { type: 'completed', finishReason: 'stop' },
  ];
  await lastValueFrom(concat(from(events)).pipe(recordTo(log, 'r1', { chatId: 'c1' })));
  const replayed = await lastValueFrom(followLog(log, 'r1').pipe(toArray()));
  process.stdout.write(`${JSON.stringify({ latest: await log.latest('c1'), replayed })}\n`);
}

void main();
