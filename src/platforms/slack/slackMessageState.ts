// What the Slack transport keeps for one chat message, shared by its message and stream code.

import type { TaskChunk } from './slackTasks';
import type { SlackCall } from './slackWebApi';

/**
 * One Slack message holding a piece of a chat message. `streaming`: a live stream; `stopped`: a
 * stream that is over and shows `markdown` (stopped by the transport, or closed by Slack after
 * it confirmed `markdown`); `expired`: a ref's stream that answered its stop as no stream (after
 * a restart), to be persisted by `chat.update`; `posted`: a `chat.postMessage` message showing
 * `shown`.
 */
export interface SlackPart {
  ts: string;
  /** The markdown of the chat message this Slack message holds (its share of the text). */
  markdown: string;
  /**
   * What it shows before `markdown`: the opening line of the code block its share starts
   * inside (with its line feed), or ''. Unknown (a part restored from a ref): undefined.
   */
  opening?: string;
  /** What it shows after `markdown`: the closer of the code block its share ends inside, or ''. */
  closing?: string;
  state: 'streaming' | 'stopped' | 'expired' | 'posted';
  /** What a posted or updated message shows (mrkdwn or plain text). */
  shown?: string;
  /** When its stream was started (`settings.now()`), for rotation before Slack's limit. */
  startedAt: number;
}

/**
 * What the transport keeps for a chat message: `ts` of the newest Slack message holding its
 * text (the reference `deliver` gets), every part in order, and whether its next text streams
 * or updates.
 */
export interface SlackMessageState {
  ts: string;
  mode: 'stream' | 'update';
  parts: SlackPart[];
  /** The status of each tool already shown as a `task_update` chunk, by tool id. */
  tasks?: Record<string, TaskChunk['status']>;
}

/** What a Slack message engine needs from its transport. */
export interface SlackMessageSettings {
  /** Makes one Web API call (through the bot's limits, in a bot). */
  call: SlackCall;
  channel: string;
  threadTs?: string;
  recipientUserId?: string;
  recipientTeamId?: string;
  maxStreamMs: number;
  /** The clock a stream's age is read on (the transport's scheduler). */
  now(): number;
  /** The most markdown one stream holds, and one call carries. */
  streamChars: number;
  /** The most UTF-8 bytes one stream holds; lowered when Slack answers `msg_too_long`. */
  streamBytes: { bytes: number };
  /** `slack` (mrkdwn) or `plain`: how posted and updated messages are written. */
  format: 'slack' | 'plain';
  /** Called when Slack says this chat cannot stream (missing recipient ids). */
  disableStreams(): void;
  /** Called when Slack says the user stopped the stream (`stopped_by_user`). */
  onUserStop?(): void;
}
