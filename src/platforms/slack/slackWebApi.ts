import * as z from 'zod/mini';
import { DeliveryError } from '../../delivery/errors';
import { postJson, retryAfterHeaderMs, scrub } from '../../delivery/httpCall';

/** The Web API methods the Slack transport calls. */
export type SlackMethod =
  | 'chat.postMessage'
  | 'chat.update'
  | 'chat.delete'
  | 'chat.startStream'
  | 'chat.appendStream'
  | 'chat.stopStream';

const SlackAnswer = z.looseObject({
  ok: z.boolean(),
  error: z.optional(z.string()),
  ts: z.optional(z.string()),
});

/** A successful Web API answer: what the transport reads from it. */
export type SlackAnswer = z.infer<typeof SlackAnswer>;

/** Slack `error` codes that no retry can fix: auth, channel, message and argument errors. */
const PERMANENT_ERRORS = new Set([
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'token_expired',
  'no_permission',
  'missing_scope',
  'not_allowed_token_type',
  'team_access_not_granted',
  'ekm_access_denied',
  'channel_not_found',
  'not_in_channel',
  'is_archived',
  'restricted_action',
  'channel_type_not_supported',
  'msg_too_long',
  'no_text',
  'invalid_blocks',
  'invalid_chunks',
  'invalid_arguments',
  'invalid_arg_name',
  'invalid_charset',
  'cant_update_message',
  'cant_delete_message',
  'message_not_found',
  'edit_window_closed',
  'missing_recipient_team_id',
  'missing_recipient_user_id',
  'message_not_in_streaming_state',
]);

/** Slack's rate-limit codes; the wait comes from `Retry-After`, else one second. */
const RATE_LIMIT_ERRORS = new Set(['ratelimited', 'rate_limited']);

/**
 * A failed Web API call, classified once: `retryAfterMs` (HTTP 429 or `ratelimited`),
 * `permanent` (the codes above, or a 4xx that is not the Web API), else transient. `slackError`
 * is Slack's own `error` code, so the transport can fall back on the ones it knows.
 */
export class SlackCallError extends DeliveryError {
  constructor(
    message: string,
    readonly slackError: string | undefined,
    context: { status: number; retryAfterMs?: number; permanent?: boolean },
  ) {
    super(message, context);
  }
}

/** Settings shared by every call of one transport: a token and where, or a client. */
export interface SlackApiSettings {
  token: string;
  base: string;
  fetch: typeof fetch;
  /** The bot's own Web API client (`@slack/web-api`'s WebClient): used instead of the token. */
  client?: SlackClient;
}

/**
 * A Slack Web API client a bot already has: `@slack/web-api`'s `WebClient` (structurally: its
 * `apiCall(method, options)`, resolving to the answer and rejecting with its platform error
 * `data.error`, or `slack_webapi_rate_limited_error` with `retryAfter` in seconds).
 */
export interface SlackClient {
  apiCall(method: string, options?: Record<string, unknown>): Promise<unknown>;
}

/** True when `value` has the shape of a {@link SlackClient}. */
export function isSlackClient(value: unknown): value is SlackClient {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as SlackClient).apiCall === 'function'
  );
}

/** One call through a {@link SlackClient}, its failures classified as {@link callSlack}'s. */
async function callSlackClient(
  client: SlackClient,
  method: SlackMethod,
  payload: Record<string, unknown>,
): Promise<SlackAnswer> {
  const label = `Slack ${method}`;
  try {
    const parsed = SlackAnswer.safeParse(await client.apiCall(method, payload));
    if (parsed.success && parsed.data.ok) return parsed.data;
    const code = parsed.success ? (parsed.data.error ?? 'unknown_error') : undefined;
    throw new SlackCallError(`${label}: ${code ?? 'an answer that is not the Web API'}`, code, {
      status: 200,
      permanent: code !== undefined && PERMANENT_ERRORS.has(code),
    });
  } catch (thrown) {
    if (thrown instanceof SlackCallError) throw thrown;
    const error = thrown as {
      code?: string;
      data?: { error?: string };
      retryAfter?: number;
      statusCode?: number;
      message?: string;
    };
    if (error?.code === 'slack_webapi_rate_limited_error') {
      const retryAfterMs = (error.retryAfter ?? 1) * 1000;
      throw new SlackCallError(`${label}: ratelimited`, 'ratelimited', {
        status: 429,
        retryAfterMs,
      });
    }
    const code = error?.data?.error;
    if (code !== undefined) {
      if (RATE_LIMIT_ERRORS.has(code)) {
        throw new SlackCallError(`${label}: ${code}`, code, { status: 429, retryAfterMs: 1000 });
      }
      const permanent = PERMANENT_ERRORS.has(code);
      throw new SlackCallError(`${label}: ${code}`, code, { status: 200, permanent });
    }
    // No Web API answer (a network error, an HTTP error): transient, and it may have acted.
    const why = String(error?.message ?? thrown).slice(0, 200);
    throw new DeliveryError(`${label}: no answer (${why})`, {
      ambiguous: true,
      status: error?.statusCode,
    });
  }
}

/**
 * Calls one Web API method with a JSON body (the bearer token in the header, never in the
 * body or a message). Resolves to the answer when Slack says `ok`; rejects with a
 * {@link SlackCallError} otherwise, and with a retryable DeliveryError when nothing answered.
 */
export async function callSlack(
  settings: SlackApiSettings,
  method: SlackMethod,
  payload: Record<string, unknown>,
  signal: AbortSignal,
): Promise<SlackAnswer> {
  if (settings.client) return callSlackClient(settings.client, method, payload);
  const label = `Slack ${method}`;
  const { token } = settings;
  const answer = await postJson(`${settings.base}/api/${method}`, payload, {
    fetch: settings.fetch,
    headers: { authorization: `Bearer ${token}` },
    signal,
    secret: token,
    label,
  });
  const parsed = SlackAnswer.safeParse(answer.body);
  const { status } = answer;
  if (parsed.success && parsed.data.ok && status < 300) return parsed.data;
  const code = parsed.success ? (parsed.data.error ?? 'unknown_error') : undefined;
  const what = scrub(`${label}: ${status} ${code ?? 'an answer that is not the Web API'}`, token);
  if (status === 429 || (code !== undefined && RATE_LIMIT_ERRORS.has(code))) {
    const retryAfterMs = retryAfterHeaderMs(answer.headers) ?? 1000;
    throw new SlackCallError(what, code, { status, retryAfterMs });
  }
  const permanent =
    code !== undefined ? PERMANENT_ERRORS.has(code) : status < 500 && status !== 408;
  throw new SlackCallError(what, code, { status, permanent });
}

/** One Web API call of a transport: its method, its payload (the channel in it), its signal. */
export type SlackCall = (
  method: SlackMethod,
  payload: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<SlackAnswer>;

/** Slack's `error` code of a failure from {@link callSlack}, if it had one. */
export function slackErrorOf(error: unknown): string | undefined {
  return error instanceof SlackCallError ? error.slackError : undefined;
}
