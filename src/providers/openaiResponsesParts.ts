import type { ReasoningKind } from '../events';
import type { Emit, WarnOnce } from './decoder';
import type { OutputItem } from './openaiResponsesWire';
import { missingSuffix, toolCallEvent } from './toolCall';
import {
  isServerToolItem,
  serverToolEnd,
  serverToolStart,
  type ServerToolItem,
} from './openaiResponsesServerTools';

interface OpenText {
  id: string;
  streamed: string;
}
interface OpenReasoning extends OpenText {
  itemId: string;
  index: number;
}
interface PendingToolCall {
  callId: string;
  name: string;
  streamed: string;
  done: boolean;
  /** A custom tool's input is free text: it is the input itself, never parsed as JSON. */
  freeText: boolean;
}

/** Client tool items: function calls, custom (free-text) tools, apply-patch operations. */
const CLIENT_TOOL_ITEMS = new Set(['function_call', 'custom_tool_call', 'apply_patch_call']);

/** The open text, reasoning and tool-call parts of one Responses stream. */
export type ResponsesParts = ReturnType<typeof createResponsesParts>;

/**
 * Bookkeeping for the parts of one Responses stream: at most one open text part and one open
 * reasoning entry (a new one ends the previous, so `sortByIndex` never waits), tool calls by
 * `item_id`. `*.done` events only add what the deltas did not carry.
 */
export function createResponsesParts(warn: WarnOnce) {
  let text: OpenText | undefined;
  let reasoning: OpenReasoning | undefined;
  const encryptedAtAdded = new Map<string, string>();
  const toolCalls = new Map<string, PendingToolCall>();
  let toolCallCount = 0;
  /** Reasoning text streamed per entry id, kept after the entry ended (for a late `.done`). */
  const reasoningStreamed = new Map<string, string>();
  /** Server tool items that started (`tool-start` went out). */
  const serverTools = new Set<string>();

  const endText = (emit: Emit, fullText?: string) => {
    if (!text) return;
    const { id } = text;
    text = undefined;
    emit(
      fullText === undefined ? { type: 'text-end', id } : { type: 'text-end', id, text: fullText },
    );
  };
  const endReasoning = (emit: Emit, redacted?: string | null) => {
    if (!reasoning) return;
    const { id, index } = reasoning;
    reasoning = undefined;
    emit(
      redacted
        ? { type: 'reasoning-end', id, index, redacted: [redacted] }
        : { type: 'reasoning-end', id, index },
    );
  };
  const finishToolCall = (emit: Emit, call: PendingToolCall, finalArguments?: string) => {
    if (call.done) return;
    call.done = true;
    const inputText = finalArguments ?? call.streamed;
    const rest = missingSuffix(call.streamed, inputText);
    if (rest !== '') emit({ type: 'tool-input-delta', id: call.callId, delta: rest });
    emit(
      call.freeText
        ? { type: 'tool-call', id: call.callId, name: call.name, input: inputText, inputText }
        : toolCallEvent(call.callId, call.name, inputText),
    );
  };
  const startToolCall = (emit: Emit, item: OutputItem, index: number) => {
    endReasoning(emit);
    endText(emit);
    const callId = item.call_id ?? item.id ?? `call:${index}`;
    const name = item.type === 'apply_patch_call' ? 'apply_patch' : (item.name ?? '');
    const freeText = item.type === 'custom_tool_call';
    const call = { callId, name, streamed: '', done: false, freeText };
    toolCalls.set(item.id ?? callId, call);
    toolCallCount++;
    emit({ type: 'tool-input-start', id: callId, name: call.name, index });
    return call;
  };
  /** Starts a server tool item once (its `done` may come without an `added`); its event id. */
  const startServerTool = (emit: Emit, item: OutputItem, index: number) => {
    const id = item.id ?? `${item.type}:${index}`;
    if (!serverTools.has(id)) {
      serverTools.add(id);
      emit(serverToolStart(item as ServerToolItem, id));
    }
    return id;
  };
  const toolCallOf = (emit: Emit, itemId: string, type: string) => {
    const call = toolCalls.get(itemId);
    if (!call) {
      const message = `OpenAI Responses sent "${type}" for a function call it never announced; skipped.`;
      warn(emit, 'unknown-event', `${type}:unannounced`, message);
    }
    return call;
  };
  const warnUnknownItem = (emit: Emit, type: string) =>
    warn(
      emit,
      'unknown-event',
      `item:${type}`,
      `OpenAI Responses output item type "${type}" is not decoded; it was skipped.`,
    );

  const parts = {
    /** How many client tool calls this response made so far. */
    toolCallCount: () => toolCallCount,

    textDelta(emit: Emit, id: string, delta: string) {
      if (delta === '') return;
      if (text?.id !== id) {
        endText(emit);
        endReasoning(emit);
        text = { id, streamed: '' };
        emit({ type: 'text-start', id });
      }
      text.streamed += delta;
      emit({ type: 'text-delta', id, delta });
    },

    /** `output_text.done`: a server that sends the text only here still delivers it. */
    textDone(emit: Emit, id: string, fullText: string) {
      parts.textDelta(
        emit,
        id,
        text?.id === id ? missingSuffix(text.streamed, fullText) : fullText,
      );
      if (text?.id === id) endText(emit, fullText);
    },

    reasoningDelta(emit: Emit, itemId: string, index: number, kind: ReasoningKind, delta: string) {
      if (delta === '') return;
      const id = reasoningId(itemId, index, kind);
      if (reasoning?.id !== id) {
        endReasoning(emit);
        reasoning = { id, itemId, index, streamed: '' };
        emit({ type: 'reasoning-start', id, index });
      }
      reasoning.streamed += delta;
      reasoningStreamed.set(id, (reasoningStreamed.get(id) ?? '') + delta);
      emit({ type: 'reasoning-delta', id, index, delta, kind });
    },

    /**
     * `reasoning_summary_text.done` / `reasoning_text.done`: only what the deltas missed, also
     * when the entry already ended (OpenRouter sends `reasoning_text.done` after the answer).
     */
    reasoningDone(emit: Emit, itemId: string, index: number, kind: ReasoningKind, full: string) {
      const id = reasoningId(itemId, index, kind);
      const streamed = reasoningStreamed.get(id);
      const rest = streamed === undefined ? full : missingSuffix(streamed, full);
      parts.reasoningDelta(emit, itemId, index, kind, rest);
    },

    itemAdded(emit: Emit, item: OutputItem, index: number) {
      if (CLIENT_TOOL_ITEMS.has(item.type)) startToolCall(emit, item, index);
      else if (isServerToolItem(item.type)) startServerTool(emit, item, index);
      else if (item.type === 'compaction') return;
      else if (item.type === 'reasoning') {
        if (item.encrypted_content && item.id)
          encryptedAtAdded.set(item.id, item.encrypted_content);
      } else if (item.type !== 'message') warnUnknownItem(emit, item.type);
    },

    itemDone(emit: Emit, item: OutputItem, index: number) {
      const itemId = item.id ?? '';
      if (item.type === 'reasoning') {
        // The final `encrypted_content` is the one on `.done`; `.added` may carry an earlier one.
        const encrypted = item.encrypted_content || encryptedAtAdded.get(itemId);
        encryptedAtAdded.delete(itemId);
        if (reasoning?.itemId === itemId) return endReasoning(emit, encrypted);
        if (!encrypted) return;
        // Encrypted reasoning without summary text still travels, on an entry of its own.
        endReasoning(emit);
        const id = `${itemId}:encrypted`;
        emit({ type: 'reasoning-start', id, index: 0 });
        emit({ type: 'reasoning-end', id, index: 0, redacted: [encrypted] });
      } else if (item.type === 'message') {
        endText(emit);
      } else if (CLIENT_TOOL_ITEMS.has(item.type)) {
        const call = toolCalls.get(itemId) ?? startToolCall(emit, item, index);
        finishToolCall(emit, call, finalInputOf(item));
      } else if (isServerToolItem(item.type)) {
        const id = startServerTool(emit, item, index);
        emit(serverToolEnd(item as ServerToolItem, id));
      } else if (item.type === 'compaction') {
        // Compacted earlier turns: opaque, kept like encrypted reasoning, never shown.
        if (!item.encrypted_content) return;
        endReasoning(emit);
        const id = `${itemId}:compaction`;
        emit({ type: 'reasoning-start', id, index: 0 });
        emit({
          type: 'reasoning-end',
          id,
          index: 0,
          redacted: [item.encrypted_content],
          format: 'openai-compaction',
        });
      } else warnUnknownItem(emit, item.type);
    },

    argumentsDelta(emit: Emit, itemId: string, delta: string, type: string) {
      const call = toolCallOf(emit, itemId, type);
      if (!call || call.done || delta === '') return;
      call.streamed += delta;
      emit({ type: 'tool-input-delta', id: call.callId, delta });
    },

    argumentsDone(emit: Emit, itemId: string, finalArguments: string, type: string) {
      const call = toolCallOf(emit, itemId, type);
      if (call) finishToolCall(emit, call, finalArguments);
    },

    /**
     * Ends open text and reasoning. Unfinished tool calls become `tool-call`s only when the
     * response finished (`completed` / `incomplete`); after a failure or a cut-off body they
     * are dropped, since half a call must not run (their deltas were already delivered).
     */
    endAll(emit: Emit, finishToolCalls: boolean) {
      endText(emit);
      endReasoning(emit);
      if (finishToolCalls) for (const call of toolCalls.values()) finishToolCall(emit, call);
    },
  };
  return parts;
}

/**
 * The whole input a finished client tool item carries: function `arguments`, a custom tool's
 * free-text `input`, an apply-patch `operation` (as JSON).
 */
function finalInputOf(item: OutputItem): string | undefined {
  if (item.type === 'custom_tool_call') return item.input ?? undefined;
  if (item.type === 'apply_patch_call')
    return item.operation === undefined ? undefined : JSON.stringify(item.operation);
  return item.arguments;
}

/** `item:summary_index` for a summary part, `item:text:content_index` for full reasoning text. */
function reasoningId(itemId: string, index: number, kind: ReasoningKind): string {
  return kind === 'summary' ? `${itemId}:${index}` : `${itemId}:text:${index}`;
}
