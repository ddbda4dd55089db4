// One Bot API call and the one place its failures are classified.

import * as z from 'zod/mini';
import { DeliveryError } from '../../delivery/errors';
import { postJson, scrub } from '../../delivery/httpCall';
import { isStoppedDraftAnswer } from './stop';

/** The Bot API methods telegramTransport calls. */
export type TelegramMethod =
  | 'sendMessage'
  | 'editMessageText'
  | 'sendMessageDraft'
  | 'sendRichMessage'
  | 'sendRichMessageDraft';

/**
 * Why a call failed, when the transport can do something other than wait or give up:
 * `draft-peer-invalid` (drafts are for private chats, or the server has no drafts: use messages), `formatting` (entities or
 * HTML refused: send plain text), `rich-rejected` (a rich message refused, or a server without
 * Rich Messages: send entities), `draft-stopped` (the user pressed Stop on this draft: stop).
 */
export type TelegramFallbackReason =
  'draft-peer-invalid' | 'formatting' | 'rich-rejected' | 'draft-stopped';

/** A call's outcome: its `result`, or the DeliveryError to throw and any fallback it allows. */
export type TelegramOutcome =
  | { ok: true; result: unknown }
  | { ok: false; error: DeliveryError; fallback?: TelegramFallbackReason };

const TelegramAnswer = z.looseObject({
  ok: z.boolean(),
  description: z.optional(z.string()),
  result: z.optional(z.unknown()),
  parameters: z.optional(z.looseObject({ retry_after: z.optional(z.number()) })),
});

/** Where and as whom to call. */
export interface TelegramEndpoint {
  base: string;
  token: string;
  fetch: typeof fetch;
}

/** POSTs one Bot API call; never rejects for an answer (only when `signal` aborts). */
export async function callTelegram(
  endpoint: TelegramEndpoint,
  method: TelegramMethod,
  payload: Record<string, unknown>,
  signal: AbortSignal,
): Promise<TelegramOutcome> {
  const label = `Telegram ${method}`;
  let answer;
  try {
    answer = await postJson(`${endpoint.base}/bot${endpoint.token}/${method}`, payload, {
      fetch: endpoint.fetch,
      signal,
      secret: endpoint.token,
      label,
    });
  } catch (error) {
    if (signal.aborted) throw error;
    return { ok: false, error: error as DeliveryError };
  }
  return readTelegramAnswer(method, answer.status, answer.body, endpoint.token);
}

/** A Bot API answer (`{ ok, result }` or `{ ok: false, description, parameters }`) as an outcome. */
export function readTelegramAnswer(
  method: TelegramMethod,
  status: number,
  body: unknown,
  secret: string,
): TelegramOutcome {
  const parsed = TelegramAnswer.safeParse(body);
  if (parsed.success && parsed.data.ok && status < 300) {
    return { ok: true, result: parsed.data.result };
  }
  const description = scrub(parsed.success ? (parsed.data.description ?? '') : '', secret);
  const what = `Telegram ${method}: ${status} ${description || 'an answer that is not the Bot API'}`;
  return classify(method, status, description, what, parsed.data?.parameters?.retry_after);
}

/**
 * Telegram's failures, classified once: 429 → `retryAfterMs` (`parameters.retry_after`, else
 * the "retry after N" of the description); "message is not modified" → `notModified`; the
 * fallbacks above; 401, 403 and other 4xx → `permanent`; 5xx, 408 and no answer → transient.
 */
function classify(
  method: TelegramMethod,
  status: number,
  description: string,
  what: string,
  retryAfter: number | undefined,
): TelegramOutcome {
  const fail = (context: ConstructorParameters<typeof DeliveryError>[1]) =>
    new DeliveryError(what, { status, ...context });
  if (status === 429) {
    const seconds = retryAfter ?? Number(/retry after (\d+(\.\d+)?)/i.exec(description)?.[1]);
    return {
      ok: false,
      error: fail(Number.isFinite(seconds) ? { retryAfterMs: seconds * 1000 } : {}),
    };
  }
  if (status === 400 && /message is not modified/i.test(description)) {
    return { ok: false, error: fail({ notModified: true }) };
  }
  const isRichMethod = method === 'sendRichMessage' || method === 'sendRichMessageDraft';
  const isDraftMethod = method === 'sendMessageDraft' || method === 'sendRichMessageDraft';
  // Any refusal of the draft method itself (an older Bot API server: 404, "method not found")
  // latches to messages, as TEXTDRAFT_PEER_INVALID does.
  const draftRefused =
    method === 'sendMessageDraft' &&
    (status === 404 ||
      /method.{0,20}(not found|unknown|not supported)|unknown method/i.test(description));
  const fallback: TelegramFallbackReason | undefined =
    (status === 400 && /TEXTDRAFT_PEER_INVALID/.test(description)) || draftRefused
      ? 'draft-peer-invalid'
      : isDraftMethod && isStoppedDraftAnswer(status, description)
        ? 'draft-stopped'
        : (status === 400 && /RICH_MESSAGE_|rich.?message|InputRich/i.test(description)) ||
            (isRichMethod && status === 404)
          ? 'rich-rejected'
          : status === 400 && /can't parse entities|entit(y|ies)|can't find end/i.test(description)
            ? 'formatting'
            : undefined;
  const permanent = status >= 400 && status < 500 && status !== 408;
  return { ok: false, error: fail({ permanent }), ...(fallback ? { fallback } : {}) };
}
