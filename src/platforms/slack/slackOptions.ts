// The options of slackTransport (and of the transports createSlackBot makes), checked once.
import type { SchedulerLike } from 'rxjs';
import * as z from 'zod/mini';
import { schedulerOption, tokenOrClient, tokenOrClientFields } from '../../internal/options';
import { isSlackClient, type SlackClient } from './slackWebApi';

/** Options of {@link slackTransport}. */
export interface SlackTransportOptions {
  /** A bot token (`xoxb-…`) with `chat:write` (or give `client`). Never printed: messages show `***`. */
  token?: string;
  /**
   * The Web API client your bot already has, instead of `token`: `@slack/web-api`'s
   * `WebClient` (its `apiCall`). Its errors are classified as the HTTP ones (`ratelimited`
   * with `retryAfter`, platform errors by `data.error`).
   */
  client?: SlackClient;
  /** The channel id to post in (`C…`, `G…`, or a DM's `D…`). */
  channel: string;
  /** The `ts` of the message to answer in its thread (the user's message). Streams need one. */
  threadTs?: string;
  /** The user the streamed answer is for: Slack requires it (and the team) outside DMs. */
  recipientUserId?: string;
  /** That user's team (workspace) id, `T…`. */
  recipientTeamId?: string;
  /**
   * `stream`: `chat.startStream` / `appendStream` / `stopStream` (needs `threadTs`);
   * `update`: `chat.postMessage` + `chat.update`; `auto`: `stream` when `threadTs` is set.
   * @defaultValue `'auto'`
   */
  mode?: 'auto' | 'stream' | 'update';
  /**
   * A stream older than this is stopped and the text continues in a new streamed message, before
   * Slack closes it (about five minutes after its start, whatever is appended).
   * @defaultValue 240000
   */
  maxStreamMs?: number;
  /**
   * A stream is stopped and the text continues in a new streamed message before it holds more
   * UTF-8 bytes than this: Slack ends streams near 10.6–11.3 KB without documenting it. A
   * `msg_too_long` from a stream lowers it for the transport's life.
   * @defaultValue 9000
   */
  maxStreamBytes?: number;
  /**
   * How posted and updated messages are written when an edit carries no rendering of that
   * format: `slack` (mrkdwn, from `renderMarkdown`) or `plain`. Streams always take markdown.
   * @defaultValue `'slack'`
   */
  format?: 'slack' | 'plain';
  /** @defaultValue `'https://slack.com'` */
  apiBase?: string;
  /** @defaultValue the global `fetch` */
  fetch?: typeof fetch;
  /** The least time between two calls to this channel (`deliver`'s default). @defaultValue 1000 */
  minIntervalMs?: number;
  /** The clock a stream's age is read on, for `maxStreamMs`. @defaultValue asyncScheduler */
  scheduler?: SchedulerLike;
}

const optionalId = z.optional(z.string().check(z.minLength(1)));

/** What a `client` option that is not a WebClient is told. */
export const NOT_A_WEB_API_CLIENT =
  "expected a Web API client with apiCall(): @slack/web-api's WebClient";

export const SlackTransportOptions = z
  .object({
    ...tokenOrClientFields(isSlackClient, NOT_A_WEB_API_CLIENT),
    channel: z.string().check(z.minLength(1, 'the channel id is required')),
    threadTs: optionalId,
    recipientUserId: optionalId,
    recipientTeamId: optionalId,
    mode: z._default(z.enum(['auto', 'stream', 'update']), 'auto'),
    maxStreamMs: z._default(z.number().check(z.positive()), 240000),
    maxStreamBytes: z._default(z.number().check(z.int(), z.minimum(4)), 9000),
    format: z._default(z.enum(['slack', 'plain']), 'slack'),
    apiBase: z._default(z.url(), 'https://slack.com'),
    fetch: z.optional(z.custom<typeof fetch>((value) => typeof value === 'function')),
    minIntervalMs: z._default(z.number().check(z.nonnegative()), 1000),
    scheduler: schedulerOption,
  })
  .check(tokenOrClient('a Web API client'));
