// A bot's own Bot API client (grammY's `bot.api`, Telegraf's `bot.telegram`) as the transport's
// caller: structural types only, no dependency on either package.
import { DeliveryError } from '../../delivery/errors';
import { readTelegramAnswer, type TelegramMethod, type TelegramOutcome } from './telegramApi';

/**
 * A Bot API client a bot already has: grammY's `bot.api` (its `raw[method](payload, signal)`)
 * or Telegraf's `bot.telegram` (`callApi(method, payload, { signal })`). Either resolves to the
 * call's `result` and rejects with the Bot API's error (grammY's `GrammyError`: `error_code`,
 * `description`, `parameters`; Telegraf's `TelegramError`: the same under `response`).
 */
export type TelegramClient =
  | { raw: Record<string, (payload: any, signal?: any) => Promise<unknown>> }
  | { callApi(method: string, payload: any, extra?: { signal?: AbortSignal }): Promise<unknown> };

/** True when `value` has the shape of a {@link TelegramClient}. */
export function isTelegramClient(value: unknown): value is TelegramClient {
  if (typeof value !== 'object' || value === null) return false;
  const client = value as { raw?: unknown; callApi?: unknown };
  return (
    (typeof client.raw === 'object' && client.raw !== null) || typeof client.callApi === 'function'
  );
}

/** The Bot API error a client rejected with, if it is one: `{ error_code, description, parameters }`. */
function apiErrorOf(thrown: unknown) {
  const error = thrown as { error_code?: unknown; response?: { error_code?: unknown } } | null;
  if (typeof error?.error_code === 'number') return error as { error_code: number };
  if (typeof error?.response?.error_code === 'number')
    return error.response as { error_code: number };
  return undefined;
}

/**
 * Makes one call through `client`; never rejects for a Bot API answer (only when `signal`
 * aborts). Its errors are classified as the HTTP transport's: the error's `error_code`,
 * `description` and `parameters.retry_after` read as the same answer's body.
 */
export async function callTelegramClient(
  client: TelegramClient,
  method: TelegramMethod,
  payload: Record<string, unknown>,
  signal: AbortSignal,
): Promise<TelegramOutcome> {
  try {
    const result =
      'raw' in client
        ? await client.raw[method](payload, signal)
        : await client.callApi(method, payload, { signal });
    return { ok: true, result };
  } catch (thrown) {
    if (signal.aborted) throw thrown;
    const answer = apiErrorOf(thrown);
    if (answer) return readTelegramAnswer(method, answer.error_code, { ...answer, ok: false }, '');
    // No answer (a network error, a timeout): the platform may have acted on it.
    const why = thrown instanceof Error ? thrown.message : String(thrown);
    return {
      ok: false,
      error: new DeliveryError(`Telegram ${method}: no answer (${why.slice(0, 200)})`, {
        ambiguous: true,
      }),
    };
  }
}
