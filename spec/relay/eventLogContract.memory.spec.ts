import { memoryEventLog } from '../../src/relay/log/memoryEventLog';
import type { EventLog } from '../../src/relay/log/eventLog';
import { eventLogContract } from './eventLogContract';

describe('the EventLog contract: memoryEventLog', () => {
  const logs: EventLog[] = [];
  afterAll(() => Promise.all(logs.map((log) => log.close())));
  eventLogContract(() => {
    const log = memoryEventLog();
    logs.push(log);
    return log;
  }, 'memory');
});
