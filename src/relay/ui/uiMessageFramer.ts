import {
  type FinishEvent,
  type StreamEvent,
  type TerminalEvent,
  type Usage,
  type UsageEvent,
} from '../../events';
import { failedEvent, isTerminal, terminalForFinish, usageFields } from '../../terminalEvents';
import type { UIFinishReason, UIMessageChunk } from './uiMessageChunk';
import { reasoningMetadata } from './uiReasoningMetadata';
import { UIToolChunks, type EmitChunk } from './uiToolChunks';

export { UNFINISHED_TOOL_INPUT, type EmitChunk } from './uiToolChunks';

/** Options of the framer: those of `toUIMessageStream`. */
export interface UIMessageFramerOptions {
  messageId?: string;
  reasoning: 'send' | 'drop';
}

/** Events that begin model output: after a `finish`, they open the next step. */
const STEP_CONTENT = new Set<StreamEvent['type']>([
  'text-start',
  'text-delta',
  'reasoning-start',
  'reasoning-delta',
  'tool-input-start',
  'tool-call',
]);

/**
 * The pure core of `toUIMessageStream`: llm-rx events in, UI message chunks out, with the
 * framing `readUIMessageStream` / `useChat` require whatever the events did:
 * - `start` + `start-step` before anything else; a part's start chunk before its first delta,
 *   written on demand for a delta whose start it never saw (a stream resumed mid-part);
 * - every open text, reasoning or tool-input part ended before `finish`, `abort` or `error`;
 * - a `finish` followed by more model output (a multi-step run) ends the step there:
 *   `finish-step`, then `start-step` before the next part, as the AI SDK frames its steps;
 * - a `citation` with a `url` → one `source-url` per url (`sourceId` = the citation's `id`, else
 *   its url); opaque reasoning fields → `providerMetadata` on `reasoning-end`;
 * - nothing after the end; tool outputs only for tool calls the stream introduced.
 */
export class UIMessageFramer {
  private started = false;
  private ended = false;
  private readonly openText = new Set<string>();
  /** Text parts that streamed a delta: a `text-end.text` counts only for one that did not. */
  private readonly streamedText = new Set<string>();
  private readonly openReasoning = new Set<string>();
  private readonly tools = new UIToolChunks();
  /** Source ids already sent: a source cited twice is one part. */
  private readonly sources = new Set<string>();
  /** The wire the events were decoded from (`response-start`), for reasoning metadata. */
  private provider?: string;
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
      case 'tool-input-delta':
      case 'tool-call':
      case 'tool-start':
      case 'tool-update':
      case 'tool-end':
        return this.tools.push(event, emit);
      case 'citation': {
        const sourceId = event.id ?? event.url;
        if (event.url === undefined || sourceId === undefined || this.sources.has(sourceId)) return;
        this.sources.add(sourceId);
        return emit(
          event.title === undefined
            ? { type: 'source-url', sourceId, url: event.url }
            : { type: 'source-url', sourceId, url: event.url, title: event.title },
        );
      }
      case 'response-start':
        this.provider = event.provider;
        return;
      case 'finish':
        this.lastFinish = event;
        this.stepFinished = true;
        return;
      case 'usage':
        this.lastUsage = event;
        return;
      default:
        // warning, block, silent, progress: nothing a UI message shows.
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
      const providerMetadata = reasoningMetadata(this.provider, event);
      emit(
        providerMetadata
          ? { type: 'reasoning-end', id: event.id, providerMetadata }
          : { type: 'reasoning-end', id: event.id },
      );
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
    this.tools.endOpen(emit);
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
