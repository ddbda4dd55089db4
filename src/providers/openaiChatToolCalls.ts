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
}

/** The tool calls of one openai-chat stream, merged by `index`. */
export type ToolCallAssembler = ReturnType<typeof createToolCallAssembler>;

/**
 * Merges `delta.tool_calls[]` fragments by `index` into `tool-input-start` /
 * `tool-input-delta`, and into one `tool-call` per call when `flush` is called (at finish).
 * Arguments that arrive before the name are held and sent as the first delta once the name
 * is known. A call without an id on the wire gets `${responseId}:tool:${index}`. Arguments
 * parse as in `toolCallEvent`: empty is `{}`, invalid JSON is `input: null` with `error`.
 */
export function createToolCallAssembler(baseId: string) {
  const calls = new Map<number, PendingToolCall>();

  function start(call: PendingToolCall, emit: Emit, beforeStart: () => void) {
    beforeStart();
    call.started = true;
    emit({ type: 'tool-input-start', id: call.id, name: call.name ?? '', index: call.index });
    if (call.inputText !== '')
      emit({ type: 'tool-input-delta', id: call.id, delta: call.inputText });
  }

  return {
    /** One fragment; `position` stands in for a missing `index`. */
    add(fragment: ToolCallFragment, position: number, emit: Emit, beforeStart: () => void) {
      const index = fragment.index ?? position;
      let call = calls.get(index);
      if (!call) {
        call = {
          index,
          id: fragment.id || `${baseId}:tool:${index}`,
          inputText: '',
          started: false,
        };
        calls.set(index, call);
      } else if (!call.started && fragment.id) {
        call.id = fragment.id;
      }
      const name = fragment.function?.name;
      if (name && call.name === undefined) call.name = name;
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
      for (const call of pending) {
        if (!call.started) start(call, emit, beforeStart);
        emit(finishedCall(call));
      }
    },

    /** Forgets pending calls without emitting them (the stream failed). */
    clear() {
      calls.clear();
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
  return event;
}
