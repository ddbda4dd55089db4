import { firstValueFrom, type Observable } from 'rxjs';
import type { StreamEvent } from '../../src/events';
import type { EventLog, EventLogWriter, LoggedEvent } from '../../src/relay/log/eventLog';

/** `count` text deltas then `completed`: the events of a small recorded stream. */
export function textEvents(count: number, terminal = true): StreamEvent[] {
  const events: StreamEvent[] = [];
  for (let i = 0; i < count; i++) events.push({ type: 'text-delta', id: 't', delta: `d${i} ` });
  if (terminal) events.push({ type: 'completed' });
  return events;
}

/** How a read ended: the events it got, then `complete` or the error's code. */
export interface ReadResult {
  readonly events: LoggedEvent[];
  readonly end: 'complete' | string;
  readonly error?: Error & { code?: string; retryable?: boolean };
}

/** Subscribes to `read$` and resolves when it completes or errors. */
export function collect(read$: Observable<LoggedEvent>): Promise<ReadResult> {
  const events: LoggedEvent[] = [];
  return new Promise((resolve) =>
    read$.subscribe({
      next: (logged) => events.push(logged),
      complete: () => resolve({ events, end: 'complete' }),
      error: (error: Error & { code?: string }) =>
        resolve({ events, end: error.code ?? error.message, error }),
    }),
  );
}

/** Claims `streamId` on `log`. */
export function claim(log: EventLog, streamId: string): Promise<EventLogWriter> {
  return firstValueFrom(log.claim(streamId));
}

/** The logged events of `events` from position `from` on. */
export function logged(events: StreamEvent[], from = 0): LoggedEvent[] {
  return events.slice(from).map((event, i) => ({ seq: from + i, event }));
}

/** Resolves after `ms` (specs only: waits for Redis TTLs, never asserts on time). */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` (bounded) until it returns true; false when it never did. */
export async function eventually(probe: () => Promise<boolean>, tries = 100, everyMs = 50) {
  for (let i = 0; i < tries; i++) {
    if (await probe()) return true;
    await sleep(everyMs);
  }
  return false;
}
