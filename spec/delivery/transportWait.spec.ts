// The wait a transport makes before a request its rate limit holds back: over real time, so
// only lower bounds and what is left behind are asserted.
import { getEventListeners } from 'node:events';
import { monotonicNow, waitFor } from '../../src/delivery/transportWait';

const settled = (promise: Promise<void>) =>
  promise.then(
    () => 'resolved',
    (reason: unknown) => reason,
  );

describe('waitFor', () => {
  it('rejects with the reason of a signal already aborted, before any wait', async () => {
    const controller = new AbortController();
    const reason = new Error('stopped');
    controller.abort(reason);
    expect(await settled(waitFor(50, controller.signal))).toBe(reason);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it.each([0, -5, Number.NaN])('resolves at once for %s ms, adding no listener', async (ms) => {
    const { signal } = new AbortController();
    const waiting = waitFor(ms, signal);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    expect(await settled(waiting)).toBe('resolved');
  });

  it('resolves after at least the time asked for, and removes its abort listener', async () => {
    const { signal } = new AbortController();
    const start = monotonicNow();
    const waiting = waitFor(20.2, signal);
    expect(getEventListeners(signal, 'abort')).toHaveLength(1);
    expect(await settled(waiting)).toBe('resolved');
    expect(monotonicNow() - start).toBeGreaterThanOrEqual(20);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('rejects with the reason as soon as the signal aborts, and its timer no longer fires', async () => {
    const controller = new AbortController();
    const reason = new DOMException('Stopped by the user.', 'AbortError');
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout');
    const before = timers().length;
    // An hour: a timer left behind would hold the process open that long.
    const waiting = waitFor(3_600_000, controller.signal);
    expect(timers()).toHaveLength(before + 1);
    controller.abort(reason);
    expect(timers()).toHaveLength(before);
    expect(await settled(waiting)).toBe(reason);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});

describe('monotonicNow', () => {
  it('reads performance.now(): milliseconds that never go back', () => {
    const before = performance.now();
    const first = monotonicNow();
    const second = monotonicNow();
    const after = performance.now();
    expect(first).toBeGreaterThanOrEqual(before);
    expect(second).toBeGreaterThanOrEqual(first);
    expect(after).toBeGreaterThanOrEqual(second);
  });
});
