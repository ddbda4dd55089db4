import type { ReasoningEndEvent, ReasoningKind } from '../events';
import type { Emit, WarnOnce } from './decoder';
import type { ChunkDelta, ReasoningDetail } from './openaiChatSchema';

/** What a reasoning entry collects until it ends: what `reasoning-end` carries. */
interface OpenReasoningEntry {
  id: string;
  index: number;
  signature?: string;
  redacted?: string[];
  format?: string;
}

/** The reasoning entries of one openai-chat stream: which are open, their ids and indices. */
export type ReasoningTracker = ReturnType<typeof createReasoningTracker>;

/**
 * Brackets reasoning entries with `reasoning-start` / `reasoning-end` by index, in wire order.
 * Ids are derived from the response id: `${responseId}:reasoning:${index}`, and an index that
 * opens again after it ended gets `:1`, `:2`, … so no two entries share an id.
 */
export function createReasoningTracker(baseId: string) {
  const open = new Map<number, OpenReasoningEntry>();
  const timesOpened = new Map<number, number>();
  let highestIndex = -1;
  let lastOpened: number | undefined;

  function ensureOpen(index: number, emit: Emit): OpenReasoningEntry {
    const existing = open.get(index);
    if (existing) return existing;
    const times = timesOpened.get(index) ?? 0;
    timesOpened.set(index, times + 1);
    const id =
      times === 0 ? `${baseId}:reasoning:${index}` : `${baseId}:reasoning:${index}:${times}`;
    const entry: OpenReasoningEntry = { id, index };
    open.set(index, entry);
    if (index > highestIndex) highestIndex = index;
    lastOpened = index;
    emit({ type: 'reasoning-start', id, index });
    return entry;
  }

  return {
    /** A piece of reasoning text for entry `index` (opening it when needed). */
    appendDelta(index: number, delta: string, kind: ReasoningKind, emit: Emit) {
      const entry = ensureOpen(index, emit);
      emit({ type: 'reasoning-delta', id: entry.id, index, delta, kind });
    },

    /**
     * Reasoning from a field without an index (`reasoning_content`, `reasoning`,
     * `reasoning_text`): it continues the entry opened last while that is open, else opens
     * the next unused index, so reasoning that resumes after text is a new entry.
     */
    appendPlain(delta: string, emit: Emit) {
      const index =
        lastOpened !== undefined && open.has(lastOpened) ? lastOpened : highestIndex + 1;
      this.appendDelta(index, delta, 'text', emit);
    },

    /** Encrypted reasoning: kept for `reasoning-end.redacted`, never shown as text. */
    addRedacted(index: number, data: string, emit: Emit) {
      const entry = ensureOpen(index, emit);
      (entry.redacted ??= []).push(data);
    },

    /** OpenRouter sends the signature as a detail of its own, with no text. */
    setSignature(index: number, signature: string, emit: Emit) {
      ensureOpen(index, emit).signature = signature;
    },

    /** The details' `format` (e.g. `anthropic-claude-v1`), for entries that are open. */
    setFormat(index: number, format: string) {
      const entry = open.get(index);
      if (entry) entry.format = format;
    },

    /** Ends every open entry, in the order they started. */
    endAll(emit: Emit) {
      if (open.size === 0) return;
      for (const entry of open.values()) {
        const end: ReasoningEndEvent = { type: 'reasoning-end', id: entry.id, index: entry.index };
        if (entry.signature !== undefined) end.signature = entry.signature;
        if (entry.redacted !== undefined) end.redacted = entry.redacted;
        if (entry.format !== undefined) end.format = entry.format;
        emit(end);
      }
      open.clear();
    },
  };
}

/**
 * Decodes the reasoning of one delta, whatever the field: every `reasoning_details` entry in
 * wire order with its own index, else the plain `reasoning_content` / `reasoning` /
 * `reasoning_text` strings. Empty strings start nothing.
 */
export function decodeReasoning(
  delta: ChunkDelta,
  tracker: ReasoningTracker,
  emit: Emit,
  warnOnce: WarnOnce,
): void {
  const details = delta.reasoning_details;
  let detailsCarryText = false;
  if (details) {
    details.forEach((detail, position) => {
      if (decodeDetail(detail, position, tracker, emit, warnOnce)) detailsCarryText = true;
    });
  }
  // OpenRouter repeats the details' text in `reasoning`: the details win, the copy is dropped.
  if (detailsCarryText) return;
  // vLLM sends `reasoning` and `reasoning_content` with the same text: emit it once.
  const { reasoning_content: content, reasoning: plain, reasoning_text: text } = delta;
  if (content) tracker.appendPlain(content, emit);
  if (plain && plain !== content) tracker.appendPlain(plain, emit);
  if (text && text !== content && text !== plain) tracker.appendPlain(text, emit);
}

/** Decodes one `reasoning_details` entry; true when it carried reasoning text. */
function decodeDetail(
  detail: ReasoningDetail,
  position: number,
  tracker: ReasoningTracker,
  emit: Emit,
  warnOnce: WarnOnce,
): boolean {
  const index = detail.index ?? position;
  let carriedText = false;
  switch (detail.type) {
    case 'reasoning.text':
      if (detail.text) {
        tracker.appendDelta(index, detail.text, 'text', emit);
        carriedText = true;
      }
      break;
    case 'reasoning.summary':
      if (detail.summary) {
        tracker.appendDelta(index, detail.summary, 'summary', emit);
        carriedText = true;
      }
      break;
    case 'reasoning.encrypted':
      if (detail.data) tracker.addRedacted(index, detail.data, emit);
      break;
    default:
      warnOnce(
        emit,
        'unknown-field',
        `reasoning_details.${detail.type}`,
        `The openai-chat decoder does not know the reasoning detail type "${detail.type}"; it was ignored.`,
        { field: 'reasoning_details', type: detail.type },
      );
      return false;
  }
  // OpenRouter sends the signature as an entry of its own, with no text.
  if (detail.signature) tracker.setSignature(index, detail.signature, emit);
  if (detail.format) tracker.setFormat(index, detail.format);
  return carriedText;
}
