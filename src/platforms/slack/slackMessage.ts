// One chat message as the Slack transport keeps it: the Slack messages (parts) that hold its
// text, and how the next whole text reaches them — appended to a stream, or posted and updated.

import type { MessageEdit } from '../../channels/messageEditPlanner';
import { renderMarkdown } from '../../render/renderMarkdown';
import { DeliveryError } from '../../delivery/errors';
import type { TransportCall } from '../../delivery/types';
import { healPreview } from '../../delivery/healPreview';
import { callSlack, slackErrorOf, type SlackApiSettings, type SlackMethod } from './slackWebApi';
import { newTasks, streamContent, type TaskChunk } from './slackTasks';

/**
 * One Slack message holding a piece of a chat message. `streaming`: a live stream; `stopped`: a
 * stream stopped by the transport (it shows `markdown`); `expired`: a stream Slack closed before
 * its stop (`message_not_in_streaming_state`), to be persisted by `chat.update`; `posted`: a
 * `chat.postMessage` message showing `shown`.
 */
export interface SlackPart {
  ts: string;
  /** The markdown of the chat message this Slack message holds. */
  markdown: string;
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
  api: SlackApiSettings;
  channel: string;
  threadTs?: string;
  recipientUserId?: string;
  recipientTeamId?: string;
  maxStreamMs: number;
  /** The clock a stream's age is read on (the transport's scheduler). */
  now(): number;
  /** The most markdown one stream holds, and one call carries. */
  streamChars: number;
  /** `slack` (mrkdwn) or `plain`: how posted and updated messages are written. */
  format: 'slack' | 'plain';
  /** Called when Slack says this chat cannot stream (missing recipient ids). */
  disableStreams(): void;
}

/** The longest text `chat.postMessage` / `chat.update` take before `msg_too_long`. */
const MAX_POSTED_CHARS = 40000;

/**
 * Brings `ref`'s Slack messages to the whole text of `edit`; with `final`, every stream it
 * left open is stopped. Progress is written into `ref` request by request, so a call that
 * failed half way and is retried goes on where it stopped, never repeating a request that
 * succeeded.
 */
export async function applyText(
  settings: SlackMessageSettings,
  ref: SlackMessageState,
  edit: MessageEdit,
  call: TransportCall,
  final: boolean,
): Promise<void> {
  const api = (method: SlackMethod, payload: Record<string, unknown>) =>
    callSlack(settings.api, method, { channel: settings.channel, ...payload }, call.signal);
  // At most two fallbacks (stream → update) can happen in one call; the third round updates.
  for (let round = 0; round < 3; round++) {
    // An update shows the whole text: a preview's open markdown healed (never a stream's parts).
    if (ref.mode === 'update')
      return updateParts(settings, api, ref, final ? edit : healPreview(edit));
    const streamed = ref.parts.map((part) => part.markdown).join('');
    if (!edit.text.startsWith(streamed)) {
      // A stream cannot take text back: the message is rewritten by chat.update from here on.
      ref.mode = 'update';
      continue;
    }
    try {
      const suffix = edit.text.slice(streamed.length);
      return await streamSuffix(settings, api, ref, suffix, final, newTasks(ref, edit));
    } catch (error) {
      const code = slackErrorOf(error);
      if (code === 'message_not_in_streaming_state') {
        const live = ref.parts.find((part) => part.state === 'streaming');
        if (live) live.state = 'expired';
        ref.mode = 'update';
      } else if (code === 'missing_recipient_team_id' || code === 'missing_recipient_user_id') {
        settings.disableStreams();
        ref.mode = 'update';
      } else throw error;
    }
  }
  return updateParts(settings, api, ref, final ? edit : healPreview(edit));
}

type Api = (method: SlackMethod, payload: Record<string, unknown>) => ReturnType<typeof callSlack>;

/**
 * Streams `suffix` after what `ref` streamed: appends, rotating to a new stream at the limits.
 * `tasks` ride along with the first request (as `chunks`), or alone when no text is new.
 */
async function streamSuffix(
  settings: SlackMessageSettings,
  api: Api,
  ref: SlackMessageState,
  suffix: string,
  final: boolean,
  pendingTasks: TaskChunk[],
): Promise<void> {
  const { streamChars, maxStreamMs } = settings;
  let rest = suffix;
  let tasks = pendingTasks;
  /** The tasks went out with the request just made: later requests carry none. */
  const tasksShown = () => {
    ref.tasks ??= {};
    for (const task of tasks) ref.tasks[task.id] = task.status;
    tasks = [];
  };
  // Each round makes one request and either shortens `rest` or stops a stream: bounded.
  for (let round = 0; round < 2 * Math.ceil(suffix.length / streamChars) + 4; round++) {
    const part = ref.parts.at(-1);
    if (!part || part.state !== 'streaming') {
      if (rest === '' && (tasks.length === 0 || final)) return;
      const [chunk, after] = cut(rest, streamChars);
      const startedAt = settings.now();
      const answer = await api('chat.startStream', {
        thread_ts: settings.threadTs,
        recipient_user_id: settings.recipientUserId,
        recipient_team_id: settings.recipientTeamId,
        ...streamContent(chunk, tasks),
      });
      tasksShown();
      ref.ts = tsOf(answer, 'chat.startStream');
      ref.parts.push({ ts: ref.ts, markdown: chunk, state: 'streaming', startedAt });
      rest = after;
      continue;
    }
    if (settings.now() - part.startedAt >= maxStreamMs) {
      await stopStream(api, part, '');
      continue;
    }
    const [chunk, after] = cut(rest, streamChars - part.markdown.length);
    if (after !== '' || final) {
      // The stream is full (or the text is final): stop it with what still fits.
      await stopStream(api, part, chunk, tasks);
      tasksShown();
      rest = after;
      continue;
    }
    if (chunk === '' && tasks.length === 0) return;
    await api('chat.appendStream', { ts: part.ts, ...streamContent(chunk, tasks) });
    tasksShown();
    part.markdown += chunk;
    return;
  }
  throw new Error('slackTransport: streaming made no progress (a bug in llm-rx)');
}

async function stopStream(
  api: Api,
  part: SlackPart,
  chunk: string,
  tasks: TaskChunk[] = [],
): Promise<void> {
  await api('chat.stopStream', { ts: part.ts, ...streamContent(chunk, tasks) });
  part.markdown += chunk;
  part.state = 'stopped';
}

/**
 * Makes every part show its share of `edit.text` with `chat.update` (a new message with
 * `chat.postMessage` when there is none): parts keep their lengths, the last one takes the rest;
 * a live stream is stopped first; a part left without text is deleted.
 */
async function updateParts(
  settings: SlackMessageSettings,
  api: Api,
  ref: SlackMessageState,
  edit: MessageEdit,
): Promise<void> {
  const { text } = edit;
  const mrkdwn = settings.format === 'slack';
  const write = (markdown: string) => writeFor(settings.format, markdown, edit);
  if (ref.parts.length === 0) {
    // Nothing to post yet (tool progress before any text shows nothing in update mode).
    if (text.trim() === '') return;
    const shown = write(text);
    const answer = await api('chat.postMessage', {
      text: shown,
      mrkdwn,
      ...(settings.threadTs === undefined ? {} : { thread_ts: settings.threadTs }),
    });
    ref.ts = tsOf(answer, 'chat.postMessage');
    ref.parts.push({ ts: ref.ts, markdown: text, state: 'posted', shown, startedAt: 0 });
    return;
  }
  // A part deleted by an earlier call that failed later on is gone: it takes no share.
  ref.parts = ref.parts.filter((part) => !isDeleted(part));
  let offset = 0;
  for (const [index, part] of [...ref.parts.entries()]) {
    const last = index === ref.parts.length - 1;
    const share = last ? text.slice(offset) : text.slice(offset, offset + part.markdown.length);
    offset += share.length;
    if (part.state === 'stopped' && share === part.markdown) continue;
    if (part.state === 'streaming') {
      await stopStreamOrExpired(api, part);
      if (share === part.markdown && (part.state as SlackPart['state']) === 'stopped') continue;
    }
    if (share === '') {
      await api('chat.delete', { ts: part.ts });
      part.markdown = '';
      part.state = 'posted';
      part.shown = '';
      continue;
    }
    const shown = write(share);
    if (part.state === 'posted' && part.shown === shown) {
      part.markdown = share;
      continue;
    }
    await api('chat.update', { ts: part.ts, text: shown, mrkdwn });
    Object.assign(part, { markdown: share, state: 'posted', shown });
  }
  ref.parts = ref.parts.filter((part) => !isDeleted(part));
  ref.ts = ref.parts.at(-1)?.ts ?? ref.ts;
}

const isDeleted = (part: SlackPart) => part.state === 'posted' && part.shown === '';

async function stopStreamOrExpired(api: Api, part: SlackPart): Promise<void> {
  try {
    await stopStream(api, part, '');
  } catch (error) {
    // A posted message was never a stream (Slack: message_not_found for stream methods); a
    // message that is truly gone fails the chat.update that follows.
    const code = slackErrorOf(error);
    if (code !== 'message_not_in_streaming_state' && code !== 'message_not_found') throw error;
    part.state = 'expired';
  }
}

/** The text a posted message shows for `markdown`: the edit's own rendering when it fits. */
function writeFor(format: 'slack' | 'plain', markdown: string, edit: MessageEdit): string {
  if (markdown === edit.text && edit.rendered?.format === format) return edit.rendered.text;
  const messages = renderMarkdown(markdown, format, { maxLength: MAX_POSTED_CHARS });
  // Nothing visible (only whitespace or markers): Slack refuses an empty text, so send it as is.
  return messages.length === 0 ? markdown : messages.map((message) => message.text).join('\n\n');
}

/** The `ts` of a new message; an answer without one cannot be edited later. */
function tsOf(answer: { ts?: string }, method: SlackMethod): string {
  if (answer.ts !== undefined && answer.ts !== '') return answer.ts;
  throw new DeliveryError(`Slack ${method}: the answer has no ts.`, { permanent: true });
}

/** `text` cut after at most `limit` characters (never inside a surrogate pair). */
function cut(text: string, limit: number): [string, string] {
  if (text.length <= limit) return [text, ''];
  let at = Math.max(0, limit);
  const code = text.charCodeAt(at - 1);
  if (at > 0 && code >= 0xd800 && code <= 0xdbff) at--;
  return [text.slice(0, at), text.slice(at)];
}
