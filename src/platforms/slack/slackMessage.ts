// One chat message as the Slack transport keeps it: the Slack messages (parts) that hold its
// text, and how the next whole text reaches them — appended to a stream, or posted and updated.
// Its state's types are in slackMessageState.ts (slackStream.ts reads them too).

export type { SlackMessageSettings, SlackMessageState, SlackPart } from './slackMessageState';

import type { MessageEdit } from '../../channels/messageEditPlanner';
import { renderMarkdown } from '../../render/renderMarkdown';
import type { TransportCall } from '../../delivery/types';
import { healPreview } from '../../delivery/healPreview';
import { slackErrorOf, type SlackCall, type SlackMethod } from './slackWebApi';
import { completeShare } from './slackFences';
import { stopStream, streamSuffix, tsOf } from './slackStream';
import type { SlackMessageSettings, SlackMessageState, SlackPart } from './slackMessageState';
import { newTasks } from './slackTasks';
import { SLACK_STOPPED_BY_USER } from './stop';

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
    settings.call(method, { channel: settings.channel, ...payload }, call.signal);
  // At most two fallbacks (stream → update) can happen in one call; the third round updates.
  for (let round = 0; round < 3; round++) {
    // An update shows the whole text: a preview's open markdown healed (never a stream's parts).
    if (ref.mode === 'update')
      return updateParts(settings, api, ref, final ? edit : healPreview(edit), call);
    const streamed = ref.parts.map((part) => part.markdown).join('');
    if (!edit.text.startsWith(streamed)) {
      // A stream cannot take text back: the message is rewritten by chat.update from here on.
      ref.mode = 'update';
      continue;
    }
    try {
      const suffix = edit.text.slice(streamed.length);
      return await streamSuffix(settings, api, ref, suffix, final, call, newTasks(ref, edit));
    } catch (error) {
      const code = slackErrorOf(error);
      if (code === SLACK_STOPPED_BY_USER) {
        // The user pressed Stop: Slack ended the stream; the message is updated, not continued.
        settings.onUserStop?.();
        const live = ref.parts.find((part) => part.state === 'streaming');
        if (live) live.state = 'expired';
        ref.mode = 'update';
      } else if (code === 'missing_recipient_team_id' || code === 'missing_recipient_user_id') {
        settings.disableStreams();
        ref.mode = 'update';
      } else throw error;
    }
  }
  return updateParts(settings, api, ref, final ? edit : healPreview(edit), call);
}

type Api = (method: SlackMethod, payload: Record<string, unknown>) => ReturnType<SlackCall>;

/**
 * Makes every part show its share of `edit.text` with `chat.update`: parts keep their lengths,
 * the last one takes the rest, up to what one message takes (40,000 characters as shown); what
 * is left goes out in new messages (`chat.postMessage`, a `slack-posted-split` warning past the
 * first). Each share is shown as complete markdown: one that starts inside a code block gets
 * its opening line, one that ends inside gets its closer. A live stream is stopped first; a
 * part left without text is deleted.
 */
async function updateParts(
  settings: SlackMessageSettings,
  api: Api,
  ref: SlackMessageState,
  edit: MessageEdit,
  call: TransportCall,
): Promise<void> {
  const { text } = edit;
  const mrkdwn = settings.format === 'slack';
  const whole = (at: number, share: string) => completeShare(text, at, share, MAX_POSTED_CHARS);
  const write = (at: number, share: string) =>
    writeFor(settings.format, whole(at, share).markdown, edit);
  // Nothing to post yet (tool progress before any text shows nothing in update mode).
  if (ref.parts.length === 0 && text.trim() === '') return;
  // A part deleted by an earlier call that failed later on is gone: it takes no share.
  ref.parts = ref.parts.filter((part) => !isDeleted(part));
  let offset = 0;
  for (const [index, part] of [...ref.parts.entries()]) {
    const at = offset;
    const share =
      index === ref.parts.length - 1
        ? postedPieces(text.slice(at), (piece, from) => write(at + from, piece))[0]
        : text.slice(at, at + part.markdown.length);
    offset += share.length;
    const { opening, closing } = whole(at, share);
    // A part restored from a ref (opening / closing unknown) is taken to show what these give.
    const sameShare = share === part.markdown && (part.opening ?? opening) === opening;
    const unchanged = sameShare && (part.closing ?? closing) === closing;
    if (part.state === 'stopped' && unchanged) continue;
    if (part.state === 'streaming') {
      await stopStreamOrExpired(api, part, sameShare ? closing : '');
      if (sameShare && (part.state as SlackPart['state']) === 'stopped') continue;
    }
    if (share === '') {
      await api('chat.delete', { ts: part.ts });
      Object.assign(part, { markdown: '', opening: '', closing: '', state: 'posted', shown: '' });
      continue;
    }
    const shown = write(at, share);
    if (part.state === 'posted' && part.shown === shown) {
      Object.assign(part, { markdown: share, opening, closing });
      continue;
    }
    await api('chat.update', { ts: part.ts, text: shown, mrkdwn });
    Object.assign(part, { markdown: share, opening, closing, state: 'posted', shown });
  }
  ref.parts = ref.parts.filter((part) => !isDeleted(part));
  const rest = text.slice(offset);
  const pieces =
    ref.parts.length === 0 || rest !== ''
      ? postedPieces(rest, (piece, from) => write(offset + from, piece))
      : [];
  for (const piece of pieces) {
    if (ref.parts.length > 0)
      call.warn(
        'slack-posted-split',
        `Slack message ${edit.message} is over ${MAX_POSTED_CHARS} characters; it goes on in a new message.`,
      );
    const { opening, closing } = whole(offset, piece);
    const shown = write(offset, piece);
    offset += piece.length;
    const answer = await api('chat.postMessage', {
      text: shown,
      mrkdwn,
      ...(settings.threadTs === undefined ? {} : { thread_ts: settings.threadTs }),
    });
    ref.ts = tsOf(answer, 'chat.postMessage');
    ref.parts.push({
      ts: ref.ts,
      markdown: piece,
      opening,
      closing,
      state: 'posted',
      shown,
      startedAt: 0,
    });
  }
  ref.ts = ref.parts.at(-1)?.ts ?? ref.ts;
}

/**
 * `markdown` in pieces that each show at most 40,000 characters (`write` of a piece and where
 * it starts in `markdown`), cut after a line (else a space) near the limit; the same text
 * always gives the same pieces, so a retried call finds the parts it already wrote. Never
 * empty: `''` is one piece.
 */
function postedPieces(markdown: string, write: (piece: string, from: number) => string): string[] {
  const pieces: string[] = [];
  let from = 0;
  // Each round takes at least one character off the rest: bounded by its length.
  while (
    write(markdown.slice(from), from).length > MAX_POSTED_CHARS &&
    markdown.length - from > 1
  ) {
    const rest = markdown.slice(from);
    let limit = MAX_POSTED_CHARS;
    let piece = cutNear(rest, limit);
    while (write(piece, from).length > MAX_POSTED_CHARS && limit > 1)
      piece = cutNear(rest, (limit = Math.floor(limit * 0.9)));
    pieces.push(piece);
    from += piece.length;
  }
  pieces.push(markdown.slice(from));
  return pieces;
}

/** At most `limit` characters of `text`, ending after a newline or space in its last fifth. */
function cutNear(text: string, limit: number): string {
  let at = Math.min(limit, text.length);
  const code = text.charCodeAt(at - 1);
  if (at > 1 && code >= 0xd800 && code <= 0xdbff) at--;
  const head = text.slice(0, at);
  const floor = Math.floor(at * 0.8);
  const line = head.lastIndexOf('\n');
  if (line >= floor) return head.slice(0, line + 1);
  const space = head.lastIndexOf(' ');
  return space >= floor ? head.slice(0, space + 1) : head;
}

const isDeleted = (part: SlackPart) => part.state === 'posted' && part.shown === '';

/** Stops `part`'s stream, with `closing` when its share ends inside a code block. */
async function stopStreamOrExpired(api: Api, part: SlackPart, closing: string): Promise<void> {
  try {
    await stopStream(api, part, '', closing);
  } catch (error) {
    // A posted message was never a stream (Slack: message_not_found for stream methods); a
    // message that is truly gone fails the chat.update that follows.
    const code = slackErrorOf(error);
    const ended = code === 'message_not_in_streaming_state' || code === SLACK_STOPPED_BY_USER;
    if (!ended && code !== 'message_not_found') throw error;
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
