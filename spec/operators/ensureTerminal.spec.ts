import { getEventListeners } from 'node:events';
import { defer, NEVER, of } from 'rxjs';
import type { StreamEvent } from '../../src/events';
import { ensureTerminal } from '../../src/operators/ensureTerminal';

// Timing lives in marbles/ensure-terminal/. Here: construction errors and the abort listener.

const delta: StreamEvent = { type: 'text-delta', id: 't', delta: 'Hi' };
const completed: StreamEvent = { type: 'completed', finishReason: 'stop' };
const aborted: StreamEvent = {
  type: 'incomplete',
  reason: 'aborted',
  message: 'The caller aborted the stream.',
};

const abortListeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

describe('ensureTerminal', () => {
  it('names itself and the offending field in the message of a bad option', () => {
    expect(() => ensureTerminal({ idleTimeoutMs: -1 })).toThrow(
      'ensureTerminal: invalid options\n✖ Too small: expected number to be >=0\n  → at idleTimeoutMs',
    );
  });

  it('a signal aborted before subscription ends at once, without subscribing to the source', () => {
    const controller = new AbortController();
    controller.abort();
    let subscribed = 0;
    const out: StreamEvent[] = [];
    let done = false;
    defer(() => {
      subscribed++;
      return of(delta, completed);
    })
      .pipe(ensureTerminal({ signal: controller.signal }))
      .subscribe({ next: (event) => out.push(event), complete: () => (done = true) });
    expect(out).toEqual([aborted]);
    expect(done).toBe(true);
    expect(subscribed).toBe(0);
    expect(abortListeners(controller.signal)).toBe(0);
  });

  it('removes its abort listener when the stream ends and when it is unsubscribed', () => {
    const controller = new AbortController();
    const out: StreamEvent[] = [];
    of(delta, completed)
      .pipe(ensureTerminal({ signal: controller.signal }))
      .subscribe((event) => out.push(event));
    expect(out).toEqual([delta, completed]);
    expect(abortListeners(controller.signal)).toBe(0);

    const subscription = NEVER.pipe(ensureTerminal({ signal: controller.signal })).subscribe();
    expect(abortListeners(controller.signal)).toBe(1);
    subscription.unsubscribe();
    expect(abortListeners(controller.signal)).toBe(0);
  });
});
