/**
 * Waits `ms` milliseconds, or rejects with the signal's reason as soon as `signal` aborts: a
 * transport that must hold a request back (an exhausted rate-limit bucket, a platform's minimum
 * interval) waits here, and an unsubscribed `deliver` stops the wait.
 */
export function waitFor(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  if (!(ms > 0)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, Math.ceil(ms));
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Milliseconds on a monotonic clock (never jumps with the wall clock). */
export const monotonicNow = (): number => performance.now();
