// A chat message's text streamed into Slack: appended to the live stream, continued in a new
// streamed message before the stream's age or size limits, and after Slack closed one.

import { DeliveryError } from '../../delivery/errors';
import type { TransportCall } from '../../delivery/types';
import { slackErrorOf, type callSlack, type SlackMethod } from './slackWebApi';
import { fenceAtEnd, openingLine } from './slackFences';
import { ageStop, cutForPart, utf8Length } from './slackStreamCut';
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
 * message's start: nothing lost, nothing shown twice. A stream stopped inside a fenced code
 * block ends with the block's closer, and the next one starts with its opening line (both
 * within the budgets, kept apart from the parts' shares in `opening` / `closing`).
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
    const streamed = ref.parts.map((each) => each.markdown).join('');
    const fits = { streamed, chars: streamChars, bytes: budget.bytes, final };
    if (!part || part.state !== 'streaming') {
      if (rest === '' && (tasks.length === 0 || final)) return;
      // Inside a code block the new stream reopens it, also after a stream Slack closed
      // (msg_too_long, expired), which could take no closer any more.
      const opening = openingLine(fenceAtEnd(streamed), streamChars, budget.bytes);
      const [chunk, after] = cutForPart(rest, opening, '', fits);
      const request = opening + chunk;
      const startedAt = settings.now();
      try {
        const answer = await api('chat.startStream', {
          thread_ts: settings.threadTs,
          recipient_user_id: settings.recipientUserId,
          recipient_team_id: settings.recipientTeamId,
          ...streamContent(request, tasks),
        });
        tasksShown();
        ref.ts = tsOf(answer);
      } catch (error) {
        if (slackErrorOf(error) !== 'msg_too_long' || utf8Length(request) < 2) throw error;
        // Slack's size cap is below the budget: a new stream with half as much.
        budget.bytes = Math.max(1, Math.floor(utf8Length(request) / 2));
        warnTooLong(call, budget.bytes);
        continue;
      }
      ref.parts.push({ ts: ref.ts, markdown: chunk, opening, state: 'streaming', startedAt });
      rest = after;
      continue;
    }
    const shown = (part.opening ?? '') + part.markdown;
    // The markdown of the request in flight, for what a msg_too_long tells of Slack's cap.
    let pending = '';
    try {
      const stop =
        settings.now() - part.startedAt >= maxStreamMs
          ? ageStop(rest, shown, fits, tasks.length > 0)
          : null;
      if (stop !== null) {
        const [chunk, closing] = stop;
        pending = chunk + closing;
        await stopStream(api, part, chunk, closing);
        rest = rest.slice(chunk.length);
        // A final text's last stop continues nothing.
        if (rest !== '' || !final)
          call.warn(
            'slack-stream-rotated',
            `Slack stream ${part.ts} reached maxStreamMs (${maxStreamMs} ms); the text goes on in a new message.`,
          );
        continue;
      }
      const [chunk, after, closing] = cutForPart(rest, part.opening ?? '', part.markdown, fits);
      pending = chunk + closing;
      if (after !== '' || final) {
        // The stream is full (or the text is final): stop it with what still fits.
        await stopStream(api, part, chunk, closing, tasks);
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
      part.closing = '';
      if (code === 'msg_too_long') {
        // Slack's cap lies between what the stream held and that plus the refused request.
        const held = utf8Length(shown);
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

/** Stops `part`'s stream, with `chunk` as its last text and `closing` (a fence's closer) after. */
export async function stopStream(
  api: Api,
  part: SlackPart,
  chunk: string,
  closing = '',
  tasks: TaskChunk[] = [],
): Promise<void> {
  await api('chat.stopStream', { ts: part.ts, ...streamContent(chunk + closing, tasks) });
  part.markdown += chunk;
  part.closing = closing;
  part.state = 'stopped';
}

/** The `ts` of a new message; an answer without one cannot be edited later. */
export function tsOf(answer: { ts?: string }, method: SlackMethod = 'chat.startStream'): string {
  if (answer.ts !== undefined && answer.ts !== '') return answer.ts;
  throw new DeliveryError(`Slack ${method}: the answer has no ts.`, { permanent: true });
}
