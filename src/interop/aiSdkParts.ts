import { type FinishEvent, type StreamEvent, type TerminalEvent } from '../events';
import { failedEvent, terminalForFinish } from '../terminalEvents';
import {
  failedOf,
  finishOf,
  isString,
  messageOf,
  toolCallOf,
  usageOf,
  type AISdkStreamPart,
  type KnownParts,
  type KnownReasoning,
  type KnownTool,
} from './aiSdkValues';

import {
  citationOfSource,
  gatherOpaque,
  providerToolEvent,
  type ReasoningOpaque,
} from './aiSdkProviderParts';

export type { AISdkStreamPart } from './aiSdkValues';

/** Parts that carry nothing llm-rx has an event for, by design (framing, debugging). */
const STRUCTURAL = new Set(['start', 'start-step', 'tool-input-end', 'raw', 'ping']);

/** Where the mapper puts the events of a part. */
export type EmitEvent = (event: StreamEvent) => void;

/**
 * The pure core of `fromAISdk`: one AI SDK part in, its llm-rx events out; `ended` once a
 * terminal went out. Reasoning parts get an `index` per part, in order of their start (the
 * same id seen again after its end, in a later step, is a new entry); tool calls an `index`
 * per call id. Text, reasoning and tool ids are kept as the AI SDK gave them.
 */
export class AISdkPartMapper {
  private ended = false;
  private reasoningIndex = 0;
  /** Open reasoning parts by id: their index and the opaque fields seen so far. */
  private readonly openReasoning = new Map<string, { index: number; opaque: ReasoningOpaque }>();
  private toolIndex = 0;
  /** Client tool calls seen, by id: the input text streamed so far. */
  private readonly tools = new Map<string, string>();
  /** Tools the provider ran itself, by call id: their names. */
  private readonly providerTools = new Map<string, string>();
  private readonly reported = new Set<string>();
  private lastFinish?: FinishEvent;

  /** True once the terminal went out: nothing more will. */
  get isEnded(): boolean {
    return this.ended;
  }

  /** Writes the events one part stands for. */
  push(part: AISdkStreamPart, emit: EmitEvent): void {
    if (this.ended) return;
    const known = part as { type: keyof KnownParts } & Record<string, unknown>;
    switch (known.type) {
      case 'text-start':
      case 'text-end':
        if (!isString(known.id)) return this.invalid(part, emit);
        return emit({ type: known.type, id: known.id });
      case 'text-delta':
        if (!isString(known.id) || !isString(known.text)) return this.invalid(part, emit);
        if (known.text !== '') emit({ type: 'text-delta', id: known.id, delta: known.text });
        return;
      case 'reasoning-start':
      case 'reasoning-delta':
      case 'reasoning-end':
        return this.reasoning(part as KnownReasoning, emit);
      case 'tool-input-start':
      case 'tool-input-delta':
      case 'tool-call':
      case 'tool-result':
      case 'tool-error':
      case 'tool-output-denied':
        return this.tool(part as KnownTool, emit);
      case 'finish-step':
        return this.finishStep(part as unknown as KnownParts['finish-step'], emit);
      case 'finish':
        return this.finish(part as unknown as KnownParts['finish'], emit);
      case 'abort': {
        const reason = (part as KnownParts['abort']).reason;
        return this.end(
          {
            type: 'incomplete',
            reason: 'aborted',
            message: isString(reason) && reason !== '' ? reason : 'The AI SDK stream was aborted.',
          },
          emit,
        );
      }
      case 'error':
        return this.end(failedOf((part as unknown as KnownParts['error']).error), emit);
      case 'source': {
        const citation = citationOfSource(part as unknown as Record<string, unknown>);
        return citation ? emit(citation) : this.invalid(part, emit);
      }
      default:
        if (STRUCTURAL.has(part.type)) return;
        return this.warnOnce(
          `event:${part.type}`,
          'unknown-event',
          `fromAISdk: the AI SDK part type "${part.type}" has no llm-rx event; skipped.`,
          emit,
        );
    }
  }

  /** The parts ended without `finish`, `abort` or `error`: as ensureTerminal would end it. */
  complete(emit: EmitEvent): void {
    if (this.ended) return;
    this.end(
      this.lastFinish
        ? terminalForFinish(this.lastFinish)
        : failedEvent('stream-closed', 'The AI SDK stream ended without a finish part.', true),
      emit,
    );
  }

  private reasoning(part: KnownReasoning, emit: EmitEvent): void {
    if (!isString(part.id)) return this.invalid(part, emit);
    let open = this.openReasoning.get(part.id);
    if (open === undefined) {
      open = { index: this.reasoningIndex++, opaque: {} };
      this.openReasoning.set(part.id, open);
      emit({ type: 'reasoning-start', id: part.id, index: open.index });
    }
    gatherOpaque(open.opaque, part.providerMetadata);
    const { index } = open;
    if (part.type === 'reasoning-delta') {
      if (!isString(part.text)) return this.invalid(part, emit);
      if (part.text !== '') {
        emit({ type: 'reasoning-delta', id: part.id, index, delta: part.text, kind: 'text' });
      }
    } else if (part.type === 'reasoning-end') {
      this.openReasoning.delete(part.id);
      emit({ type: 'reasoning-end', id: part.id, index, ...open.opaque });
    }
  }

  private tool(part: KnownTool, emit: EmitEvent): void {
    const id =
      part.type === 'tool-input-start' || part.type === 'tool-input-delta'
        ? part.id
        : part.toolCallId;
    if (!isString(id)) return this.invalid(part, emit);
    if (
      part.type !== 'tool-input-delta' &&
      part.type !== 'tool-output-denied' &&
      part.providerExecuted
    ) {
      this.providerTools.set(id, isString(part.toolName) ? part.toolName : 'unknown');
    }
    const providerTool = this.providerTools.get(id);
    if (providerTool !== undefined) {
      const event = providerToolEvent(part, id, providerTool);
      if (event) emit(event);
      return;
    }
    switch (part.type) {
      case 'tool-input-start':
        if (!isString(part.toolName)) return this.invalid(part, emit);
        return this.startTool(id, part.toolName, emit);
      case 'tool-input-delta':
        if (!isString(part.delta) || !this.tools.has(id)) return this.invalid(part, emit);
        this.tools.set(id, this.tools.get(id) + part.delta);
        return emit({ type: 'tool-input-delta', id, delta: part.delta });
      case 'tool-call':
        if (!isString(part.toolName)) return this.invalid(part, emit);
        this.startTool(id, part.toolName, emit);
        return emit(toolCallOf(part, this.tools.get(id) ?? ''));
      case 'tool-result':
        if (part.preliminary)
          return emit({ type: 'tool-update', id, name: part.toolName, output: part.output });
        return emit({ type: 'tool-end', id, name: part.toolName, result: part.output });
      case 'tool-error':
        return emit({
          type: 'tool-end',
          id,
          name: part.toolName,
          result: messageOf(part.error),
          isError: true,
        });
      case 'tool-output-denied':
        return emit({
          type: 'tool-end',
          id,
          name: part.toolName,
          result: 'The tool call was denied.',
          isError: true,
        });
    }
  }

  private startTool(id: string, name: string, emit: EmitEvent): void {
    if (this.tools.has(id)) return;
    this.tools.set(id, '');
    emit({ type: 'tool-input-start', id, name, index: this.toolIndex++ });
  }

  private finishStep(part: KnownParts['finish-step'], emit: EmitEvent): void {
    const finish = finishOf(part);
    if (finish) emit((this.lastFinish = finish));
  }

  private finish(part: KnownParts['finish'], emit: EmitEvent): void {
    const usage = usageOf(part.totalUsage);
    if (usage) emit(usage);
    if (part.finishReason === 'interrupted') {
      const message =
        'The provider stream ended without a completion signal; the answer may be cut.';
      return this.end(failedEvent('stream-closed', message, true), emit);
    }
    const finish = finishOf(part) ?? this.lastFinish;
    if (!finish) return this.invalid({ type: 'finish' }, emit);
    const last = this.lastFinish;
    if (!last || last.reason !== finish.reason) emit(finish);
    this.end(terminalForFinish(finish, usage), emit);
  }

  private end(terminal: TerminalEvent, emit: EmitEvent): void {
    for (const [id, { index, opaque }] of this.openReasoning)
      emit({ type: 'reasoning-end', id, index, ...opaque });
    this.openReasoning.clear();
    this.ended = true;
    emit(terminal);
  }

  private invalid(part: AISdkStreamPart, emit: EmitEvent): void {
    this.warnOnce(
      `invalid:${part.type}`,
      'invalid-event',
      `fromAISdk: a "${part.type}" part without the fields it needs; skipped.`,
      emit,
    );
  }

  private warnOnce(key: string, code: string, message: string, emit: EmitEvent): void {
    if (this.reported.has(key)) return;
    this.reported.add(key);
    emit({ type: 'warning', code, message });
  }
}
