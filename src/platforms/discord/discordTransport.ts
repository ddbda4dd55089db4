import * as z from 'zod/mini';
import type { MessageEdit } from '../../channels/messageEditPlanner';
import { parseOptions } from '../../internal/options';
import { discordLimits } from './limits';
import { createDiscordRateLimits } from './discordRateLimits';
import { DeliveryError } from '../../delivery/errors';
import { previewOf } from '../../delivery/healPreview';
import { postJson, scrub } from '../../delivery/httpCall';
import { createPartedMessages, messagePieces } from '../../delivery/messagePieces';
import type { DeliveryTransport, TransportCall } from '../../delivery/types';
import type { CallBudget } from '../../delivery/callBudget';
import type { StopControl } from '../../delivery/transportStop';

/** Discord's limit for a message's `content`, in characters (`platformLimits.discord`). */
export const DISCORD_MAX_MESSAGE_CHARS = discordLimits.maxMessageChars;

/** Options of {@link discordTransport}. */
export interface DiscordTransportOptions {
  /** The bot token. Sent as `Authorization: Bot <token>`; never printed (messages show `***`). */
  token: string;
  /** The channel (or thread) to post in. */
  channelId: string;
  /** @defaultValue `'https://discord.com/api/v10'` */
  apiBase?: string;
  /** @defaultValue the global `fetch` */
  fetch?: typeof fetch;
}

const DiscordTransportOptions = z.object({
  token: z.string().check(z.minLength(1, 'the bot token is required')),
  channelId: z.string().check(z.minLength(1, 'the channel id is required')),
  apiBase: z._default(z.url(), 'https://discord.com/api/v10'),
  fetch: z.optional(z.custom<typeof fetch>((value) => typeof value === 'function')),
});

/**
 * What {@link discordTransport} keeps for one message: the Discord messages showing it (one,
 * or several when its text passes 2000 characters) and the content each shows. Plain JSON: a
 * new transport given it (a ledger, a restart) edits those messages and posts only new parts.
 */
export interface DiscordMessageRef {
  ids: string[];
  contents: string[];
}

/** A transport with the message lifecycle: `finish` and the limit `toMessageEdits` should use. */
export type DiscordTransport = DeliveryTransport<DiscordMessageRef> &
  StopControl & {
    finish(
      ref: DiscordMessageRef,
      edit: MessageEdit,
      call: TransportCall,
    ): Promise<DiscordMessageRef>;
    readonly maxMessageChars: number;
  };

/** What a bot's transports share (`createDiscordBot`): its route buckets and global budget. */
export interface DiscordSharedLimits {
  limits?: ReturnType<typeof createDiscordRateLimits>;
  budget?: Pick<CallBudget, 'run'>;
}
const unbudgeted: Pick<CallBudget, 'run'> = { run: (call) => call() };

const DiscordError = z.looseObject({
  message: z.optional(z.string()),
  code: z.optional(z.number()),
});
const DiscordMessage = z.looseObject({ id: z.string() });

/**
 * A {@link DeliveryTransport} for Discord's HTTP API: Create Message
 * (`POST /channels/{id}/messages`), then Edit Message (`PATCH …/messages/{mid}`).
 *
 * ```
 * edits:     send "A" ── edit "AB" ─────────── edit "ABC" ─────────── finish "ABC"
 * requests:  POST        PATCH                  ·····0.8 s····· PATCH   (nothing: same text)
 * headers:               Remaining 0, Reset-After 0.8 → the next PATCH waits for the reset
 * ```
 *
 * - Paced by the answers' headers, never by a constant: a route's `X-RateLimit-Bucket`,
 *   `-Remaining` and `-Reset-After`; with nothing remaining, the next request on that bucket
 *   waits until it resets. A 429 waits its float `retry_after` (every route when `global`), and
 *   the call fails with `retryAfterMs` so `deliver` pauses too.
 * - `edit.rendered` in `discord` format is sent as is; an edit without `rendered` is rendered
 *   for Discord here. A text over 2000 characters continues in further messages (never
 *   truncated); the reference lists them all, and later texts edit each one that changed.
 * - Discord has no Stop button of its own: the bot's Stop (a `/stop` command, a button on the
 *   message) calls `stop()`, which aborts `stopSignal` (give it to the model's `fetch`); the
 *   message keeps its partial text and `deliver`'s stop notice.
 * - 401, 403, 404 (unknown channel or message) and other 4xx are permanent; 5xx and network
 *   failures are retried. The token never appears in an error.
 *
 * @example
 * ```ts
 * events$.pipe(
 *   channel('discord'),
 *   toMessageEdits({ maxMessageChars: 2000, render: 'discord' }),
 *   deliver(discordTransport({ token: process.env.DISCORD_TOKEN!, channelId })),
 * );
 * ```
 * @param options - {@link DiscordTransportOptions}
 */
export function discordTransport(
  options: DiscordTransportOptions,
  shared: DiscordSharedLimits = {},
): DiscordTransport {
  const { token, channelId, apiBase, ...rest } = parseOptions(
    'discordTransport',
    DiscordTransportOptions,
    options,
  );
  const fetchFn = rest.fetch ?? globalThis.fetch;
  const base = `${apiBase.replace(/\/+$/, '')}/channels/${encodeURIComponent(channelId)}/messages`;
  const limits = shared.limits ?? createDiscordRateLimits();
  const budget = shared.budget ?? unbudgeted;

  const request = async (
    method: 'POST' | 'PATCH' | 'DELETE',
    messageId: string | undefined,
    content: string | undefined,
    context: TransportCall,
  ): Promise<unknown> => {
    // Buckets are per route and channel (its top-level resource); the message id is not part.
    const route = `${method} /channels/${channelId}/messages${messageId === undefined ? '' : '/{mid}'}`;
    const label = `Discord ${method} /channels/${channelId}/messages${messageId ? `/${messageId}` : ''}`;
    // The bucket's wait first: a call waiting for its bucket holds no slot of the global budget.
    await limits.beforeRequest(route, context.signal);
    const answer = await budget.run(
      () =>
        postJson(
          messageId === undefined ? base : `${base}/${encodeURIComponent(messageId)}`,
          content === undefined ? undefined : { content, allowed_mentions: { parse: [] } },
          {
            fetch: fetchFn,
            method,
            headers: { authorization: `Bot ${token}` },
            signal: context.signal,
            secret: token,
            label,
          },
        ),
      context.signal,
    );
    const rateLimited = limits.afterAnswer(route, answer);
    const { status } = answer;
    if (status >= 200 && status < 300) return answer.body;
    if (rateLimited) {
      const scope = rateLimited.global ? ' (global)' : '';
      throw new DeliveryError(scrub(`${label}: 429 ${rateLimited.message}${scope}`, token), {
        status,
        retryAfterMs: rateLimited.retryAfterMs,
      });
    }
    const parsed = DiscordError.safeParse(answer.body);
    const what = parsed.success
      ? `${parsed.data.message ?? 'error'}${parsed.data.code === undefined ? '' : ` (code ${parsed.data.code})`}`
      : 'an answer that is not the Discord API';
    throw new DeliveryError(scrub(`${label}: ${status} ${what}`, token), {
      status,
      permanent: status >= 400 && status < 500 && status !== 408,
    });
  };

  /** Brings the Discord messages of `ref` to `pieces`: edits what changed, posts what is new. */
  const show = async (ref: DiscordMessageRef, pieces: string[], context: TransportCall) => {
    for (let i = 0; i < pieces.length; i++) {
      if (i < ref.ids.length) {
        if (ref.contents[i] === pieces[i]) continue;
        await request('PATCH', ref.ids[i], pieces[i], context);
        ref.contents[i] = pieces[i];
      } else {
        const posted = DiscordMessage.safeParse(
          await request('POST', undefined, pieces[i], context),
        );
        if (!posted.success) {
          throw new DeliveryError('Discord Create Message: the answer has no message id.', {
            permanent: true,
          });
        }
        ref.ids.push(posted.data.id);
        ref.contents.push(pieces[i]);
      }
    }
    // Fewer pieces than before (a re-render packed the text tighter): the spare ones go.
    while (ref.ids.length > pieces.length) {
      await request('DELETE', ref.ids.at(-1), undefined, context);
      ref.ids.pop();
      ref.contents.pop();
    }
    return ref;
  };

  return createPartedMessages<DiscordMessageRef>({
    transport: 'discordTransport',
    empty: () => ({ ids: [], contents: [] }),
    maxMessageChars: DISCORD_MAX_MESSAGE_CHARS,
    piecesOf: discordPieces,
    // Open markdown healed, tool activity as a status line; `finish` shows the text as written.
    preview: (edit) => previewOf(edit, DISCORD_MAX_MESSAGE_CHARS),
    show,
  });
}

/** The contents that show `edit` on Discord, each within 2000 characters. */
export function discordPieces(edit: MessageEdit): string[] {
  return messagePieces(edit, {
    format: 'discord',
    maxChars: DISCORD_MAX_MESSAGE_CHARS,
    transport: 'discordTransport',
  });
}
