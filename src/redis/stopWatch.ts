import type { Subscription } from 'rxjs';
import type { StopSignals } from '../relay/log/stopSignals';
import { commands } from './commands';
import { answerDeadlineMs, withDeadline } from './deadline';
import { streamKeys, type ResolvedRedisEventLogOptions } from './options';

/**
 * How often a node asks Redis whether the streams it holds stop signals of were stopped. A stop
 * on any node then aborts them within this plus a round trip (well under 500 ms).
 */
export const STOP_POLL_MS = 200;

/** The stop watch of one log: started when a signal is asked for, idle when none is watched. */
export interface StopWatch {
  /** Makes sure the watch runs (a signal was just asked for). */
  start(): void;
  /** Stops the watch for good (the log closed). */
  close(): void;
}

/**
 * Why a poll and not pub/sub: a stop is a key (`…:stop`, with the stream's TTL) that any node
 * reads, so a signal asked for after the stop, or a node that was reconnecting when it came,
 * still sees it; and the log needs no subscriber connection. One short script per watched stream
 * per tick, on the user's client; the timer runs only while a signal is watched, and a signal is
 * let go when its stream finished (or never appeared within max(5 s, 3 × `heartbeatMs`)).
 */
export function createStopWatch(
  options: ResolvedRedisEventLogOptions,
  signals: StopSignals,
): StopWatch {
  const { client, keyPrefix, heartbeatMs, scheduler } = options;
  const unknownSince = new Map<string, number>();
  let timer: Subscription | undefined;
  let polling = false;
  let closed = false;

  const check = async (streamId: string) => {
    const state = await withDeadline(
      commands.stopState(client, streamKeys(keyPrefix, streamId)),
      answerDeadlineMs(heartbeatMs),
      scheduler,
      'watching for a stop',
    );
    if (state.stopped) signals.abort(streamId, state.reason === '' ? undefined : state.reason);
    else if (state.end >= 0) signals.forget(streamId);
    else if (state.end === -1) unknownSince.delete(streamId);
    else {
      const since = unknownSince.get(streamId) ?? scheduler.now();
      unknownSince.set(streamId, since);
      if (scheduler.now() - since > answerDeadlineMs(heartbeatMs)) signals.forget(streamId);
    }
    if (!signals.has(streamId) || state.stopped) unknownSince.delete(streamId);
  };
  const poll = () => {
    timer = undefined;
    if (closed) return;
    polling = true;
    const ids = signals.watched();
    // A failed check is tried again on the next tick; Redis lost is the followers' business.
    void Promise.all(ids.map((id) => check(id).catch(() => undefined))).then(() => {
      polling = false;
      schedule();
    });
  };
  const schedule = () => {
    if (closed || timer || polling || signals.watched().length === 0) return;
    timer = scheduler.schedule(poll, STOP_POLL_MS);
  };
  return {
    start: schedule,
    close() {
      closed = true;
      timer?.unsubscribe();
      timer = undefined;
    },
  };
}
