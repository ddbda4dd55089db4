import { startFakeJsonServer, type FakeAnswer, type FakeServerOptions } from '../fakeJsonServer';

/** One message as the fake Slack API holds it, with every text it showed, in order. */
export interface FakeSlackMessage {
  ts: string;
  /** What it shows: a stream's appended markdown joined, or the last posted / updated text. */
  text: string;
  /** Every text it showed (a stream: after each start, append and stop). */
  history: string[];
  /** Streams only: the `markdown_text` of its start, appends and stop, in order. */
  chunks?: string[];
  /** Streams only: every `task_update` chunk it received, in order. */
  taskUpdates?: Array<{ id: string; title: string; status: string }>;
  /**
   * Streams only: live, stopped by the app, closed by the fake (its lifetime passed), or stopped
   * by the user's Stop button (`pressStop`).
   */
  stream?: 'streaming' | 'stopped' | 'expired' | 'stopped-by-user';
  /** Streams only: how many `chat.stopStream` calls it took (the right number is one). */
  stops?: number;
  startedAt?: number;
  threadTs?: string;
}

/** Settings of {@link startFakeSlackApi}. */
export interface FakeSlackApiOptions extends FakeServerOptions {
  token: string;
  /**
   * More bot tokens it accepts, each another workspace: Slack counts the method tiers per
   * method per workspace, so each token has tiers of its own. @defaultValue none
   */
  otherTokens?: string[];
  /** Channels that exist; others get `channel_not_found`. Ids starting with `D` are DMs. */
  channels: string[];
  /** Least time between two handled calls to one channel; closer ones get 429. @defaultValue 20 */
  minIntervalMs?: number;
  /** The length of a rate-limit window (Slack: a minute), to scale the tiers. @defaultValue 60000 */
  tierWindowMs?: number;
  /** How long a stream accepts appends after its start (Slack: about 5 min). @defaultValue 300000 */
  streamLifetimeMs?: number;
  /**
   * The UTF-8 bytes a stream may hold (Slack: near 10.6–11.3 KB, undocumented): a request that
   * would pass it is refused with `streamCapAnswer` and ends the stream. @defaultValue none
   */
  streamByteCap?: number;
  /** How the cap refuses. @defaultValue `'msg_too_long'` */
  streamCapAnswer?: 'msg_too_long' | 'message_not_in_streaming_state';
  /** Forced answers, by request number (0-based) and method: a 429 or a 500 before anything is done. */
  fault?: (request: number, method: string) => 'rate-limit' | 'server-error' | undefined;
  /** `Retry-After` (seconds) for a forced 429. @defaultValue 0.01 */
  forcedRetryAfterSeconds?: number;
}

/** One request as the fake answered it (after auth), in order. */
export interface FakeSlackCall {
  method: string;
  channel: string;
  /** The workspace's token. */
  token: string;
  /** `performance.now()` when it was handled. */
  at: number;
  status: number;
  /** The `error` of an `ok:false` answer. */
  error?: string;
}

/** Calls per window, by method (docs.slack.dev method pages: Tier 2 20+/min, 3 50+, 4 100+). */
export const TIER_LIMITS: Record<string, number> = {
  'chat.startStream': 20,
  'chat.stopStream': 20,
  'chat.update': 50,
  'chat.delete': 50,
  'chat.appendStream': 100,
};

const STREAM_CHARS = 12000;
const TASK_STATUSES = new Set(['pending', 'in_progress', 'complete', 'error']);
const POSTED_CHARS = 40000;

/**
 * A fake Slack Web API on 127.0.0.1 with the rules docs.slack.dev states, each enforced here:
 *
 * - Auth: a Bearer token; none → `not_authed`, another → `invalid_auth` (HTTP 200, `ok:false`).
 * - Rate limits (docs.slack.dev/apis/web-api/rate-limits): HTTP 429 with
 *   `{"ok":false,"error":"ratelimited"}` and `Retry-After` in seconds; "posting messages: 1 per
 *   second" per channel (here `minIntervalMs`, for every chat method), and the method tiers per
 *   window (`tierWindowMs`), "per API method per workspace" (per token: `token` and each of
 *   `otherTokens` is a workspace): `startStream` / `stopStream` Tier 2 (20), `update` / `delete`
 *   Tier 3 (50), `appendStream` Tier 4 (100). Every answered request is in `calls`.
 * - `chat.startStream` (method page): `thread_ts` required ("streamed messages should always be
 *   replies to a user request", else `invalid_arguments`); `recipient_team_id` and
 *   `recipient_user_id` "required when streaming to channels" — outside a DM a missing one is
 *   `missing_recipient_team_id` / `missing_recipient_user_id` (the codes Slack returns, as
 *   reported by apps that hit them).
 * - `markdown_text`: "limit this field to 12,000 characters" (start, append, stop) → `msg_too_long`
 *   past it; `chat.appendStream` requires it; its text "is appended to the message received so
 *   far", and so is a stop's.
 * - Stream lifetime: Slack closes a stream about five minutes after its start even while appends
 *   come (slackapi/node-slack-sdk#2702, python-slack-sdk#1859; the Chat SDK rotates at four);
 *   here `streamLifetimeMs`. An append or stop after it, or after a stop, gets
 *   `message_not_in_streaming_state` (listed in the method's errors); an unknown ts
 *   `message_not_found`.
 * - `chunks` (chat.appendStream "Using the chunks parameter"; @slack/types `TaskUpdateChunk`):
 *   an array of `markdown_text` (`text`), `task_update` (`id`, `title`, `status` one of
 *   `pending`, `in_progress`, `complete`, `error`), `plan_update` or `blocks` chunks; anything
 *   else is `invalid_chunks` (listed in the method's errors). Their markdown is appended like
 *   `markdown_text`; task updates are recorded, never part of the text. Assumed, not
 *   documented: `markdown_text` and `chunks` in one request is `invalid_arguments` (the
 *   official client never sends both: with chunks it moves the text into a chunk).
 * - Size: Slack ends a stream near 10.6–11.3 KB of UTF-8 without documenting it; here
 *   `streamByteCap`: the request that would pass it is refused (`streamCapAnswer`; a start:
 *   `msg_too_long`) and the stream is over (it keeps what it showed; later calls get
 *   `message_not_in_streaming_state`).
 * - The Stop button of an agent session (reference/events/agent_session_stopped): `pressStop`
 *   stops the thread's live streams and returns the `event_callback` Slack sends, with
 *   `streaming_message_ts` listing them. Not documented, the fake's choice (DESIGN §21): a later
 *   append or stop of such a stream answers `stopped_by_user`; `chat.update` of it works.
 * - `chat.postMessage` / `chat.update`: `no_text`, `msg_too_long` past 40,000 characters,
 *   `message_not_found`. Assumed, not documented: `chat.update` of a stream still live is
 *   `cant_update_message` (the app must stop it first).
 */
export async function startFakeSlackApi(options: FakeSlackApiOptions) {
  const { token, minIntervalMs = 20, fault, forcedRetryAfterSeconds = 0.01 } = options;
  const { tierWindowMs = 60000, streamLifetimeMs = 300000, streamByteCap = Infinity } = options;
  const { streamCapAnswer = 'msg_too_long' } = options;
  const channels = new Map<string, FakeSlackMessage[]>(options.channels.map((c) => [c, []]));
  const lastHandledAt = new Map<string, number>();
  const tokens = new Set([token, ...(options.otherTokens ?? [])]);
  const windows = new Map<string, number[]>();
  /** Every request past auth, in order, with its answer. */
  const calls: FakeSlackCall[] = [];
  const counts = { requests: 0, rateLimited: 0, byMethod: {} as Record<string, number> };
  /** Every `ok:false` answer's error code, in order. */
  const rejected: string[] = [];
  let nextTs = 1;

  const answer = (body: unknown, status = 200, headers?: Record<string, string>): FakeAnswer => ({
    status,
    headers,
    body,
  });
  const fail = (error: string, status = 200) => {
    rejected.push(error);
    return answer({ ok: false, error }, status);
  };
  const rateLimited = (seconds: number) => {
    counts.rateLimited++;
    rejected.push('ratelimited');
    return answer({ ok: false, error: 'ratelimited' }, 429, { 'retry-after': String(seconds) });
  };
  const streamState = (message: FakeSlackMessage, now: number) => {
    if (message.stream === 'streaming' && now - message.startedAt! > streamLifetimeMs)
      message.stream = 'expired';
    return message.stream;
  };
  const tooLong = (text: unknown, limit: number) => typeof text === 'string' && text.length > limit;
  const bytes = (text: unknown) => (typeof text === 'string' ? Buffer.byteLength(text) : 0);
  /** A stream request's markdown and task updates, or the error code Slack would answer. */
  const streamContent = (body: any) => {
    if (body.chunks === undefined) {
      const text = typeof body.markdown_text === 'string' ? body.markdown_text : '';
      return { text, tasks: [] as NonNullable<FakeSlackMessage['taskUpdates']> };
    }
    if (body.markdown_text !== undefined) return 'invalid_arguments';
    if (!Array.isArray(body.chunks)) return 'invalid_chunks';
    let text = '';
    const tasks: NonNullable<FakeSlackMessage['taskUpdates']> = [];
    for (const chunk of body.chunks) {
      if (chunk?.type === 'markdown_text' && typeof chunk.text === 'string') text += chunk.text;
      else if (
        chunk?.type === 'task_update' &&
        typeof chunk.id === 'string' &&
        typeof chunk.title === 'string' &&
        TASK_STATUSES.has(chunk.status)
      )
        tasks.push({ id: chunk.id, title: chunk.title, status: chunk.status });
      else if (chunk?.type !== 'plan_update' && chunk?.type !== 'blocks') return 'invalid_chunks';
    }
    return { text, tasks };
  };

  const handle = (path: string, auth: string | undefined, body: any): FakeAnswer => {
    const n = counts.requests++;
    const method = path.replace(/^\/api\//, '');
    counts.byMethod[method] = (counts.byMethod[method] ?? 0) + 1;
    if (!auth) return fail('not_authed');
    const workspace = auth.replace(/^Bearer /, '');
    if (!auth.startsWith('Bearer ') || !tokens.has(workspace)) return fail('invalid_auth');
    const at = performance.now();
    const answered = handleAuthed(n, method, workspace, body, at);
    const { status, body: sent } = answered;
    const error = (sent as { error?: string }).error;
    calls.push({ method, channel: body?.channel, token: workspace, at, status, error });
    return answered;
  };

  const handleAuthed = (
    n: number,
    method: string,
    workspace: string,
    body: any,
    now: number,
  ): FakeAnswer => {
    const forced = fault?.(n, method);
    if (forced === 'server-error') return fail('internal_error', 500);
    if (forced === 'rate-limit') return rateLimited(forcedRetryAfterSeconds);
    const messages = channels.get(body.channel);
    if (!messages) return fail('channel_not_found');
    const waitMs = (lastHandledAt.get(body.channel) ?? -Infinity) + minIntervalMs - now;
    if (waitMs > 0) return rateLimited(waitMs / 1000);
    const tier = `${workspace} ${method}`;
    const window = (windows.get(tier) ?? []).filter((at) => at > now - tierWindowMs);
    windows.set(tier, window);
    if (window.length >= (TIER_LIMITS[method] ?? Infinity))
      return rateLimited((window[0] + tierWindowMs - now) / 1000);
    window.push(now);
    lastHandledAt.set(body.channel, now);
    const find = () => messages.find((m) => m.ts === body.ts);
    const textFields = ['markdown_text', 'chunks', 'text', 'blocks'].filter((f) => f in body);
    if (method.endsWith('Stream') && textFields.length > 1) return fail('invalid_arguments');
    const newTs = () => `${1700000000 + nextTs++}.000100`;

    switch (method) {
      case 'chat.postMessage': {
        if (typeof body.text !== 'string' || body.text === '') return fail('no_text');
        if (tooLong(body.text, POSTED_CHARS)) return fail('msg_too_long');
        const message = { ts: newTs(), text: body.text, history: [body.text] };
        messages.push(message);
        return answer({ ok: true, channel: body.channel, ts: message.ts });
      }
      case 'chat.update': {
        const message = find();
        if (!message) return fail('message_not_found');
        if (typeof body.text !== 'string' || body.text === '') return fail('no_text');
        if (tooLong(body.text, POSTED_CHARS)) return fail('msg_too_long');
        if (streamState(message, now) === 'streaming') return fail('cant_update_message');
        message.text = body.text;
        message.history.push(body.text);
        return answer({ ok: true, channel: body.channel, ts: message.ts, text: body.text });
      }
      case 'chat.delete': {
        const index = messages.findIndex((m) => m.ts === body.ts);
        if (index < 0) return fail('message_not_found');
        messages.splice(index, 1);
        return answer({ ok: true, channel: body.channel, ts: body.ts });
      }
      case 'chat.startStream': {
        if (typeof body.thread_ts !== 'string') return fail('invalid_arguments');
        if (!body.channel.startsWith('D')) {
          if (!body.recipient_team_id) return fail('missing_recipient_team_id');
          if (!body.recipient_user_id) return fail('missing_recipient_user_id');
        }
        const content = streamContent(body);
        if (typeof content === 'string') return fail(content);
        const { text, tasks } = content;
        if (tooLong(text, STREAM_CHARS)) return fail('msg_too_long');
        // A new stream has no streaming state to lose: its too-long start is msg_too_long.
        if (bytes(text) > streamByteCap) return fail('msg_too_long');
        const message: FakeSlackMessage = {
          ts: newTs(),
          text,
          history: [text],
          chunks: [text],
          taskUpdates: tasks,
          stream: 'streaming',
          stops: 0,
          startedAt: now,
          threadTs: body.thread_ts,
        };
        messages.push(message);
        return answer({ ok: true, channel: body.channel, ts: message.ts });
      }
      case 'chat.appendStream':
      case 'chat.stopStream': {
        const message = find();
        if (!message || !message.chunks) return fail('message_not_found');
        const appending = method === 'chat.appendStream';
        const content = streamContent(body);
        if (typeof content === 'string') return fail(content);
        const { text, tasks } = content;
        if (appending && text === '' && body.chunks === undefined) return fail('invalid_arguments');
        if (tooLong(text, STREAM_CHARS)) return fail('msg_too_long');
        const state = streamState(message, now);
        if (state === 'stopped-by-user') return fail('stopped_by_user');
        if (state !== 'streaming') return fail('message_not_in_streaming_state');
        if (bytes(message.text) + bytes(text) > streamByteCap) {
          message.stream = 'expired';
          return fail(streamCapAnswer);
        }
        message.taskUpdates!.push(...tasks);
        message.chunks.push(text);
        message.text += text;
        message.history.push(message.text);
        if (!appending) {
          message.stream = 'stopped';
          message.stops!++;
        }
        return answer({ ok: true, channel: body.channel, ts: message.ts });
      }
      default:
        return fail('unknown_method', 404);
    }
  };

  const server = await startFakeJsonServer(
    ({ path, headers, body }) => handle(path, headers.authorization, body),
    options,
  );
  return {
    apiBase: server.base,
    /** Messages per channel, in the order they were posted. */
    channels,
    counts,
    rejected,
    calls,
    /** The user presses Stop in `threadTs`: its live streams stop; returns Slack's event. */
    pressStop(channel: string, threadTs: string, user = 'U0STOPPER') {
      const stopped = (channels.get(channel) ?? []).filter(
        (m) => m.threadTs === threadTs && streamState(m, performance.now()) === 'streaming',
      );
      for (const message of stopped) message.stream = 'stopped-by-user';
      return {
        type: 'event_callback',
        team_id: 'T0FAKE',
        event: {
          type: 'agent_session_stopped',
          channel,
          thread_ts: threadTs,
          streaming_message_ts: stopped.map((m) => m.ts),
          user,
          event_ts: `${Math.floor(Date.now() / 1000)}.000200`,
        },
      };
    },
    close: server.close,
  };
}

/** What a fake Slack API started by {@link startFakeSlackApi} offers a spec. */
export type FakeSlackApi = Awaited<ReturnType<typeof startFakeSlackApi>>;

export { callInOrder } from './callInOrder';
