import { LlmRxError } from '../errors';
import type { StreamEvent } from '../events';
import type { LoggedEvent } from '../relay/log/eventLog';

/** The `LoggedEvent` of one XREAD / XRANGE entry (RESP2: `[id, [field, value, …]]`). */
export function parseEntry(entry: unknown, streamId: string): LoggedEvent | LlmRxError {
  const [, fields] = entry as [string, string[]];
  const seq = Number(fields[fields.indexOf('seq') + 1]);
  try {
    const event = JSON.parse(fields[fields.indexOf('event') + 1]) as StreamEvent;
    return { seq, event };
  } catch {
    return new LlmRxError(
      'malformed-event',
      `redisEventLog: the entry at position ${seq} of "${streamId}" is not JSON (was the key written by something else?)`,
    );
  }
}

/** The error of a follower whose next events were trimmed away by `maxLen`. */
export function trimmedError(streamId: string, cursor: number, first: number): LlmRxError {
  return new LlmRxError(
    'invalid-last-event-id',
    `redisEventLog: the events of "${streamId}" after position ${cursor} were trimmed (maxLen); the oldest kept is ${first}; resume from a later position or raise maxLen`,
  );
}

/** The error of followers whose recorder stopped refreshing its liveness key. */
export function producerLost(streamId: string): LlmRxError {
  return new LlmRxError(
    'producer-lost',
    `redisEventLog: the recorder of "${streamId}" stopped refreshing its liveness key (its process died or stalled); every event it stored was delivered; retry the request`,
    { retryable: true },
  );
}
