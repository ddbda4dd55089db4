import { Subject, concat, defer, from, NEVER, type SchedulerLike } from 'rxjs';
import type { StreamEvent } from '../../src/events';
import { followLog } from '../../src/relay/log/followLog';
import { memoryEventLog } from '../../src/relay/log/memoryEventLog';
import { recordTo } from '../../src/relay/log/recordTo';
import { collect } from '../helpers/bytes';
import { countingScheduler } from '../reliability/leakCheck';

const hel: StreamEvent = { type: 'text-delta', id: 't', delta: 'Hel' };
const lo: StreamEvent = { type: 'text-delta', id: 't', delta: 'lo' };
const done: StreamEvent = { type: 'completed', finishReason: 'stop' };

describe('memoryEventLog with recordTo and followLog', () => {
  const scheduler = countingScheduler();
  const log = memoryEventLog({ ttlMs: 60_000, scheduler });
  afterAll(async () => {
    await log.close();
    expect(scheduler.pending()).toBe(0);
  });

  it('recordTo passes on exactly what it appends; followLog replays it', async () => {
    const passed = await collect(from([hel, lo, done]).pipe(recordTo(log, 'a')));
    expect(passed).toEqual([hel, lo, done]);
    expect(await collect(followLog(log, 'a'))).toEqual([hel, lo, done]);
    expect(await collect(followLog(log, 'a', { after: 1 }))).toEqual([done]);
  });

  it('recording to an id the log still holds: failed stream-exists, source never subscribed', async () => {
    let subscribed = false;
    const source = defer(() => {
      subscribed = true;
      return from([hel]);
    });
    await collect(from([done]).pipe(recordTo(log, 'b')));
    expect(await collect(source.pipe(recordTo(log, 'b')))).toEqual([
      {
        type: 'failed',
        error: {
          code: 'stream-exists',
          message:
            'The event log already holds a stream "b" (open, or finished within its TTL); record each response under a new id.',
          retryable: false,
        },
      },
    ]);
    expect(subscribed).toBe(false);
  });

  it('following an unknown id: failed stream-not-found after startTimeoutMs', async () => {
    expect(await collect(followLog(log, 'nope', { startTimeoutMs: 120 }))).toEqual([
      {
        type: 'failed',
        error: {
          code: 'stream-not-found',
          message:
            'No stream "nope" appeared in the event log within 120 ms: it was never recorded, its recorder did not start, or it finished and its TTL passed.',
          retryable: false,
        },
      },
    ]);
  });

  it('a position ahead of an open stream waits; at or past the terminal: invalid-last-event-id, at once', async () => {
    const source = new Subject<StreamEvent>();
    const recording = source.pipe(recordTo(log, 'c')).subscribe();
    source.next(hel);
    const seen: StreamEvent[] = [];
    followLog(log, 'c', { after: 1 }).subscribe((event) => seen.push(event));
    expect(seen).toEqual([]);
    source.next(lo); // position 1
    expect(seen).toEqual([]);
    source.next(done); // position 2
    expect(seen).toEqual([done]);
    expect(await collect(followLog(log, 'c', { after: 2 }))).toEqual([
      {
        type: 'failed',
        error: {
          code: 'invalid-last-event-id',
          message:
            'Cannot resume stream "c" after position 2: it is at or past the end of the stream (its terminal is position 2).',
          status: 400,
          retryable: false,
        },
      },
    ]);
    recording.unsubscribe();
  });

  it('a recorder unsubscribed before the terminal appends incomplete aborted; followers end', async () => {
    const seen: StreamEvent[] = [];
    const recording = concat(from([hel]), NEVER)
      .pipe(recordTo(log, 'd'))
      .subscribe();
    const following = collect(followLog(log, 'd'));
    followLog(log, 'd').subscribe((event) => seen.push(event));
    recording.unsubscribe();
    const aborted = {
      type: 'incomplete',
      reason: 'aborted',
      message: 'The recorder was unsubscribed before the stream ended.',
    };
    expect(await following).toEqual([hel, aborted]);
    expect(seen).toEqual([hel, aborted]);
  });

  it('a source that completes without a terminal: failed stream-closed recorded and passed on', async () => {
    const closed = {
      type: 'failed',
      error: {
        code: 'stream-closed',
        message: 'The recorded stream ended without a terminal event.',
        retryable: true,
      },
    };
    expect(await collect(from([hel]).pipe(recordTo(log, 'e')))).toEqual([hel, closed]);
    expect(await collect(followLog(log, 'e'))).toEqual([hel, closed]);
  });

  it('a follower that appends from its own next() still sees every event once, in order', async () => {
    const source = new Subject<StreamEvent>();
    source.pipe(recordTo(log, 'f')).subscribe();
    const first: StreamEvent[] = [];
    const second: StreamEvent[] = [];
    followLog(log, 'f').subscribe((event) => {
      first.push(event);
      if (event === hel) source.next(lo);
    });
    followLog(log, 'f').subscribe((event) => second.push(event));
    source.next(hel);
    source.next(done);
    expect(first).toEqual([hel, lo, done]);
    expect(second).toEqual([hel, lo, done]);
  });
});

describe('memoryEventLog TTLs, without a timer of its own', () => {
  /** A clock the test moves; the log never schedules on it (schedule throws). */
  function manualClock() {
    let now = 0;
    return {
      scheduler: {
        now: () => now,
        schedule: () => {
          throw new Error('memoryEventLog scheduled a timer');
        },
      } as unknown as SchedulerLike,
      advance: (ms: number) => (now += ms),
    };
  }

  it('a finished stream, and its chat pointer, stay until ttlMs after the terminal, then are gone', async () => {
    const clock = manualClock();
    const log = memoryEventLog({ ttlMs: 100, scheduler: clock.scheduler });
    await collect(from([hel, done]).pipe(recordTo(log, 'r1', { chatId: 'c' })));
    clock.advance(99);
    expect([await log.status('r1'), await log.latest('c')]).toEqual(['finished', 'r1']);
    expect(await collect(followLog(log, 'r1'))).toEqual([hel, done]);
    clock.advance(1);
    expect([await log.status('r1'), await log.latest('c')]).toEqual(['unknown', undefined]);
    expect(await collect(followLog(log, 'r1', { startTimeoutMs: 0 }))).toEqual([
      expect.objectContaining({
        type: 'failed',
        error: expect.objectContaining({ code: 'stream-not-found' }),
      }),
    ]);
    // The id is free again once forgotten.
    expect(await collect(from([lo, done]).pipe(recordTo(log, 'r1')))).toEqual([lo, done]);
  });

  it('an open stream never expires; a chat names its newest response, an older one keeps its own TTL', async () => {
    const clock = manualClock();
    const log = memoryEventLog({ ttlMs: 10, scheduler: clock.scheduler });
    const open = new Subject<StreamEvent>();
    const recording = open.pipe(recordTo(log, 'long', { chatId: 'c' })).subscribe();
    open.next(hel);
    clock.advance(1000);
    expect([await log.status('long'), await log.latest('c')]).toEqual(['open', 'long']);
    await collect(from([done]).pipe(recordTo(log, 'newer', { chatId: 'c' })));
    expect(await log.latest('c')).toBe('newer');
    open.next(done);
    clock.advance(10);
    expect([await log.status('long'), await log.status('newer'), await log.latest('c')]).toEqual([
      'unknown',
      'unknown',
      undefined,
    ]);
    recording.unsubscribe();
  });

  it('recordTo rejects a bad chatId and unknown options at once', () => {
    expect(() => recordTo(memoryEventLog(), 'x', { chatId: '' })).toThrow(
      expect.objectContaining({ code: 'invalid-options' }),
    );
    expect(() => recordTo(memoryEventLog(), 'x', { chat: 'c' } as never)).toThrow(
      expect.objectContaining({ code: 'invalid-options' }),
    );
  });
});
