import { type FailedEvent } from '../events';
import { failedEvent } from '../terminalEvents';

/**
 * The idle rule of ensureTerminal and followLog in one place: what a stream ends with when no
 * event came for `idleTimeoutMs` (a retryable `failed` `stalled` naming the wait).
 *
 * @param idleTimeoutMs - the longest wait between two events
 * @param source - what the events come from, for the message (`''`, or `' from the event log'`)
 */
export function stalledEvent(idleTimeoutMs: number, source: string): FailedEvent {
  return failedEvent(
    'stalled',
    `No event arrived${source} for ${idleTimeoutMs} ms; the stream stalled.`,
    true,
  );
}
