import type { Emit, WarnOnce } from './decoder';
import type { ChunkDelta, ContentPart } from './openaiChatSchema';

/** Where decoded content goes: visible text, or reasoning without an index of its own. */
export interface ContentSink {
  text(delta: string, emit: Emit): void;
  reasoning(delta: string, emit: Emit): void;
}

/**
 * Decodes `delta.content`: a plain string is text; an array of typed parts (Mistral's
 * magistral models) is read in order — `text` parts are text, `thinking` parts (a string or a
 * list of `{ type: "text", text }`) are reasoning. Any other part type is one `unknown-field`
 * warning per type per stream, and skipped. Empty strings start nothing.
 */
export function decodeContent(
  content: ChunkDelta['content'],
  sink: ContentSink,
  emit: Emit,
  warnOnce: WarnOnce,
): void {
  if (!content) return;
  if (typeof content === 'string') return sink.text(content, emit);
  for (const part of content) decodePart(part, sink, emit, warnOnce);
}

function decodePart(part: ContentPart, sink: ContentSink, emit: Emit, warnOnce: WarnOnce) {
  // A part without a type that carries text is read as text (the shape of a text part).
  const type = part.type ?? (typeof part.text === 'string' ? 'text' : 'unknown');
  if (type === 'text') {
    if (part.text) sink.text(part.text, emit);
    return;
  }
  if (type === 'thinking') {
    const thinking = part.thinking;
    if (typeof thinking === 'string') {
      if (thinking) sink.reasoning(thinking, emit);
      return;
    }
    for (const inner of thinking ?? []) {
      const innerType = inner.type ?? 'text';
      if (innerType === 'text') {
        if (inner.text) sink.reasoning(inner.text, emit);
      } else warnUnknownPart(`thinking.${innerType}`, emit, warnOnce);
    }
    return;
  }
  warnUnknownPart(type, emit, warnOnce);
}

function warnUnknownPart(type: string, emit: Emit, warnOnce: WarnOnce) {
  warnOnce(
    emit,
    'unknown-field',
    `delta.content.${type}`,
    `The openai-chat decoder does not know the content part type "${type}"; it was skipped.`,
    { field: 'delta.content', type },
  );
}
