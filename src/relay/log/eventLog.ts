import type { Observable } from 'rxjs';
import type { StreamEvent } from '../../events';

/** An event as a log keeps it: its position in the stream (0, 1, 2, …) and the event. */
export interface LoggedEvent {
  readonly seq: number;
  readonly event: StreamEvent;
}

/** Where a stream stands in a log: recording (`open`), ended with its terminal, or not held. */
export type StreamStatus = 'open' | 'finished' | 'unknown';

/** Options of {@link EventLog.claim}. */
export interface ClaimOptions {
  /** The chat this stream answers in: the claimed stream becomes the chat's latest response. */
  chatId?: string;
}

/**
 * Where relayed streams are kept, so that any reader — now or later, on this process or another —
 * can replay and follow them. Two backends: `memoryEventLog` (one process) and
 * `redisEventLog` (`llm-rx/redis`, many processes). `recordTo` and `followLog` see only this
 * interface.
 *
 * A stream id names one stream: claiming an id the log still holds (open, or finished and within
 * its TTL) fails with `stream-exists`, so positions never restart under a reader's feet.
 *
 * Chats and responses: a chat (the id `useChat` sends, the same for every turn) has many
 * responses, each a stream of its own id. A claim with `chatId` makes its stream the chat's
 * latest response; {@link EventLog.latest} finds it again (a resume route after a reload).
 */
export interface EventLog {
  /**
   * Claims `streamId` for one recorder, atomically (two racing claims: exactly one wins). Emits one
   * writer and completes, or errors with an `LlmRxError`: `stream-exists` when the log holds the
   * id, `log-unavailable` when the backend cannot be reached.
   */
  claim(streamId: string, options?: ClaimOptions): Observable<EventLogWriter>;
  /**
   * The events of `streamId` with `seq > after`: those stored, then live ones as they are
   * appended, completing after the terminal event. Nothing lost or duplicated between the two
   * parts, whatever the timing of the subscribe. An `after` beyond the last event stored of an
   * open stream waits for the events past it (another node or a fast client can be ahead).
   * Errors with an `LlmRxError`: `unknown-stream`, `log-unavailable`, `producer-lost`, and
   * `invalid-last-event-id` (status 400) when `after` is at or past the terminal of a finished
   * stream (also when the stream finishes below a waiting `after`); -1 is always valid.
   * Unsubscribing releases whatever the read holds.
   */
  read(streamId: string, after: number): Observable<LoggedEvent>;
  /**
   * The stream id of the latest response claimed with this `chatId`, while that stream is
   * readable (open, or finished within its TTL); `undefined` otherwise. Rejects with
   * `log-unavailable` when the backend cannot be reached.
   */
  latest(chatId: string): Promise<string | undefined>;
  /** Whether `streamId` is `open` (no terminal yet), `finished`, or `unknown` to the log. */
  status(streamId: string): Promise<StreamStatus>;
  /**
   * Asks the recorder of `streamId` to stop, whichever node it runs on: aborts every
   * `stopSignal(streamId)` (Redis: on every node, within 500 ms). `recordTo` then ends the
   * stream `incomplete` `aborted` (with `reason` in its message), so every follower and every
   * later reader sees the text produced before the stop, then the stop. Nothing happens to a
   * stream that already finished. Resolves once the stop is recorded; rejects with
   * `log-unavailable` when the backend cannot be reached.
   */
  stop(streamId: string, reason?: string): Promise<void>;
  /**
   * The signal a stop of `streamId` aborts (its `reason` an `LlmRxError` `aborted`). The
   * producer passes it to its provider `fetch` (and `streamEvents`' `signal`), so that a stop
   * closes the provider request; `recordTo` watches it too. May be asked for before the stream
   * is claimed.
   */
  stopSignal(streamId: string): AbortSignal;
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
