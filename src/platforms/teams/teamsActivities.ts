import { teamsLimits } from './limits';

/** Teams' limit for one message's text, in characters (`platformLimits.msteams`). */
export const TEAMS_MAX_MESSAGE_CHARS = teamsLimits.maxMessageChars;

/**
 * `text` in chunks of at most 28,000 characters, cut at a line break or space where one is in
 * the second half; none for blank text. `lead` is the whitespace skipped before a chunk,
 * `consumed` all it covers.
 */
export function cutChunks(text: string): Array<{ text: string; lead: number; consumed: number }> {
  const chunks: Array<{ text: string; lead: number; consumed: number }> = [];
  let rest = text;
  while (rest.trim() !== '') {
    const lead = rest.length - rest.trimStart().length;
    rest = rest.slice(lead);
    let cut = rest.length;
    if (rest.length > TEAMS_MAX_MESSAGE_CHARS) {
      const window = rest.slice(0, TEAMS_MAX_MESSAGE_CHARS + 1);
      // A line break wins unless it leaves a short first chunk; then any space will do.
      const newline = window.lastIndexOf('\n');
      const space = newline > TEAMS_MAX_MESSAGE_CHARS / 2 ? newline : window.lastIndexOf(' ');
      cut = space > TEAMS_MAX_MESSAGE_CHARS / 2 ? space : TEAMS_MAX_MESSAGE_CHARS;
      // A hard cut never separates a surrogate pair.
      const code = rest.charCodeAt(cut - 1);
      if (cut === TEAMS_MAX_MESSAGE_CHARS && code >= 0xd800 && code <= 0xdbff) cut--;
    }
    // A chunk that is cut ends without the whitespace before the cut.
    const chunk = rest.slice(0, cut);
    chunks.push({ text: cut < rest.length ? chunk.trimEnd() : chunk, lead, consumed: lead + cut });
    rest = rest.slice(cut);
  }
  return chunks;
}

/** A plain `message` activity (markdown). */
export function messageActivity(text: string) {
  return { type: 'message', text, textFormat: 'markdown' };
}

/** A streaming update: `typing` with a `streaminfo` entity (and the same in `channelData`). */
export function typingActivity(text: string, sequence: number, streamId?: string) {
  const info = {
    ...(streamId ? { streamId } : {}),
    streamType: 'streaming',
    streamSequence: sequence,
  };
  return { type: 'typing', text, entities: [{ type: 'streaminfo', ...info }], channelData: info };
}

/**
 * An informative update: `typing` with `streamType: 'informative'` (Teams shows it as a progress
 * bar, not as the message's text), starting a stream (no `streamId`) or updating one.
 */
export function informativeActivity(text: string, sequence: number, streamId?: string) {
  const info = {
    ...(streamId ? { streamId } : {}),
    streamType: 'informative',
    streamSequence: sequence,
  };
  return { type: 'typing', text, entities: [{ type: 'streaminfo', ...info }], channelData: info };
}

/** The `message` that ends a stream: `streamType: 'final'`, no `streamSequence`. */
export function finalActivity(text: string, streamId: string) {
  const info = { streamId, streamType: 'final' };
  return {
    ...messageActivity(text),
    entities: [{ type: 'streaminfo', ...info }],
    channelData: info,
  };
}
