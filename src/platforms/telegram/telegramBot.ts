import type { SchedulerLike } from 'rxjs';
import * as z from 'zod/mini';
import { createCallGate, type CallBudget } from '../../delivery/callBudget';
import { botTokenFields, parseOptions, schedulerOption } from '../../internal/options';
import { telegramChatBudget, telegramChatGates } from './telegramBudget';
import { TelegramTransportOptions } from './telegramOptions';
import {
  createTelegramTransport,
  type TelegramTransport,
  type TelegramTransportOptions as TransportOptions,
} from './telegramTransport';

/** Options of {@link createTelegramBot}: the token, and the limits every chat of it shares. */
export interface TelegramBotOptions {
  /** The bot token from @BotFather. Never printed. */
  token: string;
  /** @defaultValue `'https://api.telegram.org'` */
  apiBase?: string;
  /** @defaultValue the global `fetch` */
  fetch?: typeof fetch;
  /** Calls the token makes per `tokenWindowMs`, every chat together (Telegram: about 30 a second). @defaultValue 30 */
  maxPerSecond?: number;
  /** The window `maxPerSecond` counts in (scaled in specs). @defaultValue 1000 */
  tokenWindowMs?: number;
  /** Least time between two calls of one chat, from the previous answer. @defaultValue 1000 */
  minIntervalMs?: number;
  /** Calls a group, supergroup or channel takes per `groupWindowMs`. @defaultValue 20 */
  groupMaxCalls?: number;
  /** @defaultValue 60000 */
  groupWindowMs?: number;
  /** Where the budgets' waits run. @defaultValue asyncScheduler */
  scheduler?: SchedulerLike;
}

/** What a bot's `transport()` takes beyond the chat: the transport options a chat may choose. */
export type TelegramBotTransportOptions = Omit<
  TransportOptions,
  | 'token'
  | 'client'
  | 'chatId'
  | 'apiBase'
  | 'fetch'
  | 'minIntervalMs'
  | 'groupMaxCalls'
  | 'groupWindowMs'
  | 'scheduler'
>;

const TelegramBotOptions = z.object({
  ...botTokenFields,
  maxPerSecond: z._default(z.int().check(z.positive()), 30),
  tokenWindowMs: z._default(z.number().check(z.nonnegative()), 1000),
  minIntervalMs: z._default(z.number().check(z.nonnegative()), 1000),
  groupMaxCalls: z._default(z.int().check(z.positive()), 20),
  groupWindowMs: z._default(z.number().check(z.nonnegative()), 60_000),
  scheduler: schedulerOption,
});

/** {@link createTelegramBot}'s bot: a transport per reply, all on one flood budget. */
export interface TelegramBot {
  /**
   * A transport for one reply in `chatId` (options as `telegramTransport`'s, less the token
   * and the limits): its calls share that chat's budget with every other transport of the
   * chat, and the token's budget with every chat.
   */
  transport(chatId: number | string, options?: TelegramBotTransportOptions): TelegramTransport;
}

/**
 * One Telegram bot token, many concurrent replies, no 429: every transport it makes passes
 * one budget per chat (1 call per `minIntervalMs` from the previous answer; groups also
 * `groupMaxCalls` per `groupWindowMs`; a 429's `retry_after` holds every call of that chat,
 * and no other) and one budget for the token (`maxPerSecond` calls per `tokenWindowMs`).
 * `telegramTransport()` alone keeps a budget of its own.
 *
 * ```
 * bot.transport(42), bot.transport(42)   one chat: their calls take turns, ≥ 1 s apart
 * bot.transport(1) … bot.transport(100)  at most 30 calls in any second, all chats together
 * ```
 *
 * @example
 * ```ts
 * const bot = createTelegramBot({ token: process.env.BOT_TOKEN! });
 * const transport = bot.transport(update.message.chat.id, { format: 'telegram' });
 * events$.pipe(
 *   channel('telegram', { live: true }),
 *   toMessageEdits({ maxMessageChars: transport.maxMessageChars, separator: '', render: 'telegram' }),
 *   deliver(transport),
 * );
 * ```
 * @param options - {@link TelegramBotOptions}
 */
export function createTelegramBot(options: TelegramBotOptions): TelegramBot {
  const settings = parseOptions('createTelegramBot', TelegramBotOptions, options);
  const tokenGates = [createCallGate(settings.maxPerSecond, settings.tokenWindowMs)];
  const chats = new Map<string, CallBudget>();
  return {
    transport(chatId, transportOptions = {}) {
      const transportSettings = parseOptions(
        'createTelegramBot().transport',
        TelegramTransportOptions,
        {
          ...transportOptions,
          token: settings.token,
          chatId,
          ...defined({ apiBase: settings.apiBase, fetch: settings.fetch }),
          minIntervalMs: settings.minIntervalMs,
          groupMaxCalls: settings.groupMaxCalls,
          groupWindowMs: settings.groupWindowMs,
          scheduler: settings.scheduler,
        },
      );
      const key = String(chatId);
      // A long-lived bot meets many chats: those whose budget holds nothing are forgotten.
      if (chats.size >= 1024) for (const [chat, idle] of chats) if (idle.idle()) chats.delete(chat);
      let budget = chats.get(key);
      if (!budget) {
        const gates = telegramChatGates(transportSettings);
        chats.set(key, (budget = telegramChatBudget(gates, tokenGates, settings.scheduler)));
      }
      return createTelegramTransport(transportSettings, { budget });
    },
  };
}

function defined<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(values).filter(([, v]) => v !== undefined),
  ) as Partial<T>;
}
