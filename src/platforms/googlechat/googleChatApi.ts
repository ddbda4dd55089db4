// Calls of the Google Chat REST API (`spaces.messages.create` / `patch`) and how their errors
// are read: Google's `{ error: { code, message, status } }` bodies.

import * as z from 'zod/mini';
import { DeliveryError } from '../../delivery/errors';
import { postWithBearer, retryAfterHeaderMs, scrub } from '../../delivery/httpCall';
import { monotonicNow, waitFor } from '../../delivery/transportWait';

const GoogleError = z.looseObject({
  error: z.looseObject({
    message: z.optional(z.string()),
    status: z.optional(z.string()),
  }),
});

/** Settings of {@link createGoogleChatApi}. */
export interface GoogleChatApiOptions {
  getToken: () => string | PromiseLike<string>;
  fetch: typeof fetch;
  /** The first wait after a 429 that names none; it doubles while 429s follow (to 60 s). */
  firstBackoffMs: number;
  /** The least time from one write's answer to the next write. */
  minIntervalMs: number;
}

const MAX_BACKOFF_MS = 60_000;

/**
 * One call at a time of the Chat API with a bearer token from `getToken` (asked each call, so a
 * refreshed token is used), each write `minIntervalMs` after the previous one's answer. A 429 waits its `Retry-After`, else an exponential backoff as
 * Google asks (1 s, 2 s, 4 s … up to 60 s, reset by a success), never counted as a failure;
 * 400, 401, 403 and 404 are permanent; 5xx and network failures are retried.
 */
export function createGoogleChatApi(options: GoogleChatApiOptions) {
  const { getToken, fetch, firstBackoffMs, minIntervalMs } = options;
  let rateLimitedInARow = 0;
  // Counted from the answer, so a call that makes several writes (a text past 4096 characters
  // continued in a new message) is paced too, and the space's window never sees two too close.
  let lastAnswerAt = -Infinity;
  return async (
    method: 'POST' | 'PATCH',
    url: string,
    payload: unknown,
    signal: AbortSignal,
  ): Promise<unknown> => {
    await waitFor(lastAnswerAt + minIntervalMs - monotonicNow(), signal);
    const token = await getToken();
    const label = `Google Chat ${method === 'POST' ? 'spaces.messages.create' : 'spaces.messages.patch'}`;
    const answer = await postWithBearer(url, payload, {
      fetch,
      method,
      token,
      signal,
      label,
    }).finally(() => (lastAnswerAt = monotonicNow()));
    const { status } = answer;
    if (status >= 200 && status < 300) {
      rateLimitedInARow = 0;
      return answer.body;
    }
    const parsed = GoogleError.safeParse(answer.body);
    const what = parsed.success
      ? `${parsed.data.error.status ?? 'error'}: ${parsed.data.error.message ?? ''}`.trim()
      : 'an answer that is not the Chat API';
    const message = scrub(`${label}: ${status} ${what}`.slice(0, 400), token);
    if (status === 429) {
      const backoffMs = Math.min(MAX_BACKOFF_MS, firstBackoffMs * 2 ** rateLimitedInARow++);
      throw new DeliveryError(message, {
        status,
        retryAfterMs: retryAfterHeaderMs(answer.headers) ?? backoffMs,
      });
    }
    throw new DeliveryError(message, {
      status,
      permanent: status >= 400 && status < 500 && status !== 408,
    });
  };
}

/** What {@link createGoogleChatApi} returns: one call. */
export type GoogleChatApi = ReturnType<typeof createGoogleChatApi>;
