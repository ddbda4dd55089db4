import type { SchedulerLike } from 'rxjs';
import * as z from 'zod/mini';
import { createCallBudget, createCallGate } from '../../delivery/callBudget';
import { botTokenFields, parseOptions, schedulerOption } from '../../internal/options';
import { createDiscordRateLimits } from './discordRateLimits';
import { discordTransport, type DiscordTransport } from './discordTransport';

/** Options of {@link createDiscordBot}: the token, and the limits every channel of it shares. */
export interface DiscordBotOptions {
  /** The bot token. Sent as `Authorization: Bot <token>`; never printed. */
  token: string;
  /** @defaultValue `'https://discord.com/api/v10'` */
  apiBase?: string;
  /** @defaultValue the global `fetch` */
  fetch?: typeof fetch;
  /** Requests the bot makes per `globalWindowMs`, every channel together (Discord: 50 a second). @defaultValue 50 */
  maxPerSecond?: number;
  /** The window `maxPerSecond` counts in (scaled in specs). @defaultValue 1000 */
  globalWindowMs?: number;
  /** Where the global budget's waits run. @defaultValue asyncScheduler */
  scheduler?: SchedulerLike;
}

const DiscordBotOptions = z.object({
  ...botTokenFields,
  maxPerSecond: z._default(z.int().check(z.positive()), 50),
  globalWindowMs: z._default(z.number().check(z.nonnegative()), 1000),
  scheduler: schedulerOption,
});

/** {@link createDiscordBot}'s bot: a transport per reply, all on the bot's limits. */
export interface DiscordBot {
  /**
   * A transport for one reply in `channelId` (a channel or a thread): its requests share the
   * route buckets of that channel, and the global budget, with every transport of the bot.
   */
  transport(channelId: string): DiscordTransport;
}

/**
 * One Discord bot token, many concurrent replies, no 429: every transport it makes passes
 * one global budget (`maxPerSecond` requests per `globalWindowMs`, counted from each request's
 * start until a window after its answer, so Discord's 50 a second is never passed whatever
 * the network does) and the per-route buckets the answers' `X-RateLimit-*` headers describe,
 * per channel, shared by every transport of that channel. A global 429 holds every channel.
 * `discordTransport()` alone keeps limits of its own.
 *
 * ```
 * bot.transport('1100'), bot.transport('1100')   one channel: its buckets, shared
 * bot.transport('1') … bot.transport('100')      at most 50 requests in any second, together
 * ```
 *
 * @example
 * ```ts
 * const bot = createDiscordBot({ token: process.env.DISCORD_TOKEN! });
 * const transport = bot.transport(message.channelId);
 * events$.pipe(
 *   channel('discord', { live: true }),
 *   toMessageEdits({ maxMessageChars: transport.maxMessageChars, render: 'discord' }),
 *   deliver(transport),
 * );
 * ```
 * @param options - {@link DiscordBotOptions}
 */
export function createDiscordBot(options: DiscordBotOptions): DiscordBot {
  const settings = parseOptions('createDiscordBot', DiscordBotOptions, options);
  const globalGates = [createCallGate(settings.maxPerSecond, settings.globalWindowMs)];
  const limits = createDiscordRateLimits();
  const budget = createCallBudget([], globalGates, settings.scheduler);
  return {
    transport(channelId) {
      const transportOptions = {
        token: settings.token,
        channelId,
        ...(settings.apiBase === undefined ? {} : { apiBase: settings.apiBase }),
        ...(settings.fetch === undefined ? {} : { fetch: settings.fetch }),
      };
      return discordTransport(transportOptions, { limits, budget });
    },
  };
}
