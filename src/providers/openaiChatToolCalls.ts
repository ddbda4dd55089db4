import type { ToolCallEvent } from '../events';
import type { Emit } from './decoder';
import type { ToolCallFragment } from './openaiChatSchema';
import { toolCallEvent } from './toolCall';

/** A tool call being assembled from its fragments. */
interface PendingToolCall {
  index: number;
  id: string;
  name?: string;
  /** Every argument fragment so far, including those that came before the name. */
  inputText: string;
  started: boolean;
  /** True when `id` came from the wire (not derived from the response id). */
  hasWireId: boolean;
  /** Gemini's `extra_content.google.thought_signature`, kept for the `tool-call`. */
  signature?: string;
}

/** The tool calls of one openai-chat stream, merged by `index` and told apart by `id`. */
export type ToolCallAssembler = ReturnType<typeof createToolCallAssembler>;

/**
 * Merges `delta.tool_calls[]` fragments into `tool-input-start` / `tool-input-delta`, and into
 * one `tool-call` per call when `flush` is called (at finish). Arguments that arrive before the
 * name are held and sent as the first delta once the name is known.
 *
 * Which call a fragment belongs to: a fragment whose `id` is already known continues that
 * call. A fragment with a new `id` starts a new call when it has no `index` (Gemini's
 * OpenAI-compatible endpoint sends each call whole, without `index`) or when the call at its
 * `index` already carries another id (Ollama `/v1` sends every call at index 0, each with its
 * own id). Anything else continues the latest call at its `index` (`position` in the list
 * when `index` is missing), as OpenAI's fragments repeat no id. A new call takes its wire
 * index when no call used it yet, else the next index after the highest in use, so calls keep
 * distinct indices in wire order. A call without an id gets `${responseId}:tool:${index}`.
 * Arguments parse as in `toolCallEvent`: empty is `{}`, invalid JSON is `input: null` + `error`.
 */
export function createToolCallAssembler(baseId: string) {
  /** Every call by its own index, for `flush`. */
  const calls = new Map<number, PendingToolCall>();
  /** The latest call at each wire index (or list position). */
  const latestAt = new Map<number, PendingToolCall>();
  const byWireId = new Map<string, PendingToolCall>();
  let highestIndex = -1;

  function start(call: PendingToolCall, emit: Emit, beforeStart: () => void) {
    beforeStart();
    call.started = true;
    emit({ type: 'tool-input-start', id: call.id, name: call.name ?? '', index: call.index });
    if (call.inputText !== '')
      emit({ type: 'tool-input-delta', id: call.id, delta: call.inputText });
  }

  function open(key: number, wireId: string | null | undefined): PendingToolCall {
    const index = calls.has(key) ? highestIndex + 1 : key;
    highestIndex = Math.max(highestIndex, index);
    const call: PendingToolCall = {
      index,
      id: wireId || `${baseId}:tool:${index}`,
      inputText: '',
      started: false,
      hasWireId: Boolean(wireId),
    };
    if (wireId) byWireId.set(wireId, call);
    calls.set(index, call);
    latestAt.set(key, call);
    return call;
  }

  /** The call a fragment continues, or a new one. */
  function callFor(fragment: ToolCallFragment, position: number): PendingToolCall {
    const wireId = fragment.id || undefined;
    const known = wireId === undefined ? undefined : byWireId.get(wireId);
    if (known) return known;
    const key = fragment.index ?? position;
    const latest = latestAt.get(key);
    if (!latest) return open(key, wireId);
    if (wireId === undefined) return latest;
    if (fragment.index == null || latest.hasWireId) return open(key, wireId);
    // The call at this index had no id yet: the id arrived late (kept when not yet started).
    if (!latest.started) {
      latest.id = wireId;
      latest.hasWireId = true;
      byWireId.set(wireId, latest);
    }
    return latest;
  }

  return {
    /** One fragment; `position` (its place in `tool_calls[]`) stands in for a missing `index`. */
    add(fragment: ToolCallFragment, position: number, emit: Emit, beforeStart: () => void) {
      const call = callFor(fragment, position);
      const name = fragment.function?.name;
      if (name && call.name === undefined) call.name = name;
      const signature = fragment.extra_content?.google?.thought_signature;
      if (signature) call.signature = signature;
      const args = fragment.function?.arguments ?? '';
      if (call.started) {
        if (args === '') return;
        call.inputText += args;
        emit({ type: 'tool-input-delta', id: call.id, delta: args });
        return;
      }
      call.inputText += args;
      if (call.name !== undefined) start(call, emit, beforeStart);
    },

    /** Emits one `tool-call` per pending call, in index order, and forgets them. */
    flush(emit: Emit, beforeStart: () => void) {
      if (calls.size === 0) return;
      const pending = [...calls.values()].sort((a, b) => a.index - b.index);
      calls.clear();
      latestAt.clear();
      byWireId.clear();
      for (const call of pending) {
        if (!call.started) start(call, emit, beforeStart);
        emit(finishedCall(call));
      }
    },

    /** Forgets pending calls without emitting them (the stream failed). */
    clear() {
      calls.clear();
      latestAt.clear();
      byWireId.clear();
    },
  };
}

/** The finished call; a call whose name never arrived is still reported, with `error`. */
function finishedCall(call: PendingToolCall): ToolCallEvent {
  const event = toolCallEvent(call.id, call.name ?? '', call.inputText);
  if (call.name === undefined) {
    const missingName = `Tool call ${call.id}: the provider never sent the tool name.`;
    event.error = event.error ? `${missingName} ${event.error}` : missingName;
  }
  if (call.signature) event.signature = call.signature;
  return event;
}
