import {
  type CitationEvent,
  type FinishEvent,
  type FinishReason,
  type ReasoningKind,
  type StreamEvent,
  type StreamEventType,
  type TerminalEvent,
  type ToolCallEvent,
  type Usage,
  type UsageEvent,
  type WarningEvent,
} from '../events';
import { failedEvent, isTerminal, terminalForFinish, usageFields } from '../terminalEvents';

/** One reasoning entry of a turn: everything one `reasoning-start` … `reasoning-end` carried. */
export interface TurnReasoning {
  index: number;
  /** The kind of its first delta (`text` when it had none). */
  kind: ReasoningKind;
  text: string;
  signature?: string;
  /** Encrypted reasoning, in wire order: kept, never shown. */
  redacted?: string[];
  format?: string;
}

/** A complete tool call of a turn (a `tool-call` event without its tag). */
export type TurnToolCall = Omit<ToolCallEvent, 'type'>;

/** A source the turn's answer cites (a `citation` event without its tag). */
export type TurnCitation = Omit<CitationEvent, 'type'>;

/** How the turn ended: the type of its terminal event. */
export type TurnOutcome = TerminalEvent['type'];

/** A whole stream reduced to what a caller keeps of it: the outcome, the text, reasoning entries, tool calls and bookkeeping. */
export interface Turn {
  outcome: TurnOutcome;
  /** The terminal event itself: the `failed` error or the `incomplete` reason and message. */
  terminal: TerminalEvent;
  /** Every `text-delta` joined (a `text-end.text` counts only for a part that streamed none). */
  text: string;
  /** Reasoning entries in the order they started; the same index twice is two entries. */
  reasoning: TurnReasoning[];
  /** True when the turn carries reasoning and nothing else: no text, tool call or silent token. */
  reasoningOnly: boolean;
  toolCalls: TurnToolCall[];
  /** The sources the answer cites, in the order they arrived; present when there is one. */
  citations?: TurnCitation[];
  /** The silent token, when suppressSilent replaced the reply with one. */
  silent?: string;
  /** The last `finish` reason, or the one the terminal names. */
  finishReason?: FinishReason;
  /** The last `usage`, or the terminal's. */
  usage?: Usage;
  warnings: WarningEvent[];
  /** How many events of each type arrived, the terminal included. */
  counts: Partial<Record<StreamEventType, number>>;
}

/** Folds events into a Turn, without RxJS. `add` returns true once the terminal arrived. */
export interface TurnBuilder {
  add(event: StreamEvent): boolean;
  build(): Turn;
}

/**
 * The pure reducer behind `collectTurn`. When no terminal arrived, `build` gives the one
 * ensureTerminal would have: from the last `finish`, else `failed` `stream-closed`.
 */
export function createTurnBuilder(): TurnBuilder {
  let text = '';
  const textIdsStreamed = new Set<string>();
  const reasoning = new Map<string, TurnReasoning>();
  const reasoningKindFixed = new Set<string>();
  const toolCalls: TurnToolCall[] = [];
  const citations: TurnCitation[] = [];
  const warnings: WarningEvent[] = [];
  const counts: Partial<Record<StreamEventType, number>> = {};
  let silent: string | undefined;
  let finish: FinishEvent | undefined;
  let usage: UsageEvent | undefined;
  let terminal: TerminalEvent | undefined;

  const entryFor = (id: string, index: number): TurnReasoning => {
    let entry = reasoning.get(id);
    if (!entry) {
      entry = { index, kind: 'text', text: '' };
      reasoning.set(id, entry);
    }
    return entry;
  };

  return {
    add(event) {
      counts[event.type] = (counts[event.type] ?? 0) + 1;
      switch (event.type) {
        case 'text-delta':
          text += event.delta;
          textIdsStreamed.add(event.id);
          break;
        case 'text-end':
          if (event.text !== undefined && !textIdsStreamed.has(event.id)) text += event.text;
          break;
        case 'reasoning-start':
          entryFor(event.id, event.index);
          break;
        case 'reasoning-delta': {
          const entry = entryFor(event.id, event.index);
          if (!reasoningKindFixed.has(event.id)) {
            entry.kind = event.kind;
            reasoningKindFixed.add(event.id);
          }
          entry.text += event.delta;
          break;
        }
        case 'reasoning-end': {
          const entry = entryFor(event.id, event.index);
          if (event.signature !== undefined) entry.signature = event.signature;
          if (event.redacted !== undefined) entry.redacted = [...event.redacted];
          if (event.format !== undefined) entry.format = event.format;
          break;
        }
        case 'tool-call': {
          const { type: _type, ...call } = event;
          toolCalls.push(call);
          break;
        }
        case 'citation': {
          const { type: _type, ...citation } = event;
          citations.push(citation);
          break;
        }
        case 'silent':
          silent = event.token;
          break;
        case 'finish':
          finish = event;
          break;
        case 'usage':
          usage = event;
          break;
        case 'warning':
          warnings.push(event);
          break;
      }
      if (isTerminal(event) && terminal === undefined) terminal = event;
      return terminal !== undefined;
    },

    build() {
      const end = terminal ?? terminalWithout(finish, usage);
      const entries = [...reasoning.values()];
      const hasReasoning = entries.some(
        (entry) => entry.text.trim() !== '' || (entry.redacted?.length ?? 0) > 0,
      );
      const turn: Turn = {
        outcome: end.type,
        terminal: end,
        text,
        reasoning: entries,
        reasoningOnly:
          hasReasoning && text.trim() === '' && toolCalls.length === 0 && silent === undefined,
        toolCalls,
        warnings,
        counts,
      };
      if (citations.length > 0) turn.citations = [...citations];
      if (silent !== undefined) turn.silent = silent;
      const finishReason = (end.type === 'completed' && end.finishReason) || finish?.reason;
      if (finishReason) turn.finishReason = finishReason;
      const turnUsage = (end.type === 'completed' && end.usage) || (usage && usageFields(usage));
      if (turnUsage) turn.usage = turnUsage;
      return turn;
    },
  };
}

/** The terminal a stream that ended without one earns (the rule of ensureTerminal). */
function terminalWithout(
  finish: FinishEvent | undefined,
  usage: UsageEvent | undefined,
): TerminalEvent {
  if (finish) return terminalForFinish(finish, usage);
  return failedEvent(
    'stream-closed',
    'The stream ended without a terminal event or a finish reason.',
    true,
  );
}
