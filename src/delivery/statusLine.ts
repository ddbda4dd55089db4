// The tool status line a preview shows under a message's text (Telegram drafts and edits,
// Discord): built from an edit's `progress`, never part of the final text.

import type { MessageEdit, ToolStatus } from '../channels/messageEditPlanner';

/** The longest status line shown; a longer one names fewer tools. */
export const STATUS_LINE_MAX_CHARS = 200;

const ICONS: Record<ToolStatus['status'], string> = { running: '⏳', done: '✓', error: '✗' };

/** Markdown's special characters in a tool's name, escaped so the line renders as written. */
const escapeMarkdown = (text: string) => text.replace(/[\\`*_[\]<>~|#]/g, (char) => `\\${char}`);

/**
 * The status line of `progress`: with text shown, the running tools only
 * (`⏳ web_search, fetch…`), none running → no line; with no text yet, every tool with its
 * icon, so an answer that starts with tools shows what they do. At most
 * {@link STATUS_LINE_MAX_CHARS} characters (`+2 more` names what does not fit). With
 * `markdown` (the default) the names are escaped for a markdown text; without, plain.
 */
export function statusLineOf(
  progress: ToolStatus[] | undefined,
  hasText: boolean,
  markdown = true,
): string {
  const escape = markdown ? escapeMarkdown : (text: string) => text;
  const shown = (progress ?? []).filter((tool) => !hasText || tool.status === 'running');
  if (shown.length === 0) return '';
  const names = shown.map((tool) =>
    escape(
      hasText ? (tool.title ?? tool.name) : `${ICONS[tool.status]} ${tool.title ?? tool.name}`,
    ),
  );
  const lead = hasText ? '⏳ ' : '';
  for (let count = names.length; count > 0; count--) {
    const rest = names.length - count;
    const line = `${lead}${names.slice(0, count).join(hasText ? ', ' : ' · ')}${rest ? ` +${rest} more` : ''}${hasText ? '…' : ''}`;
    if (line.length <= STATUS_LINE_MAX_CHARS) return line;
  }
  return `${lead}${names.length} tools${hasText ? '…' : ''}`.slice(0, STATUS_LINE_MAX_CHARS);
}

/**
 * `edit` as a preview shows it: its text, a blank line, the status line. The line is left out
 * when the text and it would pass `maxChars` (the text always fits as it would without it).
 * `rendered` is dropped, so the transport renders the previewed text itself.
 */
export function withStatusLine(edit: MessageEdit, maxChars: number): MessageEdit {
  const hasText = edit.text.trim() !== '';
  const line = statusLineOf(edit.progress, hasText);
  if (line === '') return edit;
  const text = hasText ? `${edit.text}\n\n${line}` : line;
  if (text.length > maxChars) return edit;
  return { ...withoutRendered(edit), text };
}

/**
 * `edit` without its rendering, for a preview whose text changed: the fields are copied one by
 * one, so a rendering made on demand (toMessageEdits' live edits) is not made for nothing.
 */
export function withoutRendered(edit: MessageEdit): MessageEdit {
  const { op, message, text, progress } = edit;
  return progress === undefined ? { op, message, text } : { op, message, text, progress };
}
