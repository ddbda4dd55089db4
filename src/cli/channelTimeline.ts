import { Observable, VirtualTimeScheduler, type Subscription } from 'rxjs';
import { channel } from '../channels/channel';
import type { ChannelName } from '../channels/presets';
import type { StreamEvent } from '../events';
import type { TimedEvent } from './decode';

/**
 * What a channel sends when the decoded events arrive at their times: the channel runs on a
 * VirtualTimeScheduler, so its idle and window timers fire exactly as they would in real time,
 * and the result is the same at any replay speed.
 */
export function channelTimeline(decoded: TimedEvent[], name: ChannelName): TimedEvent[] {
  const scheduler = new VirtualTimeScheduler();
  const source = new Observable<StreamEvent>((subscriber) => {
    const timers: Subscription[] = decoded.map(({ atMs, event }) =>
      scheduler.schedule(() => subscriber.next(event), atMs),
    );
    const endMs = decoded.length > 0 ? decoded[decoded.length - 1].atMs : 0;
    timers.push(scheduler.schedule(() => subscriber.complete(), endMs));
    return () => timers.forEach((timer) => timer.unsubscribe());
  });
  const output: TimedEvent[] = [];
  let failure: unknown;
  source.pipe(channel(name, { scheduler })).subscribe({
    next: (event) => output.push({ atMs: scheduler.now(), event }),
    error: (error) => (failure = error),
  });
  scheduler.flush();
  if (failure !== undefined) throw failure;
  return output;
}
