import { Observable, VirtualTimeScheduler, type Subscriber } from 'rxjs';
import { channel } from '../channels/channel';
import type { ChannelName } from '../channels/presets';
import type { StreamEvent } from '../events';
import type { TimedEvent } from './decode';

/**
 * A VirtualTimeScheduler that the replay moves forward itself: the capture's events are not
 * queued on it (that queue, sorted on every insert, made a replay quadratic in the capture
 * size); only the channel's own timers (idle, window) are, a handful at a time.
 */
class ReplayScheduler extends VirtualTimeScheduler {
  /**
   * Runs every timer due before `atMs`, in due order (then in the order they were scheduled),
   * and sets the clock to `atMs`. A timer due at `atMs` itself runs after the events of that
   * time, as it would after source events scheduled before it on one virtual scheduler.
   */
  runUntil(atMs: number): void {
    const { actions } = this;
    for (let action = actions[0]; action && action.delay < atMs; action = actions[0]) {
      actions.shift();
      this.frame = action.delay;
      const error = action.execute(action.state, action.delay);
      if (error) {
        while ((action = actions.shift()!)) action.unsubscribe();
        throw error;
      }
    }
    if (atMs > this.frame) this.frame = atMs;
  }
}

/** Feeds a channel with timed events one by one; see {@link createChannelReplay}. */
export interface ChannelReplay {
  /** The next decoded event (times never go back): timers due before it run first. */
  push(entry: TimedEvent): void;
  /** The source ends at the last event's time; the timers left run out. Throws what failed. */
  end(): void;
}

/**
 * A channel on a virtual clock, fed decoded events at their times: its idle and window timers
 * fire exactly as they would in real time, so the result is the same at any replay speed.
 * Linear in the number of events, and memory stays flat: the clock moves from one event's time
 * to the next and only the channel's own timers wait on it; each output goes to `onOutput` at
 * once, with its replay time.
 */
export function createChannelReplay(
  name: ChannelName,
  onOutput: (entry: TimedEvent) => void,
): ChannelReplay {
  const scheduler = new ReplayScheduler();
  let input: Subscriber<StreamEvent> | undefined;
  const source = new Observable<StreamEvent>((subscriber) => {
    input = subscriber;
  });
  let failure: unknown;
  let lastMs = 0;
  const subscription = source.pipe(channel(name, { scheduler })).subscribe({
    next: (event) => onOutput({ atMs: scheduler.now(), event }),
    error: (error) => (failure = error),
  });
  return {
    push({ atMs, event }) {
      if (!input || input.closed) return;
      scheduler.runUntil(atMs);
      lastMs = atMs;
      input.next(event);
    },
    end() {
      scheduler.runUntil(lastMs);
      input?.complete();
      scheduler.flush();
      subscription.unsubscribe();
      if (failure !== undefined) throw failure;
    },
  };
}

/** What a channel sends when the decoded events arrive at their times (see createChannelReplay). */
export function channelTimeline(decoded: readonly TimedEvent[], name: ChannelName): TimedEvent[] {
  const output: TimedEvent[] = [];
  const replay = createChannelReplay(name, (entry) => output.push(entry));
  for (const entry of decoded) replay.push(entry);
  replay.end();
  return output;
}
