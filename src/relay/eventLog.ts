import type { Observable } from 'rxjs';
import type { StreamEvent } from '../events';

/** An event as a log keeps it: its position in the stream (0, 1, 2, …) and the event. */
export interface LoggedEvent {
  readonly seq: number;
  readonly event: StreamEvent;
}

/**
 * Where relayed streams are kept, so that any reader — now or later, on this process or another —
 * can replay and follow them. Two backends: `memoryEventLog` (one process) and
 * `redisEventLog` (`llm-rx/redis`, many processes). `recordTo` and `followLog` see only this
 * interface.
 *
 * A stream id names one stream: claiming an id the log still holds (open, or finished and within
 * its TTL) fails with `stream-exists`, so positions never restart under a reader's feet.
 */
export interface EventLog {
  /**
   * Claims `streamId` for one recorder, atomically (two racing claims: exactly one wins). Emits one
   * writer and completes, or errors with an `LlmRxError`: `stream-exists` when the log holds the
   * id, `log-unavailable` when the backend cannot be reached.
   */
  claim(streamId: string): Observable<EventLogWriter>;
  /**
   * The events of `streamId` with `seq > after`: those stored, then live ones as they are
   * appended, completing after the terminal event. Nothing lost or duplicated between the two
   * parts, whatever the timing of the subscribe. Errors with an `LlmRxError`: `unknown-stream`,
   * `log-unavailable`, `producer-lost`, and `invalid-last-event-id` (status 400) when `after` is
   * past the last event stored at the time of the read (`after >= count`; -1 is always valid),
   * so a bad resume position fails at once instead of waiting. Unsubscribing releases whatever
   * the read holds.
   */
  read(streamId: string, after: number): Observable<LoggedEvent>;
  /** Releases everything the log opened (connections, timers). Idempotent. */
  close(): Promise<void>;
}

/** The handle of the one recorder of a stream, from {@link EventLog.claim}. */
export interface EventLogWriter {
  /**
   * Appends the next event; its `seq` is the number appended before. Order is kept. A terminal
   * event closes the stream: readers complete after it, and nothing may be appended after it.
   */
  append(event: StreamEvent): void;
  /**
   * Emits once, with an `LlmRxError` (`log-unavailable`), when the backend fails after the claim
   * (an append that could not be stored). The recorder then ends its stream as `failed`.
   */
  readonly failures: Observable<Error>;
  /** Stops what the writer keeps running (liveness heartbeats); appends already made still land. */
  release(): void;
}
