import { Observable, type SchedulerLike, type Subscription } from 'rxjs';
import {
  type FailedEvent,
  type StreamEvent,
  type TerminalEvent,
  type WarningEvent,
} from '../../events';
import { failedEvent, failedFromError, isTerminal } from '../../terminalEvents';

/**
 * One event of a connection to llm-rx's wire: `id` is its position (the SSE `id:`), `undefined`
 * for a wire message without one (it is the next position), `null` for an event the client made
 * itself (the `failed` of an HTTP error status), which holds no position.
 */
export interface WireEvent {
  event: StreamEvent;
  id?: number | null;
}

/** Opens a connection that resumes after `lastEventId` (none: from the start). */
export type ConnectWire = (lastEventId: number | undefined) => Observable<WireEvent>;

/** The options {@link resumeWire} runs with, already checked. */
export interface ResumeWireOptions {
  maxAttempts: number;
  backoffMs: number | number[];
  signal?: AbortSignal;
  scheduler: SchedulerLike;
}

/** Failures of the connection, not of the stream: the stream goes on at the server. */
const CONNECTION_LOST = new Set(['stream-closed', 'stream-error']);

/**
 * The timed core of `resumableEvents`: connects, passes each new event once, and after a lost
 * connection waits the backoff and connects again after the last position received. Events at
 * or before that position (a server that replays) are skipped; the first terminal ends it.
 */
export function resumeWire(
  connect: ConnectWire,
  options: ResumeWireOptions,
): Observable<StreamEvent> {
  const { maxAttempts, backoffMs, signal, scheduler } = options;
  const delayBeforeRetry = (retry: number): number =>
    typeof backoffMs === 'number'
      ? backoffMs * 2 ** (retry - 1)
      : backoffMs[Math.min(retry, backoffMs.length) - 1];

  return new Observable<StreamEvent>((subscriber) => {
    let lastEventId: number | undefined;
    let failuresInRow = 0;
    let connection: Subscription | undefined;
    let backoffTimer: Subscription | undefined;
    let ended = false;

    const end = (terminal: TerminalEvent) => {
      if (ended) return;
      ended = true;
      signal?.removeEventListener('abort', onAbort);
      connection?.unsubscribe();
      backoffTimer?.unsubscribe();
      subscriber.next(terminal);
      subscriber.complete();
    };

    const onAbort = () =>
      end({ type: 'incomplete', reason: 'aborted', message: 'The reader was stopped.' });

    const lost = (failure: FailedEvent) => {
      connection?.unsubscribe();
      connection = undefined;
      if (signal?.aborted) return onAbort();
      if (!CONNECTION_LOST.has(failure.error.code)) return end(failure);
      failuresInRow++;
      if (failuresInRow >= maxAttempts) return end(failure);
      const delayMs = delayBeforeRetry(failuresInRow);
      // The timer first: whoever reads the warning may stop the reader, which cancels it.
      backoffTimer = scheduler.schedule(connectNext, delayMs);
      subscriber.next(reconnectWarning(failuresInRow, maxAttempts, delayMs, lastEventId, failure));
    };

    const onWireEvent = ({ event, id }: WireEvent) => {
      if (id === null) return isTerminal(event) ? end(event) : subscriber.next(event);
      const position = id ?? (lastEventId ?? -1) + 1;
      if (lastEventId !== undefined && position <= lastEventId) return; // replayed: already sent
      lastEventId = position;
      failuresInRow = 0;
      if (isTerminal(event)) return end(event);
      subscriber.next(event);
    };

    function connectNext() {
      backoffTimer = undefined;
      let closed = false;
      const subscription = connect(lastEventId).subscribe({
        next: (item) => {
          if (closed || ended) return;
          // A failure the client made (an HTTP error status) ends this connection.
          if (item.id === null && item.event.type === 'failed') {
            closed = true;
            return lost(item.event);
          }
          onWireEvent(item);
        },
        error: (error: unknown) => {
          closed = true;
          if (!ended) lost(failedFromError(error));
        },
        complete: () => {
          closed = true;
          if (!ended) {
            lost(
              failedEvent(
                'stream-closed',
                'The connection closed before the terminal event.',
                true,
              ),
            );
          }
        },
      });
      // The connection may have ended while subscribing (a synchronous source).
      if (closed || ended) subscription.unsubscribe();
      else connection = subscription;
    }

    if (signal?.aborted) {
      onAbort();
      return;
    }
    signal?.addEventListener('abort', onAbort);
    connectNext();
    return () => {
      signal?.removeEventListener('abort', onAbort);
      connection?.unsubscribe();
      backoffTimer?.unsubscribe();
    };
  });
}

function reconnectWarning(
  attempt: number,
  maxAttempts: number,
  delayMs: number,
  lastEventId: number | undefined,
  failed: FailedEvent,
): WarningEvent {
  const after = lastEventId === undefined ? 'from the start' : `after event ${lastEventId}`;
  return {
    type: 'warning',
    code: 'retry',
    message: `The connection was lost (${failed.error.code}); reconnecting ${after} in ${delayMs} ms (attempt ${attempt + 1} of ${maxAttempts}).`,
    detail: {
      attempt,
      maxAttempts,
      delayMs,
      lastEventId: lastEventId ?? null,
      error: failed.error,
    },
  };
}
