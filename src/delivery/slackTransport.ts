import * as z from 'zod/mini';
import type { MessageEdit } from '../channels/messageEditPlanner';
import { parseOptions } from '../internal/options';
import { DeliveryError } from './deliveryError';
import { postJson, retryAfterHeaderMs, scrub } from './httpCall';
import type { DeliveryTransport, TransportCall } from './types';

/** Options of {@link slackTransport}. */
export interface SlackTransportOptions {
  /** A bot token (`xoxb-…`) with `chat:write`. Never printed: messages show `***`. */
  token: string;
  /** The channel id to post in (`C…`). */
  channel: string;
  /** @defaultValue `'https://slack.com'` */
  apiBase?: string;
  /** @defaultValue the global `fetch` */
  fetch?: typeof fetch;
  /** The least time between two calls to this channel (`deliver`'s default). @defaultValue 1000 */
  minIntervalMs?: number;
}

const SlackTransportOptions = z.object({
  token: z.string().check(z.minLength(1, 'the bot token is required')),
  channel: z.string().check(z.minLength(1, 'the channel id is required')),
  apiBase: z._default(z.url(), 'https://slack.com'),
  fetch: z.optional(z.custom<typeof fetch>((value) => typeof value === 'function')),
  minIntervalMs: z._default(z.number().check(z.nonnegative()), 1000),
});

const SlackAnswer = z.looseObject({
  ok: z.boolean(),
  error: z.optional(z.string()),
  ts: z.optional(z.string()),
});

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
  'msg_too_long',
  'no_text',
  'invalid_blocks',
  'invalid_arguments',
  'invalid_arg_name',
  'invalid_charset',
  'cant_update_message',
  'message_not_found',
  'edit_window_closed',
]);

/** Slack's rate-limit codes; the wait comes from `Retry-After`, else one second. */
const RATE_LIMIT_ERRORS = new Set(['ratelimited', 'rate_limited']);

/**
 * A {@link DeliveryTransport} for the Slack Web API: `chat.postMessage` / `chat.update` (mrkdwn)
 * in one channel. The message reference is Slack's `ts`.
 *
 * - Sends `edit.rendered.text` (from `toMessageEdits({ render: 'slack' })`) when present, else
 *   the plain `text`.
 * - HTTP 429 or `ratelimited` → `retryAfterMs` from the `Retry-After` header (1 s without one).
 * - `ok: false` errors are classified: auth, channel and message errors (`invalid_auth`,
 *   `not_authed`, `channel_not_found`, `msg_too_long`, …) are permanent; the rest, 5xx and
 *   network failures are retried.
 *
 * @example
 * ```ts
 * edits$.pipe(deliver(slackTransport({ token: process.env.SLACK_BOT_TOKEN!, channel: 'C0123' })));
 * ```
 * @param options - {@link SlackTransportOptions}
 */
export function slackTransport(options: SlackTransportOptions): DeliveryTransport<string> {
  const { token, channel, apiBase, minIntervalMs, ...rest } = parseOptions(
    'slackTransport',
    SlackTransportOptions,
    options,
  );
  const fetchFn = rest.fetch ?? globalThis.fetch;
  const base = apiBase.replace(/\/+$/, '');

  const call = async (
    method: 'chat.postMessage' | 'chat.update',
    edit: MessageEdit,
    fields: Record<string, unknown>,
    context: TransportCall,
  ) => {
    const label = `Slack ${method}`;
    const answer = await postJson(
      `${base}/api/${method}`,
      { channel, text: edit.rendered?.text ?? edit.text, ...fields },
      {
        fetch: fetchFn,
        headers: { authorization: `Bearer ${token}` },
        signal: context.signal,
        secret: token,
        label,
      },
    );
    const parsed = SlackAnswer.safeParse(answer.body);
    const { status } = answer;
    if (parsed.success && parsed.data.ok && status < 300) return parsed.data;
    const code = parsed.success ? (parsed.data.error ?? 'unknown_error') : undefined;
    const what = scrub(`${label}: ${status} ${code ?? 'an answer that is not the Web API'}`, token);
    if (status === 429 || (code !== undefined && RATE_LIMIT_ERRORS.has(code))) {
      const retryAfterMs = retryAfterHeaderMs(answer.headers) ?? 1000;
      throw new DeliveryError(what, { status, retryAfterMs });
    }
    const permanent =
      code !== undefined ? PERMANENT_ERRORS.has(code) : status < 500 && status !== 408;
    throw new DeliveryError(what, { status, permanent });
  };

  return {
    minIntervalMs,
    async send(edit, context) {
      const answer = await call('chat.postMessage', edit, { mrkdwn: true }, context);
      if (answer.ts === undefined) {
        throw new DeliveryError('Slack chat.postMessage: the answer has no ts.', {
          permanent: true,
        });
      }
      return answer.ts;
    },
    async edit(ts, edit, context) {
      await call('chat.update', edit, { ts }, context);
    },
  };
}
