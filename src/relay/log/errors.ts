import { LlmRxError } from '../../errors';

// The errors every EventLog backend raises in the same words, so readers see one behaviour.

/** `stream-exists`: the log still holds `streamId` (open, or finished within its TTL). */
export function streamExists(streamId: string): LlmRxError {
  return new LlmRxError(
    'stream-exists',
    `The event log already holds a stream "${streamId}" (open, or finished within its TTL); ` +
      `record each response under a new id.`,
  );
}

/** `unknown-stream`: the log holds nothing under `streamId`. */
export function unknownStream(streamId: string): LlmRxError {
  return new LlmRxError(
    'unknown-stream',
    `The event log holds no stream "${streamId}": it never existed, or it finished and its TTL passed.`,
  );
}

/**
 * `invalid-last-event-id` when `after` is not a position a reader can resume from: not a whole
 * number, below -1, or at or past the terminal of a finished stream (`end`, the terminal's seq;
 * undefined while the stream is open, when any position may still come); otherwise undefined.
 * HTTP status 400: the client asked for something that cannot exist.
 */
export function checkResumePosition(
  streamId: string,
  after: number,
  end: number | undefined,
): LlmRxError | undefined {
  if (!Number.isInteger(after) || after < -1) {
    return invalidPosition(streamId, after, 'not a whole number of at least -1');
  }
  if (end !== undefined && after >= end) return pastTheEnd(streamId, after, end);
  return undefined;
}

/** `invalid-last-event-id` for a reader at `after` of a stream whose terminal is at `end` ≤ after. */
export function pastTheEnd(streamId: string, after: number, end: number): LlmRxError {
  return invalidPosition(
    streamId,
    after,
    `at or past the end of the stream (its terminal is position ${end})`,
  );
}

function invalidPosition(streamId: string, after: number, why: string): LlmRxError {
  return new LlmRxError(
    'invalid-last-event-id',
    `Cannot resume stream "${streamId}" after position ${after}: it is ${why}.`,
    { status: 400 },
  );
}
