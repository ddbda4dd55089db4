import type { MessageEdit } from '../../channels/messageEditPlanner';
import { LlmRxError } from '../../errors';
import { parseOptions } from '../../internal/options';
import { slackLimits } from './limits';
import { applyText, type SlackMessageState } from './slackMessage';
import { refOf, restoredState, type SlackRef } from './slackRef';
import { callSlack, type SlackCall } from './slackWebApi';
import { SlackTransportOptions } from './slackOptions';
import { limitedCall, type SlackRateLimits } from './slackRateLimits';
export type { SlackTransportOptions } from './slackOptions';
import type { DeliveryTransport, TransportCall } from '../../delivery/types';
import { createStopControl, type StopControl } from '../../delivery/transportStop';

/**
 * Slack's limits as the transport uses them, from `platformLimits.slack`: `markdown_text` takes
 * 12,000 characters per call (and a stream is continued in a new message before it holds
 * more, or more than `maxStreamBytes`); a posted text is kept under 4,000, as Slack recommends
 * for `text` (the transport splits one past 40,000, where Slack truncates).
 */
export const SLACK_LIMITS = {
  streamChars: slackLimits.maxStreamChars ?? slackLimits.maxMessageChars,
  postedChars: slackLimits.maxMessageChars,
} as const;

/** Finished messages whose state a transport keeps for texts arriving after their finish. */
const KEPT_FINISHED = 64;

/**
 * The Slack transport: a {@link DeliveryTransport} whose reference is a {@link SlackRef} (the
 * `ts` of a chat message held by one Slack message; every part when it spans several), with
 * `finish` and its message limit.
 */
export interface SlackTransport extends DeliveryTransport<SlackRef> {
  /** {@link StopControl.stopSignal}: aborted by the user's Stop. */
  readonly stopSignal: AbortSignal;
  /** {@link StopControl.stop}: the bot's own Stop. */
  stop(reason?: string): void;
  send(edit: MessageEdit, call: TransportCall): Promise<SlackRef>;
  edit(ref: SlackRef, edit: MessageEdit, call: TransportCall): Promise<SlackRef>;
  /** Stops the message's stream with its final text (posted messages: a last update if needed). */
  finish(ref: SlackRef, edit: MessageEdit, call: TransportCall): Promise<SlackRef>;
  /** What to give `toMessageEdits`: 12,000 while streaming, else 4,000. */
  readonly maxMessageChars: number;
  readonly minIntervalMs: number;
}

/**
 * A {@link DeliveryTransport} for the Slack Web API. In a thread (`threadTs`) it streams the
 * answer natively; elsewhere it posts and updates. The reference is a Slack `ts`.
 *
 * ```
 * edits:   send "Hel"      edit "Hello"      edit "Hello, world"   finish "Hello, world!"
 * stream:  startStream     appendStream      appendStream          stopStream
 *          "Hel"           "lo"              ", world"             "!"
 * ```
 *
 * - Streams get markdown (`markdown_text`): only what was added since the last call, so the
 *   parts concatenate to the final text exactly (but for the fence lines below). `finish` stops
 *   the stream with the rest.
 * - A stream older than `maxStreamMs`, or one that would pass 12,000 characters or
 *   `maxStreamBytes` UTF-8 bytes, is stopped and the text continues in a new streamed message in
 *   the same thread (`slack-stream-rotated`). A stream Slack closed anyway keeps what it showed
 *   and the text it did not confirm starts the next one (`slack-stream-expired` for
 *   `message_not_in_streaming_state`; `slack-stream-too-long` for `msg_too_long`, which lowers
 *   the byte budget below what Slack refused). Requests carry `markdown_text`, never `chunks`.
 * - Continued inside a fenced code block, the stopped stream ends with the block's closer and
 *   the next starts with its opening line (same marker, same info string): each message shows
 *   the code as code, the cut after a line of code; both lines fit the budgets. After a stream
 *   Slack closed (it takes no closer any more) the next one still reopens the block.
 * - A text that does not extend what was streamed (streams cannot take text back): the stream
 *   is stopped and that message is rewritten with `chat.update` from then on, each Slack
 *   message keeping its share (a share left empty is deleted): nothing lost, nothing twice. A
 *   share that starts or ends inside a code block is shown with its opening line or closer.
 * - Falls back to `chat.postMessage` + `chat.update` (mrkdwn from `renderMarkdown`, or
 *   `edit.rendered` when it is in the transport's format): without `threadTs` (mode `auto`);
 *   for the rest of the transport's life when Slack answers `missing_recipient_user_id` /
 *   `missing_recipient_team_id`. A posted text over 40,000 characters goes on in further
 *   messages, cut after a line (`slack-posted-split`).
 * - The ref ({@link SlackRef}) is the `ts`, or every part once the message spans several Slack
 *   messages. A ref this transport did not write (a ledger's, after a restart): the parts
 *   before the newest are left as they are; the newest may be a stream the dead process left
 *   open: in stream mode it is stopped first (`message_not_in_streaming_state` /
 *   `message_not_found` mean it was none), then `chat.update` writes the rest of the text.
 * - The user's Stop (the `agent_session_stopped` event, read by `slackStopOf`: the bot
 *   calls `stop()`; or a stream call answered `stopped_by_user`) aborts `stopSignal` (give it to
 *   the model's `fetch`); the stopped message is then updated (`chat.update`) with its final text,
 *   the partial answer and `deliver`'s stop notice.
 * - Paced by `deliver` (`minIntervalMs` between its calls). A bot answering many conversations
 *   makes its transports with `createSlackBot`, whose calls share the token's limits instead
 *   (each method's tier for the workspace, each channel's interval).
 * - Every method: HTTP 429 / `ratelimited` → `retryAfterMs` from `Retry-After` (1 s without one);
 *   auth, channel and argument errors (`invalid_auth`, `channel_not_found`, `not_in_channel`,
 *   `account_inactive`, `msg_too_long`, …) are permanent; 5xx and network failures retried. A
 *   retried call goes on from the last request that succeeded (progress lives in the ref).
 *
 * @example
 * ```ts
 * const slack = slackTransport({ token, channel, threadTs, recipientUserId, recipientTeamId });
 * edits$ = events$.pipe(channel('slack'), toMessageEdits({ maxMessageChars: slack.maxMessageChars }));
 * edits$.pipe(deliver(slack)).subscribe();
 * ```
 * @param options - {@link SlackTransportOptions}
 */
export function slackTransport(options: SlackTransportOptions): SlackTransport {
  return createSlackTransport(parseOptions('slackTransport', SlackTransportOptions, options));
}

/** What a transport shares with the others of its bot (createSlackBot): the token's limits. */
export interface SlackTransportShared {
  limits: SlackRateLimits;
}

/**
 * {@link slackTransport} from checked settings; with `shared`, every call passes the bot's
 * limits (its channel's and its method's) and the limits, not `deliver`'s interval, pace it.
 */
export function createSlackTransport(
  settings: ReturnType<typeof SlackTransportOptions.parse>,
  shared?: SlackTransportShared,
  functionName = 'slackTransport',
): SlackTransport {
  const { token, apiBase, mode, threadTs, channel } = settings;
  if (mode === 'stream' && threadTs === undefined) {
    throw new LlmRxError(
      'invalid-options',
      `${functionName}: mode 'stream' needs threadTs (Slack streams only as a thread reply); ` +
        "use mode 'auto' or 'update' to post without one",
    );
  }
  let streams = mode !== 'update' && threadTs !== undefined;
  const control = createStopControl();
  const api = {
    token: token ?? '',
    base: apiBase.replace(/\/+$/, ''),
    fetch: settings.fetch ?? globalThis.fetch,
    client: settings.client,
  };
  const direct: SlackCall = (method, payload, signal) => callSlack(api, method, payload, signal);
  const messageSettings = {
    call: shared ? limitedCall(shared.limits, channel, direct) : direct,
    channel,
    threadTs,
    recipientUserId: settings.recipientUserId,
    recipientTeamId: settings.recipientTeamId,
    maxStreamMs: settings.maxStreamMs,
    now: () => settings.scheduler.now(),
    streamChars: SLACK_LIMITS.streamChars,
    streamBytes: { bytes: settings.maxStreamBytes },
    format: settings.format,
    disableStreams: () => (streams = false),
    onUserStop: () => control.stop('The user pressed Stop in Slack.'),
  };
  // Each message's state under the ts of every Slack message it spans (deliver may hand back an
  // older ts when a call failed after a stream was continued). Finished messages stay (a text
  // arriving after a finish updates them), the oldest dropped past KEPT_FINISHED.
  const open = new Map<string, SlackMessageState>();
  const finished: SlackMessageState[] = [];
  // A send that failed after Slack created the message: its retry (the next call, for the same
  // message) continues that message instead of creating a second one.
  let unfinishedSend: { message: number; state: SlackMessageState } | undefined;

  const stateOf = (ref: SlackRef, edit: MessageEdit): SlackMessageState => {
    const known = open.get(typeof ref === 'string' ? ref : ref.ts);
    if (known) return known;
    // A ref this transport did not write (another process, a ledger): its parts are taken as
    // they were left, and its newest part may still be a live stream of a process that died,
    // which Slack will not update: it is stopped first (a message that was no stream answers
    // so and is left as it is), then updated.
    return restoredState(ref, edit.text, streams);
  };
  const apply = async (
    state: SlackMessageState,
    edit: MessageEdit,
    call: TransportCall,
    final: boolean,
  ) => {
    try {
      await applyText(messageSettings, state, edit, call, final);
    } finally {
      for (const part of state.parts) open.set(part.ts, state);
      // No Slack message yet (only tool progress, which update mode does not show): a ref of
      // its own until the first text posts one.
      if (state.parts.length === 0) open.set((state.ts ||= `unposted:${edit.message}`), state);
    }
    if (final && !finished.includes(state)) {
      // Its streams are stopped: a later text updates them rather than opening a stream
      // that no finish would stop.
      state.mode = 'update';
      finished.push(state);
      for (const old of finished.splice(0, Math.max(0, finished.length - KEPT_FINISHED)))
        for (const part of old.parts) open.delete(part.ts);
    }
    return refOf(state);
  };

  return {
    stopSignal: control.stopSignal,
    stop: control.stop,
    // In a bot the shared limits pace every call, counted from answers; deliver asks them when
    // a call to this channel could start, so the text it takes then is the newest.
    ...(shared
      ? { minIntervalMs: 0, budget: { readyIn: () => shared.limits.readyIn(channel) } }
      : { minIntervalMs: settings.minIntervalMs }),
    maxMessageChars: streams ? SLACK_LIMITS.streamChars : SLACK_LIMITS.postedChars,
    async send(edit, call) {
      const state: SlackMessageState =
        unfinishedSend?.message === edit.message
          ? unfinishedSend.state
          : { ts: '', mode: streams ? 'stream' : 'update', parts: [] };
      unfinishedSend = { message: edit.message, state };
      const ts = await apply(state, edit, call, false);
      unfinishedSend = undefined;
      return ts;
    },
    edit: async (ref, edit, call) => apply(stateOf(ref, edit), edit, call, false),
    finish: async (ref, edit, call) => apply(stateOf(ref, edit), edit, call, true),
  };
}
