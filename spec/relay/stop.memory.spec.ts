import { memoryEventLog } from '../../src/relay/log/memoryEventLog';
import type { EventLog } from '../../src/relay/log/eventLog';
import { stopContract } from './stopContract';

// One process: the producer and the other "node" are the same memoryEventLog.
describe('Stop: memoryEventLog', () => {
  const logs: EventLog[] = [];
  afterAll(() => Promise.all(logs.map((log) => log.close())));
  stopContract(() => {
    const log = memoryEventLog();
    logs.push(log);
    return { producer: log, other: log };
  }, 'memory');
});
