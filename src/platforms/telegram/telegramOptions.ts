import type { SchedulerLike } from 'rxjs';
import * as z from 'zod/mini';
import { schedulerOption, tokenOrClient, tokenOrClientFields } from '../../internal/options';
import type { TelegramFormat } from './telegramContent';
import { isTelegramClient, type TelegramClient } from './telegramClient';

/** Options of {@link telegramTransport}. */
export interface TelegramTransportOptions {
  /** The bot token from @BotFather (or give `client`). Never printed: messages show `***` in its place. */
  token?: string;
  /**
   * The Bot API client your bot already has, instead of `token`: grammY's `bot.api` or
   * Telegraf's `bot.telegram` (see {@link TelegramClient}). Its errors are classified as the
   * HTTP ones (`error_code`, `parameters.retry_after`).
   */
  client?: TelegramClient;
  /** The chat to post in: a user's id (private chat), a group's negative id, or `@name`. */
  chatId: number | string;
  /** The forum topic (or private-chat topic) to post in. */
  messageThreadId?: number;
  /**
   * `draft`: stream each message as a draft (`sendMessageDraft`, private chats only) and
   * persist it with `sendMessage` when `deliver` finishes it; `edit`: send, then edit
   * (`sendMessage` + `editMessageText`); `auto`: drafts when `chatId` is a private chat (a
   * positive id: Telegram gives a private chat the user's id, groups and channels negative
   * ids, `@name` is a channel or supergroup), else edit. `auto` and `draft` both switch to edit
   * for the rest of the transport's life when Telegram refuses a draft (TEXTDRAFT_PEER_INVALID,
   * or a server without `sendMessageDraft`: 404, unknown method). Drafts are opt-in: Telegram's
   * clients still mishandle them (a ghost draft over the final message on macOS, a locked
   * composer on Android).
   * @defaultValue `'edit'`
   */
  mode?: 'auto' | 'draft' | 'edit';
  /**
   * How messages are formatted: `telegram` text + entities, `telegram-html` parse mode HTML,
   * `telegram-rich` a Rich Message (`sendRichMessage`, markdown with tables and headings, up to
   * 32,768 characters). An edit whose `rendered` is in another format (or absent) is rendered
   * here from its text.
   * @defaultValue `'telegram'`
   */
  format?: TelegramFormat;
  /** A draft with no new text is written again this often (Telegram drops it after ~30 s). @defaultValue 20000 */
  draftRefreshMs?: number;
  /** @defaultValue `'https://api.telegram.org'` */
  apiBase?: string;
  /** @defaultValue the global `fetch` */
  fetch?: typeof fetch;
  /**
   * The least time between two calls to this chat, counted from the previous call's answer
   * (Telegram: about one message per second per chat). @defaultValue 1000
   */
  minIntervalMs?: number;
  /**
   * Whether `chatId` is a private chat (1 call per `minIntervalMs`) or a group, supergroup or
   * channel (also at most `groupMaxCalls` per `groupWindowMs`). @defaultValue from the id: a
   * positive id is a private chat, a negative id or `@name` a group or channel
   */
  chatType?: 'private' | 'group' | 'supergroup' | 'channel';
  /** Calls a group, supergroup or channel takes per `groupWindowMs`. @defaultValue 20 */
  groupMaxCalls?: number;
  /** @defaultValue 60000 (Telegram: 20 messages a minute in a group) */
  groupWindowMs?: number;
  /** Where the draft refresh timers run. @defaultValue asyncScheduler */
  scheduler?: SchedulerLike;
}

const NOT_A_BOT_API_CLIENT =
  "expected a Bot API client: grammY's bot.api or Telegraf's bot.telegram";

export const TelegramTransportOptions = z
  .object({
    ...tokenOrClientFields(isTelegramClient, NOT_A_BOT_API_CLIENT),
    chatId: z.union([z.int(), z.string().check(z.minLength(1))]),
    messageThreadId: z.optional(z.int()),
    mode: z._default(z.enum(['auto', 'draft', 'edit']), 'edit'),
    format: z._default(z.enum(['telegram', 'telegram-html', 'telegram-rich']), 'telegram'),
    draftRefreshMs: z._default(z.number().check(z.positive()), 20_000),
    apiBase: z._default(z.url(), 'https://api.telegram.org'),
    fetch: z.optional(z.custom<typeof fetch>((value) => typeof value === 'function')),
    minIntervalMs: z._default(z.number().check(z.nonnegative()), 1000),
    chatType: z.optional(z.enum(['private', 'group', 'supergroup', 'channel'])),
    groupMaxCalls: z._default(z.int().check(z.positive()), 20),
    groupWindowMs: z._default(z.number().check(z.nonnegative()), 60_000),
    scheduler: schedulerOption,
  })
  .check(tokenOrClient('a bot API client'));
