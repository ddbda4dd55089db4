import type { SchedulerLike, Subscription } from 'rxjs';
import { failedEvent, type FailedEvent } from '../events';

/** A re-armable idle timer: {@link stallTimer}. */
export interface StallTimer {
  /** Starts the wait again (on subscription and after each event). */
  arm(): void;
  /** Stops the wait for good (on the terminal and on teardown). */
  clear(): void;
}

/**
 * The idle rule of ensureTerminal and followLog in one place: when `arm()` is not called again
 * within `idleTimeoutMs`, `onStall` gets one retryable `failed` `stalled` naming the wait.
 *
 * @param scheduler - where the timer runs
 * @param idleTimeoutMs - the longest wait between two events
 * @param source - what the events come from, for the message (`''`, or `' from the event log'`)
 * @param onStall - ends the stream with the `failed` event
 */
export function stallTimer(
  scheduler: SchedulerLike,
  idleTimeoutMs: number,
  source: string,
  onStall: (stalled: FailedEvent) => void,
): StallTimer {
  let timer: Subscription | undefined;
  const stall = () =>
    onStall(
      failedEvent(
        'stalled',
        `No event arrived${source} for ${idleTimeoutMs} ms; the stream stalled.`,
        true,
      ),
    );
  return {
    arm() {
      timer?.unsubscribe();
      timer = scheduler.schedule(stall, idleTimeoutMs);
    },
    clear() {
      timer?.unsubscribe();
    },
  };
}
