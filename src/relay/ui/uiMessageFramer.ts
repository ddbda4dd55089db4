import {
  type FinishEvent,
  type StreamEvent,
  type TerminalEvent,
  type Usage,
  type UsageEvent,
} from '../../events';
import { failedEvent, isTerminal, terminalForFinish, usageFields } from '../../terminalEvents';
import type { UIFinishReason, UIMessageChunk } from './uiMessageChunk';

/** Where the framer puts the chunks it writes. */
export type EmitChunk = (chunk: UIMessageChunk) => void;

/** Options of the framer: those of `toUIMessageStream`. */
export interface UIMessageFramerOptions {
  messageId?: string;
  reasoning: 'send' | 'drop';
}

// `input` and `output` are required by the protocol's schema: a value JSON drops (undefined)
// goes out as null.

/** Events that begin model output: after a `finish`, they open the next step. */
const STEP_CONTENT = new Set<StreamEvent['type']>([
  'text-start',
  'text-delta',
  'reasoning-start',
  'reasoning-delta',
  'tool-input-start',
  'tool-call',
]);

/** What ends a tool input that never became a tool call. */
export const UNFINISHED_TOOL_INPUT =
  'The stream ended before the input of this tool call was complete.';

/**
 * The pure core of `toUIMessageStream`: llm-rx events in, UI message chunks out, with the
 * framing `readUIMessageStream` / `useChat` require whatever the events did:
 * - `start` + `start-step` before anything else; a part's start chunk before its first delta,
 *   written on demand for a delta whose start it never saw (a stream resumed mid-part);
 * - every open text, reasoning or tool-input part ended before `finish`, `abort` or `error`;
 * - a `finish` followed by more model output (a multi-step run) ends the step there:
 *   `finish-step`, then `start-step` before the next part, as the AI SDK frames its steps;
 * - nothing after the end; tool outputs only for tool calls the stream introduced.
 */
export class UIMessageFramer {
  private started = false;
  private ended = false;
  private readonly openText = new Set<string>();
  /** Text parts that streamed a delta: a `text-end.text` counts only for one that did not. */
  private readonly streamedText = new Set<string>();
  private readonly openReasoning = new Set<string>();
  /** Tool inputs started and not yet complete: id → tool name and input text so far. */
  private readonly openToolInputs = new Map<string, { name: string; text: string }>();
  /** Tool calls the stream introduced (a part exists for them on the client). */
  private readonly knownTools = new Set<string>();
  private lastFinish?: FinishEvent;
  private lastUsage?: UsageEvent;
  /** A `finish` went out and no part since: the next part begins a new step. */
  private stepFinished = false;

  constructor(private readonly options: UIMessageFramerOptions) {}

  /** True once `finish`, `abort` or `error` went out: nothing more will. */
  get isEnded(): boolean {
    return this.ended;
  }

  /** Writes the chunks one event stands for. */
  push(event: StreamEvent, emit: EmitChunk): void {
    if (this.ended) return;
    this.start(emit);
    if (isTerminal(event)) return this.finish(event, emit);
    if (this.stepFinished && STEP_CONTENT.has(event.type)) this.nextStep(emit);
    switch (event.type) {
      case 'text-start':
        return this.openTextPart(event.id, emit);
      case 'text-delta':
        this.openTextPart(event.id, emit);
        this.streamedText.add(event.id);
        return emit({ type: 'text-delta', id: event.id, delta: event.delta });
      case 'text-end':
        // The full text counts for a part that started here and streamed nothing; a part whose
        // start this stream never saw began before a resume point, and its text went out then.
        if (event.text && this.openText.has(event.id) && !this.streamedText.has(event.id)) {
          emit({ type: 'text-delta', id: event.id, delta: event.text });
        }
        this.streamedText.add(event.id);
        if (this.openText.delete(event.id)) emit({ type: 'text-end', id: event.id });
        return;
      case 'reasoning-start':
      case 'reasoning-delta':
      case 'reasoning-end':
        return this.reasoning(event, emit);
      case 'tool-input-start':
        if (this.knownTools.has(event.id)) return;
        this.knownTools.add(event.id);
        this.openToolInputs.set(event.id, { name: event.name, text: '' });
        return emit({ type: 'tool-input-start', toolCallId: event.id, toolName: event.name });
      case 'tool-input-delta': {
        // A delta of a tool input whose start this stream never saw (resumed) is skipped: the
        // tool call that completes it carries the whole input.
        const open = this.openToolInputs.get(event.id);
        if (!open) return;
        open.text += event.delta;
        return emit({
          type: 'tool-input-delta',
          toolCallId: event.id,
          inputTextDelta: event.delta,
        });
      }
      case 'tool-call':
        this.openToolInputs.delete(event.id);
        this.knownTools.add(event.id);
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
      case 'tool-start':
        if (this.knownTools.has(event.id) || event.name === undefined) return;
        this.knownTools.add(event.id);
        return emit({
          type: 'tool-input-available',
          toolCallId: event.id,
          toolName: event.name,
          input: event.args ?? null,
        });
      case 'tool-update':
        if (!this.knownTools.has(event.id) || event.output === undefined) return;
        return emit({
          type: 'tool-output-available',
          toolCallId: event.id,
          output: event.output,
          preliminary: true,
        });
      case 'tool-end':
        if (!this.knownTools.has(event.id)) {
          if (event.name === undefined) return;
          this.push({ type: 'tool-start', id: event.id, name: event.name }, emit);
        }
        return emit(
          event.isError
            ? {
                type: 'tool-output-error',
                toolCallId: event.id,
                errorText: errorTextOf(event.result),
              }
            : { type: 'tool-output-available', toolCallId: event.id, output: event.result ?? null },
        );
      case 'finish':
        this.lastFinish = event;
        this.stepFinished = true;
        return;
      case 'usage':
        this.lastUsage = event;
        return;
      default:
        // response-start, warning, block, silent: nothing a UI message shows.
        return;
    }
  }

  /** The source ended without a terminal: ends as ensureTerminal would have. */
  complete(emit: EmitChunk): void {
    if (this.ended) return;
    this.start(emit);
    this.finish(
      this.lastFinish
        ? terminalForFinish(this.lastFinish, this.lastUsage)
        : failedEvent('stream-closed', 'The stream ended without a terminal event.', true),
      emit,
    );
  }

  private start(emit: EmitChunk): void {
    if (this.started) return;
    this.started = true;
    const { messageId } = this.options;
    emit(messageId === undefined ? { type: 'start' } : { type: 'start', messageId });
    emit({ type: 'start-step' });
  }

  /** A step ended (a multi-step run, `fromAISdk`) and the model goes on: a step of its own. */
  private nextStep(emit: EmitChunk): void {
    this.stepFinished = false;
    this.endOpenParts(emit);
    emit({ type: 'finish-step' });
    emit({ type: 'start-step' });
  }

  private openTextPart(id: string, emit: EmitChunk): void {
    if (this.openText.has(id)) return;
    this.openText.add(id);
    emit({ type: 'text-start', id });
  }

  private reasoning(
    event: Extract<StreamEvent, { type: 'reasoning-start' | 'reasoning-delta' | 'reasoning-end' }>,
    emit: EmitChunk,
  ): void {
    if (this.options.reasoning === 'drop') return;
    if (!this.openReasoning.has(event.id)) {
      this.openReasoning.add(event.id);
      emit({ type: 'reasoning-start', id: event.id });
    }
    if (event.type === 'reasoning-delta') {
      emit({ type: 'reasoning-delta', id: event.id, delta: event.delta });
    } else if (event.type === 'reasoning-end') {
      this.openReasoning.delete(event.id);
      emit({ type: 'reasoning-end', id: event.id });
    }
  }

  private finish(terminal: TerminalEvent, emit: EmitChunk): void {
    this.endOpenParts(emit);
    emit({ type: 'finish-step' });
    this.ended = true;
    if (terminal.type === 'failed') {
      emit({ type: 'error', errorText: `${terminal.error.code}: ${terminal.error.message}` });
      return emit({ type: 'finish', finishReason: 'error' });
    }
    if (terminal.type === 'incomplete' && terminal.reason === 'aborted') {
      return emit({ type: 'abort', reason: terminal.message });
    }
    const usage = (terminal.type === 'completed' && terminal.usage) || this.usage();
    const finish: UIMessageChunk = {
      type: 'finish',
      finishReason: finishReasonOf(terminal, this.lastFinish),
    };
    if (usage) finish.messageMetadata = { usage };
    emit(finish);
  }

  private usage(): Usage | undefined {
    return this.lastUsage && usageFields(this.lastUsage);
  }

  private endOpenParts(emit: EmitChunk): void {
    for (const id of this.openText) emit({ type: 'text-end', id });
    this.openText.clear();
    for (const id of this.openReasoning) emit({ type: 'reasoning-end', id });
    this.openReasoning.clear();
    for (const [id, { name, text }] of this.openToolInputs) {
      emit({
        type: 'tool-input-error',
        toolCallId: id,
        toolName: name,
        input: text,
        errorText: UNFINISHED_TOOL_INPUT,
      });
    }
    this.openToolInputs.clear();
  }
}

function finishReasonOf(
  terminal: TerminalEvent,
  lastFinish: FinishEvent | undefined,
): UIFinishReason {
  if (terminal.type === 'completed') return terminal.finishReason ?? lastFinish?.reason ?? 'stop';
  if (terminal.type === 'incomplete') {
    return terminal.reason === 'length' || terminal.reason === 'content-filter'
      ? terminal.reason
      : 'other';
  }
  return 'error';
}

/** A tool's error result as the text a UI shows. */
function errorTextOf(result: unknown): string {
  if (typeof result === 'string') return result;
  if (result instanceof Error) return result.message;
  return result === undefined ? 'The tool failed.' : JSON.stringify(result);
}
