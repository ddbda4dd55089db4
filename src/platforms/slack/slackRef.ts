// What a ledger keeps of a Slack chat message, and the transport's state rebuilt from it.

import type { SlackMessageState } from './slackMessage';

/**
 * The reference of a chat message delivered to Slack, plain JSON (a ledger keeps it): the `ts`
 * of the Slack message holding it, or — once its text went on in further Slack messages (a
 * stream continued for its age or size, a posted text split at 40,000 characters) — every part
 * in order, with the characters of the chat message's markdown each holds. `ts` is the newest.
 */
export type SlackRef = string | { ts: string; parts: SlackRefPart[] };

/** One Slack message of a chat message: its `ts` and how many characters of the text it holds. */
export interface SlackRefPart {
  ts: string;
  chars: number;
}

/** The ref of `state`: its `ts` alone while one Slack message holds it, else every part. */
export function refOf(state: SlackMessageState): SlackRef {
  if (state.parts.length <= 1) return state.ts;
  return {
    ts: state.ts,
    parts: state.parts.map((part) => ({ ts: part.ts, chars: part.markdown.length })),
  };
}

/**
 * The state of a chat message another transport delivered (a restart), from its ref and the
 * text it is to show: every part but the newest is taken to show its share of `text` (a
 * stopped stream or a posted message, left as it is when its share is unchanged); the newest
 * may be a stream the dead process left open (`streams`): it is stopped before its update.
 * `chat.update` writes from here on (`mode: 'update'`), splitting past 40,000 characters.
 */
export function restoredState(ref: SlackRef, text: string, streams: boolean): SlackMessageState {
  const parts = typeof ref === 'string' ? [{ ts: ref, chars: text.length }] : ref.parts;
  let offset = 0;
  return {
    ts: typeof ref === 'string' ? ref : ref.ts,
    mode: 'update',
    parts: parts.map((part, index) => {
      const newest = index === parts.length - 1;
      const markdown = text.slice(offset, (offset += part.chars));
      if (!newest) return { ts: part.ts, markdown, state: 'stopped', startedAt: 0 };
      // Its text is unknown (a call may have been in flight): never skipped, always updated.
      return { ts: part.ts, markdown: '', state: streams ? 'streaming' : 'posted', startedAt: 0 };
    }),
  };
}
