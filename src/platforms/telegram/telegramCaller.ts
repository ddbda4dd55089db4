// One Bot API call of a transport's chat: over HTTP or the bot's own client, through its budget.

import type { CallBudget } from '../../delivery/callBudget';
import { callTelegram, type TelegramMethod, type TelegramOutcome } from './telegramApi';
import { callTelegramClient } from './telegramClient';
import type { TelegramTransportOptions } from './telegramOptions';

/**
 * A call of one chat's transport: its chat id added, its budget passed. `finish`: the call
 * shows a message's final text.
 */
export type TelegramChatCall = (
  method: TelegramMethod,
  fields: Record<string, unknown>,
  signal: AbortSignal,
  finish?: boolean,
) => Promise<TelegramOutcome>;

/**
 * The transport's calls: each passes the chat's `budget` (and the token's, in a bot), a new
 * message before other chats' calls, a message's final text before other chats' edits; a 429
 * holds the chat for its `retry_after`.
 */
export function budgetedCaller(
  settings: ReturnType<typeof TelegramTransportOptions.parse>,
  budget: CallBudget,
): TelegramChatCall {
  const { chatId, client } = settings;
  const endpoint = {
    base: settings.apiBase.replace(/\/+$/, ''),
    token: settings.token ?? '',
    fetch: settings.fetch ?? globalThis.fetch,
  };
  const call = (method: TelegramMethod, payload: Record<string, unknown>, signal: AbortSignal) =>
    client
      ? callTelegramClient(client, method, payload, signal)
      : callTelegram(endpoint, method, payload, signal);
  return async (method, fields, signal, finish = false) => {
    const payload = { chat_id: chatId, ...fields };
    // A new message (the first words of a reply) goes before other chats' calls; a final text
    // (the answer whole) before their edits.
    const first = method === 'sendMessage' || method === 'sendRichMessage';
    const outcome = await budget.run(() => call(method, payload, signal), signal, first, finish);
    const retryAfterMs = outcome.ok ? undefined : outcome.error.retryAfterMs;
    if (retryAfterMs !== undefined && outcome.ok === false && outcome.error.status === 429) {
      budget.hold(retryAfterMs);
    }
    return outcome;
  };
}
