import { LlmRxError } from '../../errors';

/**
 * The resume position a client sent (the `Last-Event-ID` header, or a query parameter), as the
 * `after` of `followLog`: -1 when there is none (start from the beginning).
 *
 * - A value that is not a whole number, or is negative, throws `LlmRxError`
 *   `invalid-last-event-id` with `status: 400`: answer the request with that status.
 * - Whether the position exists is the log's to say: `followLog` waits for a position ahead
 *   of an open stream, and ends with `failed` `invalid-last-event-id` (status 400) for one at
 *   or past the terminal of a finished stream.
 *
 * @example
 * ```ts
 * let after: number;
 * try {
 *   after = parseLastEventId(request.headers.get('last-event-id'));
 * } catch (error) {
 *   return new Response((error as Error).message, { status: 400 });
 * }
 * return toSseResponse(followLog(log, responseId, { after }), { startAt: after + 1 });
 * ```
 * @param value - the header's value; `null` / `undefined` / empty means none
 */
export function parseLastEventId(value: string | null | undefined): number {
  const text = value?.trim() ?? '';
  if (text === '') return -1;
  if (/^\d{1,15}$/.test(text)) return Number(text);
  const shown = JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
  throw new LlmRxError(
    'invalid-last-event-id',
    `Last-Event-ID ${shown} is not a position in the stream: expected a whole number ≥ 0 ` +
      `(the id: of the last event received).`,
    { status: 400 },
  );
}
