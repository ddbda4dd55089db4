import type { MessageEdit } from '../channels/messageEditPlanner';
import type { WarningCode } from '../errors';

export type { DeliveryLedger, LedgerEntry } from './ledger';

/** A note a transport adds to a call's report (e.g. it fell back to plain text). */
export interface DeliveryWarning {
  code: Extract<
    WarningCode,
    | 'plain-text-fallback'
    | 'slack-stream-rotated'
    | 'slack-stream-expired'
    | 'slack-stream-too-long'
    | 'slack-posted-split'
  >;
  message: string;
}

/** Handed to each transport call by `deliver`. */
export interface TransportCall {
  /** 1 for the first call carrying this message's pending text, 2 for the first retry, … */
  attempt: number;
  /** Aborted when the subscriber unsubscribes: pass it on to `fetch`. */
  signal: AbortSignal;
  /** Adds a note to this call's `sent` / `edited` / `finished` report. */
  warn(code: DeliveryWarning['code'], message: string): void;
}

/**
 * A chat app behind the three calls of a message's lifecycle. `send` opens a new message and
 * resolves to its reference (a Telegram `message_id` or draft, a Slack `ts` or stream); `edit`
 * shows that message's newer whole text; `finish`, when present, makes its text final (persists
 * a draft, stops a stream). `edit` and `finish` may resolve to a new ref, which replaces the
 * stored one for later calls (a stream continued in a new message); `undefined` keeps it. A
 * failure rejects, ideally with a {@link DeliveryError} saying whether to wait, skip or give up.
 *
 * `deliver` calls `finish` once per sent message, after the message's last edit settled, with
 * its final text: when the next message starts, or when the source ended. A transport without
 * `finish` needs none (its last edit is final).
 */
export interface DeliveryTransport<Ref = unknown> {
  send(edit: MessageEdit, call: TransportCall): PromiseLike<Ref>;
  edit(ref: Ref, edit: MessageEdit, call: TransportCall): PromiseLike<Ref | void | undefined>;
  finish?(ref: Ref, edit: MessageEdit, call: TransportCall): PromiseLike<Ref | void | undefined>;
  /** The platform's minimum interval between calls to one chat: `deliver`'s default. */
  readonly minIntervalMs?: number;
  /** The longest text one message may hold: what to give `toMessageEdits({ maxMessageChars })`. */
  readonly maxMessageChars?: number;
  /**
   * The transport paces its own calls (a chat's flood budget): `deliver` waits `readyIn()`
   * milliseconds before it takes a text out for an edit, so the text that goes out is the
   * newest one when the chat can take it. A send is taken at once and waits in the budget
   * (a new message's first words claim the next free slot), and a finish is not waited for
   * (it may make no call at all).
   */
  readonly budget?: { readyIn(): number };
  /**
   * Aborted when the user stopped the answer (a platform's Stop button): an answer that then
   * ends `incomplete` `aborted` is reported `stopped`, with the `⏹ Stopped.` notice.
   */
  readonly stopSignal?: AbortSignal;
}

/** A message's text went out as a new message. */
export interface SentReport {
  type: 'sent';
  message: number;
  text: string;
  /** Calls it took, retries included. */
  attempts: number;
  warnings?: DeliveryWarning[];
}

/** A message was edited to `text` (`notModified`: it already showed that text). */
export interface EditedReport {
  type: 'edited';
  message: number;
  text: string;
  attempts: number;
  notModified?: true;
  warnings?: DeliveryWarning[];
}

/**
 * A message's text was made final (`finish`, transports that have it): the last report of a
 * message, once (`notModified`: the platform already held it as final).
 */
export interface FinishedReport {
  type: 'finished';
  message: number;
  text: string;
  attempts: number;
  notModified?: true;
  warnings?: DeliveryWarning[];
}

/** A call failed and will be tried again after `delayMs` (every call waits that long). */
export interface RetryingReport {
  type: 'retrying';
  message: number;
  op: 'send' | 'edit' | 'finish';
  /** Which attempt failed: 1 for the first. */
  attempt: number;
  delayMs: number;
  /** `retry-after`: the platform said how long to wait; `backoff`: doubling from `backoffMs`. */
  reason: 'retry-after' | 'backoff';
  error: { message: string };
}

/** A text that waited was replaced by a newer text of the same message before it went out. */
export interface SupersededReport {
  type: 'superseded';
  message: number;
  text: string;
}

/**
 * A call failed for good: `maxAttempts` used up (the next message goes on), or `permanent`
 * (auth, chat not found, bot blocked: the answer's delivery ends, no further call).
 */
export interface DeliveryFailedReport {
  type: 'delivery-failed';
  message: number;
  op: 'send' | 'edit' | 'finish';
  text: string;
  attempts: number;
  /** The platform refused for good: no further call was made for this answer. */
  permanent?: true;
  error: { code: 'delivery-failed'; message: string; status?: number };
}

/** What `deliver` emits: one report per outcome, in the order they happened. */
export type DeliveryReport =
  | SentReport
  | EditedReport
  | FinishedReport
  | RetryingReport
  | SupersededReport
  | DeliveryFailedReport
  | ResumedReport
  | DeliveryWarningReport
  | AnswerReport;

/** How an answer ended, as the chat shows it. */
export type AnswerOutcome = 'completed' | 'incomplete' | 'failed' | 'stopped' | 'silent';

/**
 * The last report of every answer, once: how it ended (`outcome`, from the `end` step's
 * terminal), `reason` (the incomplete reason or the failure's code), `error` (a failure's code
 * and message), how many chat messages it has, and whether every call went through. Unless it
 * `completed` or was `silent`, the chat already shows a notice.
 */
export interface AnswerReport {
  type: 'answer';
  outcome: AnswerOutcome;
  reason?: string;
  error?: { code: string; message: string; status?: number };
  /** Chat messages that hold the answer (sent, or found in the ledger), the notice's included. */
  messages: number;
  /** False when a call failed for good: the chat may miss some of the answer or its notice. */
  delivered: boolean;
}

/**
 * A reply's earlier delivery, found in the ledger: the first text this run saw for `message`
 * (sent by an earlier run) and what the ledger said. Texts it already holds are not sent again.
 */
export interface ResumedReport {
  type: 'resumed';
  message: number;
  /** The last text the platform acknowledged in the earlier run. */
  text: string;
  finished: boolean;
}

/**
 * Something the user should know, with the delivery going on: `possible-duplicate` (a call
 * whose outcome is unknown — a timeout, a reset connection, a 5xx — is retried, and the
 * platform may already have acted on it: a message may show twice) or `ledger-write-failed`
 * (the call went through, but the ledger did not record it: a restart may repeat it).
 */
export interface DeliveryWarningReport {
  type: 'warning';
  code: Extract<WarningCode, 'possible-duplicate' | 'ledger-write-failed'>;
  message: number;
  op: 'send' | 'edit' | 'finish';
  attempt: number;
  /** What happened, for a person (never a token or a whole payload). */
  detail: string;
}
