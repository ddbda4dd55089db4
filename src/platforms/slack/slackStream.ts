// A chat message's text streamed into Slack: appended to the live stream, continued in a new
// streamed message before the stream's age or size limits, and after Slack closed one.

import { DeliveryError } from '../../delivery/errors';
import type { TransportCall } from '../../delivery/types';
import { slackErrorOf, type callSlack, type SlackMethod } from './slackWebApi';
import { streamContent, type TaskChunk } from './slackTasks';
import type { SlackMessageSettings, SlackMessageState, SlackPart } from './slackMessageState';

type Api = (method: SlackMethod, payload: Record<string, unknown>) => ReturnType<typeof callSlack>;

/** The Slack answers that mean a stream is over: what it showed stays, the rest goes on. */
const STREAM_CLOSED = new Set(['message_not_in_streaming_state', 'msg_too_long']);

/**
 * Streams `suffix` after what `ref` streamed: appends, and continues in a new streamed message
 * before a stream passes `maxStreamMs`, `streamChars` or `streamBytes` (each with a
 * `slack-stream-rotated` warning), or once Slack closed it (`message_not_in_streaming_state`:
 * `slack-stream-expired`; `msg_too_long`: `slack-stream-too-long`, and the byte budget shrinks
 * below what Slack refused). A refused request changed nothing, so its text is the next
 * message's start: nothing lost, nothing shown twice.
 */
export async function streamSuffix(
  settings: SlackMessageSettings,
  api: Api,
  ref: SlackMessageState,
  suffix: string,
  final: boolean,
  call: TransportCall,
  pendingTasks: TaskChunk[] = [],
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
  // Each round shortens `rest`, stops or loses a stream (the next round starts one that takes
  // text), or halves the byte budget: bounded.
  for (let round = 0; round < 3 * suffix.length + 64; round++) {
    const part = ref.parts.at(-1);
    const budget = settings.streamBytes;
    if (!part || part.state !== 'streaming') {
      if (rest === '' && (tasks.length === 0 || final)) return;
      const [chunk, after] = cutToFit(rest, streamChars, budget.bytes);
      const startedAt = settings.now();
      try {
        const answer = await api('chat.startStream', {
          thread_ts: settings.threadTs,
          recipient_user_id: settings.recipientUserId,
          recipient_team_id: settings.recipientTeamId,
          ...streamContent(chunk, tasks),
        });
        tasksShown();
        ref.ts = tsOf(answer);
      } catch (error) {
        if (slackErrorOf(error) !== 'msg_too_long' || utf8Length(chunk) < 2) throw error;
        // Slack's size cap is below the budget: a new stream with half as much.
        budget.bytes = Math.max(1, Math.floor(utf8Length(chunk) / 2));
        warnTooLong(call, budget.bytes);
        continue;
      }
      ref.parts.push({ ts: ref.ts, markdown: chunk, state: 'streaming', startedAt });
      rest = after;
      continue;
    }
    // The markdown of the request in flight, for what a msg_too_long tells of Slack's cap.
    let pending = '';
    try {
      if (settings.now() - part.startedAt >= maxStreamMs) {
        await stopStream(api, part, '');
        call.warn(
          'slack-stream-rotated',
          `Slack stream ${part.ts} reached maxStreamMs (${maxStreamMs} ms); the text goes on in a new message.`,
        );
        continue;
      }
      const [chunk, after] = cutToFit(
        rest,
        streamChars - part.markdown.length,
        budget.bytes - utf8Length(part.markdown),
      );
      pending = chunk;
      if (after !== '' || final) {
        // The stream is full (or the text is final): stop it with what still fits.
        await stopStream(api, part, chunk, tasks);
        tasksShown();
        rest = after;
        if (after !== '')
          call.warn(
            'slack-stream-rotated',
            `Slack stream ${part.ts} is full (${streamChars} characters or ${budget.bytes} UTF-8 bytes); the text goes on in a new message.`,
          );
        continue;
      }
      if (chunk === '' && tasks.length === 0) return;
      await api('chat.appendStream', { ts: part.ts, ...streamContent(chunk, tasks) });
      tasksShown();
      part.markdown += chunk;
      return;
    } catch (error) {
      const code = slackErrorOf(error);
      if (code === undefined || !STREAM_CLOSED.has(code)) throw error;
      // Slack ended this stream: it shows what it confirmed; the rest starts a new message.
      part.state = 'stopped';
      if (code === 'msg_too_long') {
        // Slack's cap lies between what the stream held and that plus the refused request.
        const held = utf8Length(part.markdown);
        const refused = utf8Length(pending);
        const guess = held >= refused ? held : Math.floor((held + refused) / 2);
        budget.bytes = Math.max(1, Math.min(budget.bytes, guess));
        warnTooLong(call, budget.bytes);
      } else
        call.warn(
          'slack-stream-expired',
          `Slack closed stream ${part.ts} (message_not_in_streaming_state); the text goes on in a new message.`,
        );
    }
  }
  throw new Error('slackTransport: streaming made no progress (a bug in llm-rx)');
}

const warnTooLong = (call: TransportCall, bytes: number) =>
  call.warn(
    'slack-stream-too-long',
    `Slack refused more text in one stream (msg_too_long); streams now hold at most ${bytes} UTF-8 bytes and the text goes on in a new message.`,
  );

/** Stops `part`'s stream, with `chunk` as its last text. */
export async function stopStream(
  api: Api,
  part: SlackPart,
  chunk: string,
  tasks: TaskChunk[] = [],
): Promise<void> {
  await api('chat.stopStream', { ts: part.ts, ...streamContent(chunk, tasks) });
  part.markdown += chunk;
  part.state = 'stopped';
}

/** The `ts` of a new message; an answer without one cannot be edited later. */
export function tsOf(answer: { ts?: string }, method: SlackMethod = 'chat.startStream'): string {
  if (answer.ts !== undefined && answer.ts !== '') return answer.ts;
  throw new DeliveryError(`Slack ${method}: the answer has no ts.`, { permanent: true });
}

/** The UTF-8 length of `text` (what Slack's undocumented stream cap counts). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * `text` cut after at most `chars` characters and `bytes` UTF-8 bytes, never inside a
 * surrogate pair: `[what fits, the rest]`.
 */
export function cutToFit(text: string, chars: number, bytes: number): [string, string] {
  let at = 0;
  let used = 0;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    const pair = code >= 0xd800 && code <= 0xdbff && at + 1 < text.length;
    const width = pair ? 2 : 1;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : pair ? 4 : 3;
    if (at + width > chars || used + size > bytes) break;
    at += width;
    used += size;
  }
  if (at >= text.length) return [text, ''];
  // A part ends after a line, else after a space, in the fitting prefix's second half: a
  // rotated message never splits a word when it can help it.
  const line = text.lastIndexOf('\n', at - 1);
  const space = text.slice(0, at).search(/\s\S*$/);
  const cut = line >= at / 2 ? line + 1 : space >= at / 2 ? space + 1 : at;
  return [text.slice(0, cut), text.slice(cut)];
}
