import { EMPTY, Observable, switchMap, timer } from 'rxjs';
import { followLog } from '../../src/relay/log/followLog';
import { memoryEventLog } from '../../src/relay/log/memoryEventLog';
import { recordTo } from '../../src/relay/log/recordTo';
import type { MarbleOperatorFactory } from './marbleOperators';

/**
 * Marble entries for the event log: recordTo and followLog over memoryEventLog.
 *
 * recordThenFollow: the source is recorded into a fresh memoryEventLog under "s" (subscribed
 * at frame 0); the output is `followLog(log, "s", { after, idleTimeoutMs })` subscribed at
 * `args.followAtMs`. With `followFirst` the follower's timer is scheduled before the recording
 * is subscribed, so in a shared frame the follower subscribes before the append; without it,
 * after. `ttlMs` is the log's. `recordAtMs` delays the recording (the follower then waits for
 * the id, up to `startTimeoutMs`); `noRecording` never records; `stopAtMs` calls
 * `log.stop("s", stopReason)` at that frame. Teardown stops the recording and closes the log.
 */
export const relayMarbleOperators: Record<string, MarbleOperatorFactory> = {
  recordThenFollow:
    (
      {
        followAtMs,
        followFirst = false,
        after,
        idleTimeoutMs,
        startTimeoutMs,
        ttlMs,
        recordAtMs = 0,
        noRecording = false,
        stopAtMs,
        stopReason,
      },
      scheduler,
    ) =>
    (source) =>
      new Observable((subscriber) => {
        const log = memoryEventLog({ ttlMs, scheduler });
        const follow = () =>
          timer(followAtMs, scheduler)
            .pipe(
              switchMap(() =>
                followLog(log, 's', { after, idleTimeoutMs, startTimeoutMs, scheduler }),
              ),
            )
            .subscribe(subscriber);
        const record = () =>
          noRecording
            ? EMPTY.subscribe()
            : timer(recordAtMs, scheduler)
                .pipe(switchMap(() => source.pipe(recordTo(log, 's'))))
                .subscribe();
        const [first, second] = followFirst ? [follow(), record()] : [record(), follow()];
        const stop =
          stopAtMs === undefined
            ? undefined
            : scheduler.schedule(() => void log.stop('s', stopReason), stopAtMs);
        return () => {
          stop?.unsubscribe();
          first.unsubscribe();
          second.unsubscribe();
          void log.close();
        };
      }),
};
