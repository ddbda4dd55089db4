import { Observable, type Subscription } from 'rxjs';
import { isTerminal, streamEvents, type StreamEvent, type TerminalEvent } from '../../../src/index';

/** Options of {@link resumableEvents}. */
export interface ResumableEventsOptions {
  /** Aborting it ends the stream with `incomplete` `aborted` (the Stop button). */
  signal: AbortSignal;
  /** Give up after this many reconnects in a row. @defaultValue 5 */
  maxReconnects?: number;
  /** The pause before a reconnect. @defaultValue 250 */
  retryDelayMs?: number;
  /** Called before each reconnect with how many there were so far and the id it resumes after. */
  onReconnect?: (attempt: number, lastEventId: number) => void;
}

/** Failures that mean the connection went, not the stream: the stream goes on at the server. */
const CONNECTION_LOST = new Set(['stream-closed', 'stream-error']);

/**
 * The events of one relayed stream (`toSseResponse` at the server), read with llm-rx's own
 * `streamEvents(response, { provider: 'llm-rx' })`, reconnecting when the connection is lost and
 * resuming after the last event received (`Last-Event-ID`), so that nothing is missed or repeated.
 *
 * Ids are positions (DESIGN §11): the n-th event received from the wire has id n − 1, so the
 * reader counts what it received instead of parsing ids. Only events from the wire are counted:
 * the `failed` that `streamEvents` makes of a lost connection is not, and neither is a
 * `truncated-event` warning right before it (the tail the cut connection left).
 */
export function resumableEvents(
  url: string,
  options: ResumableEventsOptions,
): Observable<StreamEvent> {
  const { signal, maxReconnects = 5, retryDelayMs = 250, onReconnect } = options;
  return new Observable<StreamEvent>((subscriber) => {
    let lastEventId = -1;
    let reconnects = 0;
    let failuresInRow = 0;
    let heldWarning: StreamEvent | undefined;
    let current: Subscription | undefined;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;

    const end = (terminal: TerminalEvent) => {
      signal.removeEventListener('abort', onAbortWhileWaiting);
      subscriber.next(terminal);
      subscriber.complete();
    };
    const aborted = (): TerminalEvent => ({
      type: 'incomplete',
      reason: 'aborted',
      message: 'Stopped while reconnecting.',
    });
    const onAbortWhileWaiting = () => {
      if (retryTimer === undefined) return; // a live stream ends itself, through its signal
      clearTimeout(retryTimer);
      retryTimer = undefined;
      end(aborted());
    };

    const connect = () => {
      retryTimer = undefined;
      const headers: Record<string, string> = {};
      if (lastEventId >= 0) headers['last-event-id'] = String(lastEventId);
      fetch(url, { headers, signal, cache: 'no-store' }).then(
        (response) => {
          if (subscriber.closed) return;
          current = streamEvents(response, { provider: 'llm-rx', signal }).subscribe({
            next: onEvent,
            error: (error: unknown) => subscriber.error(error),
          });
        },
        (error: unknown) => {
          if (subscriber.closed) return;
          if (signal.aborted) return end(aborted());
          connectionLost({
            type: 'failed',
            error: { code: 'stream-error', message: String(error), retryable: true },
          });
        },
      );
    };

    const onEvent = (event: StreamEvent) => {
      if (isTerminal(event)) {
        const lost =
          event.type === 'failed' && CONNECTION_LOST.has(event.error.code) && !signal.aborted;
        if (lost) return connectionLost(event);
        releaseHeldWarning();
        return end(event);
      }
      releaseHeldWarning();
      if (event.type === 'warning' && event.code === 'truncated-event') {
        heldWarning = event;
        return;
      }
      lastEventId++;
      failuresInRow = 0;
      subscriber.next(event);
    };

    const releaseHeldWarning = () => {
      if (heldWarning === undefined) return;
      lastEventId++;
      subscriber.next(heldWarning);
      heldWarning = undefined;
    };

    const connectionLost = (failure: TerminalEvent) => {
      heldWarning = undefined;
      if (failuresInRow >= maxReconnects) return end(failure);
      failuresInRow++;
      reconnects++;
      retryTimer = setTimeout(connect, retryDelayMs);
      onReconnect?.(reconnects, lastEventId); // after the timer is set: it may press Stop
    };

    signal.addEventListener('abort', onAbortWhileWaiting);
    connect();
    return () => {
      signal.removeEventListener('abort', onAbortWhileWaiting);
      clearTimeout(retryTimer);
      current?.unsubscribe();
    };
  });
}
