// One call of the WhatsApp Cloud API (Graph `POST /{phone-number-id}/messages`) and how its
// errors are read: Graph error bodies carry a numeric `code` that says more than the status.

import * as z from 'zod/mini';
import { DeliveryError } from '../../delivery/errors';
import { postWithBearer, retryAfterHeaderMs, scrub } from '../../delivery/httpCall';

/** A Graph API error body: `{ error: { message, type, code, error_data: { details } } }`. */
const GraphError = z.looseObject({
  error: z.looseObject({
    message: z.optional(z.string()),
    code: z.optional(z.number()),
    error_data: z.optional(z.looseObject({ details: z.optional(z.string()) })),
  }),
});

/** Throughput (130429: 80 messages a second per number) and spam rate limits: wait a second. */
const THROUGHPUT_CODES = new Set([130429, 131048]);
/** Pair rate (131056: one number to one user, about one message every 6 s): wait that long. */
const PAIR_RATE_CODE = 131056;
/** App and account call limits (Graph 4, 80007): wait a minute. */
const CALL_LIMIT_CODES = new Set([4, 80007]);
/**
 * Retrying cannot help: the token (0, 190), permissions (3, 10, 200–299), the account (131031),
 * the user outside the 24-hour window (131047), unknown or undeliverable user (131026, 131030),
 * a bad parameter (100, 131008, 131009).
 */
const PERMANENT_CODES = new Set([
  0, 3, 10, 100, 190, 131008, 131009, 131026, 131030, 131031, 131047,
]);

/** Settings of {@link createWhatsAppApi}. */
export interface WhatsAppApiOptions {
  token: string;
  url: string;
  fetch: typeof fetch;
  /** How long a pair-rate refusal (131056) waits. */
  pairRateMs: number;
}

/** Posts one payload to the phone number's `/messages` edge; resolves to the parsed answer. */
export function createWhatsAppApi({ token, url, fetch, pairRateMs }: WhatsAppApiOptions) {
  return async (what: string, payload: unknown, signal: AbortSignal): Promise<unknown> => {
    const label = `WhatsApp ${what}`;
    const answer = await postWithBearer(url, payload, { fetch, token, signal, label });
    const { status } = answer;
    if (status >= 200 && status < 300) return answer.body;
    const parsed = GraphError.safeParse(answer.body);
    const error = parsed.success ? parsed.data.error : undefined;
    const code = error?.code;
    const details = error?.error_data?.details;
    const said = [error?.message, details].filter((part) => part !== undefined).join(': ');
    const what_ =
      error === undefined
        ? 'an answer that is not the Graph API'
        : `${said || 'error'}${code === undefined ? '' : ` (code ${code})`}`;
    const message = scrub(`${label}: ${status} ${what_}`, token);
    const headerMs = retryAfterHeaderMs(answer.headers);
    if (code !== undefined && THROUGHPUT_CODES.has(code)) {
      throw new DeliveryError(message, { status, retryAfterMs: headerMs ?? 1000 });
    }
    if (code === PAIR_RATE_CODE) {
      throw new DeliveryError(message, { status, retryAfterMs: headerMs ?? pairRateMs });
    }
    if (code !== undefined && CALL_LIMIT_CODES.has(code)) {
      throw new DeliveryError(message, { status, retryAfterMs: headerMs ?? 60_000 });
    }
    if (status === 429) {
      throw new DeliveryError(message, { status, retryAfterMs: headerMs ?? 1000 });
    }
    const permanent =
      status === 401 ||
      status === 403 ||
      (code !== undefined && (PERMANENT_CODES.has(code) || (code >= 200 && code < 300))) ||
      (code === undefined && status >= 400 && status < 500 && status !== 408);
    throw new DeliveryError(message, { status, permanent });
  };
}

/** What {@link createWhatsAppApi} returns: one call. */
export type WhatsAppApi = ReturnType<typeof createWhatsAppApi>;
