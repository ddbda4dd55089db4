import { LlmRxError } from '../errors';

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
 * number, below -1, or past the last event stored (`length` events held); otherwise undefined.
 * HTTP status 400: the client asked for something that cannot exist.
 */
export function checkResumePosition(
  streamId: string,
  after: number,
  length: number,
): LlmRxError | undefined {
  if (Number.isInteger(after) && after >= -1 && after < length) return undefined;
  const why =
    Number.isInteger(after) && after >= -1
      ? `past the last event stored (${length === 0 ? 'none yet' : `position ${length - 1}`})`
      : 'not a whole number of at least -1';
  return new LlmRxError(
    'invalid-last-event-id',
    `Cannot resume stream "${streamId}" after position ${after}: it is ${why}.`,
    { status: 400 },
  );
}
