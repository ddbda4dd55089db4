import type { StreamEvent } from '../../events';
import type { UIMessageChunk } from './uiMessageChunk';

/** Where the framer puts the chunks it writes. */
export type EmitChunk = (chunk: UIMessageChunk) => void;

/** The tool events of a stream, by type. */
export type ToolEvent = Extract<
  StreamEvent,
  {
    type:
      | 'tool-input-start'
      | 'tool-input-delta'
      | 'tool-call'
      | 'tool-start'
      | 'tool-update'
      | 'tool-end';
  }
>;

/** What ends a tool input that never became a tool call. */
export const UNFINISHED_TOOL_INPUT =
  'The stream ended before the input of this tool call was complete.';

// `input` and `output` are required by the protocol's schema: a value JSON drops (undefined)
// goes out as null.

/**
 * The tool parts of one UI message: client tool input (start, deltas, the call or its input
 * error), tools the host runs (`tool-start` / `tool-update` / `tool-end`) and tools the provider
 * ran itself (the same events with `providerExecuted`, which their chunks carry too, so
 * `useChat` never calls `onToolCall` for them). Outputs only for tools the stream introduced.
 */
export class UIToolChunks {
  /** Tool inputs started and not yet complete: id → tool name and input text so far. */
  private readonly openInputs = new Map<string, { name: string; text: string }>();
  /** Tool calls the stream introduced (a part exists for them on the client). */
  private readonly known = new Set<string>();

  /** Writes the chunks of one tool event. */
  push(event: ToolEvent, emit: EmitChunk): void {
    switch (event.type) {
      case 'tool-input-start':
        if (this.known.has(event.id)) return;
        this.known.add(event.id);
        this.openInputs.set(event.id, { name: event.name, text: '' });
        return emit({ type: 'tool-input-start', toolCallId: event.id, toolName: event.name });
      case 'tool-input-delta': {
        // A delta of a tool input whose start this stream never saw (resumed) is skipped: the
        // tool call that completes it carries the whole input.
        const open = this.openInputs.get(event.id);
        if (!open) return;
        open.text += event.delta;
        return emit({
          type: 'tool-input-delta',
          toolCallId: event.id,
          inputTextDelta: event.delta,
        });
      }
      case 'tool-call':
        this.openInputs.delete(event.id);
        this.known.add(event.id);
        return emit(
          event.error === undefined
            ? {
                type: 'tool-input-available',
                toolCallId: event.id,
                toolName: event.name,
                input: event.input ?? null,
              }
            : {
                type: 'tool-input-error',
                toolCallId: event.id,
                toolName: event.name,
                input: event.inputText,
                errorText: event.error,
              },
        );
      case 'tool-start': {
        if (this.known.has(event.id) || event.name === undefined) return;
        this.known.add(event.id);
        const chunk: UIMessageChunk = {
          type: 'tool-input-available',
          toolCallId: event.id,
          toolName: event.name,
          input: event.args ?? null,
        };
        if (event.providerExecuted) chunk.providerExecuted = true;
        return emit(chunk);
      }
      case 'tool-update':
        if (!this.known.has(event.id) || event.output === undefined) return;
        return emit({
          type: 'tool-output-available',
          toolCallId: event.id,
          output: event.output,
          preliminary: true,
        });
      case 'tool-end': {
        if (!this.known.has(event.id)) {
          if (event.name === undefined) return;
          const start: ToolEvent = { type: 'tool-start', id: event.id, name: event.name };
          if (event.providerExecuted) start.providerExecuted = true;
          this.push(start, emit);
        }
        const chunk: UIMessageChunk = event.isError
          ? {
              type: 'tool-output-error',
              toolCallId: event.id,
              errorText: errorTextOf(event.result),
            }
          : { type: 'tool-output-available', toolCallId: event.id, output: event.result ?? null };
        if (event.providerExecuted) chunk.providerExecuted = true;
        return emit(chunk);
      }
    }
  }

  /** Before the message ends: a tool input that never became a tool call is an input error. */
  endOpen(emit: EmitChunk): void {
    for (const [id, { name, text }] of this.openInputs) {
      emit({
        type: 'tool-input-error',
        toolCallId: id,
        toolName: name,
        input: text,
        errorText: UNFINISHED_TOOL_INPUT,
      });
    }
    this.openInputs.clear();
  }
}

/** A tool's error result as the text a UI shows. */
function errorTextOf(result: unknown): string {
  if (typeof result === 'string') return result;
  if (result instanceof Error) return result.message;
  return result === undefined ? 'The tool failed.' : JSON.stringify(result);
}
