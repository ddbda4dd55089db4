// Slack's Stop button on an agent session: the event that says a user pressed it, and the
// answer a stream gives once it is stopped.

/** Which answer a user stopped: the channel and thread, and the streams Slack stopped. */
export interface SlackStop {
  channel: string;
  threadTs?: string;
  /** The app's streaming messages Slack stopped (empty when none was streaming). */
  streamingMessageTs: string[];
  user?: string;
}

/**
 * Reads an `agent_session_stopped` event (the user pressed Stop while the agent session was
 * processing), bare or in its `event_callback` envelope, and tells which channel and thread it
 * stops, or `undefined` for any other event. The bot then calls `stop()` on the transport
 * answering in that thread. Slack does not move the session out of `processing` itself: the
 * transport's last call (`chat.stopStream`, or `chat.update` of the stopped stream) ends it.
 *
 * ```
 * event:   { type: 'agent_session_stopped', channel, thread_ts, streaming_message_ts: [ts…], user }
 * result:  { channel, threadTs, streamingMessageTs, user }
 * ```
 *
 * @example
 * ```ts
 * app.event('agent_session_stopped', async ({ event }) => {
 *   const stop = slackStopOf(event);
 *   if (stop) answering.get(`${stop.channel}/${stop.threadTs}`)?.stop();
 * });
 * ```
 * @param event - the event, or the Events API body (`{ type: 'event_callback', event }`)
 */
export function slackStopOf(event: unknown): SlackStop | undefined {
  const outer = event as { type?: unknown; event?: unknown } | null;
  const inner = (outer?.type === 'event_callback' ? outer.event : outer) as {
    type?: unknown;
    channel?: unknown;
    thread_ts?: unknown;
    streaming_message_ts?: unknown;
    user?: unknown;
  } | null;
  if (inner?.type !== 'agent_session_stopped' || typeof inner.channel !== 'string')
    return undefined;
  const streams = Array.isArray(inner.streaming_message_ts) ? inner.streaming_message_ts : [];
  return {
    channel: inner.channel,
    ...(typeof inner.thread_ts === 'string' ? { threadTs: inner.thread_ts } : {}),
    streamingMessageTs: streams.filter((ts): ts is string => typeof ts === 'string'),
    ...(typeof inner.user === 'string' ? { user: inner.user } : {}),
  };
}

/**
 * The `error` of a stream call after the user stopped that stream: a stop, not an expiry (an
 * expired stream answers `message_not_in_streaming_state` and goes on in a new one).
 */
export const SLACK_STOPPED_BY_USER = 'stopped_by_user';
