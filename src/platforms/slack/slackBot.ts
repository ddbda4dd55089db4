import type { SchedulerLike } from 'rxjs';
import * as z from 'zod/mini';
import {
  parseOptions,
  schedulerOption,
  tokenOrClient,
  tokenOrClientFields,
} from '../../internal/options';
import {
  NOT_A_WEB_API_CLIENT,
  SlackTransportOptions,
  type SlackTransportOptions as TransportOptions,
} from './slackOptions';
import { createSlackRateLimits } from './slackRateLimits';
import { createSlackTransport, type SlackTransport } from './slackTransport';
import { isSlackClient, type SlackClient } from './slackWebApi';

/** Options of {@link createSlackBot}: the token (or client), and the limits its channels share. */
export interface SlackBotOptions {
  /** The bot token (`xoxb-…`, one workspace), or give `client`. Never printed. */
  token?: string;
  /** The bot's `@slack/web-api` `WebClient` (its `apiCall`), instead of `token`. */
  client?: SlackClient;
  /** @defaultValue `'https://slack.com'` */
  apiBase?: string;
  /** @defaultValue the global `fetch` */
  fetch?: typeof fetch;
  /**
   * Least time between two calls to one channel, from the previous call's answer, every
   * transport of that channel together (Slack: chat.postMessage "1 per second per channel").
   * @defaultValue 1000
   */
  minIntervalMs?: number;
  /** The window the method tiers count in (Slack: a minute; scaled in specs). @defaultValue 60000 */
  tierWindowMs?: number;
  /** Where the limits' waits and the streams' ages are timed. @defaultValue asyncScheduler */
  scheduler?: SchedulerLike;
}

/** Where a bot's transport answers: a channel, its thread, and who reads a stream there. */
export type SlackBotTarget = Pick<
  TransportOptions,
  'channel' | 'threadTs' | 'recipientUserId' | 'recipientTeamId'
>;

/** What a bot's `transport()` takes beyond its target: the options one conversation may choose. */
export type SlackBotTransportOptions = Pick<
  TransportOptions,
  'mode' | 'format' | 'maxStreamMs' | 'maxStreamBytes'
>;

const SlackBotOptions = z
  .object({
    ...tokenOrClientFields(isSlackClient, NOT_A_WEB_API_CLIENT),
    apiBase: z.optional(z.url()),
    fetch: z.optional(z.custom<typeof fetch>((value) => typeof value === 'function')),
    minIntervalMs: z._default(z.number().check(z.nonnegative()), 1000),
    tierWindowMs: z._default(z.number().check(z.positive()), 60_000),
    scheduler: schedulerOption,
  })
  .check(tokenOrClient('a Web API client'));

// The keys a target and a conversation may give (their values are checked with the transport's).
const given = z.optional(z.unknown());
const TargetKeys = z.strictObject({
  channel: given,
  threadTs: given,
  recipientUserId: given,
  recipientTeamId: given,
});
const ConversationKeys = z.strictObject({
  mode: given,
  format: given,
  maxStreamMs: given,
  maxStreamBytes: given,
});

/** {@link createSlackBot}'s bot: a transport per reply, all on the token's limits. */
export interface SlackBot {
  /**
   * A transport for one reply at `target` (options as `slackTransport`'s for one conversation):
   * its calls share the channel's interval with every transport of that channel, and each
   * method's tier with every transport of the bot.
   */
  transport(target: SlackBotTarget, options?: SlackBotTransportOptions): SlackTransport;
}

/**
 * One Slack bot token, many concurrent replies, no 429: every transport it makes passes the
 * token's rate limits as Slack counts them, per method per workspace (a bot token is one
 * workspace), and one interval per channel. `slackTransport()` alone keeps its own pace.
 *
 * - Method tiers, each for every channel together, counted per `tierWindowMs` (a minute), each
 *   call from its start until a window after its answer: `chat.startStream` and
 *   `chat.stopStream` 20 (Tier 2), `chat.update` and `chat.delete` 50 (Tier 3),
 *   `chat.appendStream` 100 (Tier 4): the floor of each tier ("20+ per minute", …). The docs'
 *   method pages give `appendStream` Tier 4 and `stopStream` Tier 2; for `startStream` none
 *   was found, and Tier 2 is taken, as its sibling's.
 * - `chat.postMessage` has a "special" limit, not a tier: "1 message per second per channel",
 *   short bursts allowed, plus a workspace-wide limit the docs give no figure for. Every call
 *   to a channel (posts, updates, stream calls) waits `minIntervalMs` (1000) after the previous
 *   call's answer, every transport of that channel together.
 * - A 429 (`ratelimited`, `Retry-After`) on a method holds that method for every transport of
 *   the bot for `Retry-After` (Slack's limits are per method), and no other method; `deliver`
 *   pauses that reply too.
 *
 * ```
 * bot.transport({ channel: 'C1' }), bot.transport({ channel: 'C1' })  one channel: ≥ 1 s apart
 * bot.transport({ channel: 'C1' }) … ({ channel: 'C100' })  ≤ 20 stream starts a minute, together
 * ```
 * (marbles/slack-rate-limits/*.marble)
 *
 * @example
 * ```ts
 * const bot = createSlackBot({ token: process.env.SLACK_BOT_TOKEN! });
 * const slack = bot.transport({ channel, threadTs, recipientUserId, recipientTeamId });
 * events$.pipe(
 *   channel('slack', { live: true }),
 *   toMessageEdits({ maxMessageChars: slack.maxMessageChars, separator: '' }),
 *   deliver(slack),
 * );
 * ```
 * @param options - {@link SlackBotOptions}
 */
export function createSlackBot(options: SlackBotOptions): SlackBot {
  const settings = parseOptions('createSlackBot', SlackBotOptions, options);
  const { minIntervalMs, tierWindowMs, scheduler } = settings;
  const limits = createSlackRateLimits({ minIntervalMs, tierWindowMs, scheduler });
  const name = 'createSlackBot().transport';
  return {
    transport(target, conversation = {}) {
      // Only a conversation's own options here: the token, the API and the limits are the bot's.
      parseOptions(name, TargetKeys, target);
      parseOptions(name, ConversationKeys, conversation);
      const transportSettings = parseOptions(name, SlackTransportOptions, {
        ...target,
        ...conversation,
        token: settings.token,
        client: settings.client,
        apiBase: settings.apiBase,
        fetch: settings.fetch,
        scheduler,
      });
      return createSlackTransport(transportSettings, { limits }, name);
    },
  };
}
