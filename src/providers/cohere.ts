import type { OperatorFunction } from 'rxjs';
import type { CitationEvent, FinishEvent, StreamEvent } from '../events';
import { failedEvent, terminalForFinish } from '../terminalEvents';
import type { SseMessage } from '../source/fromSse';
import {
  COHERE_EVENT_TYPES,
  CohereCitationStart,
  CohereContentDelta,
  CohereContentStart,
  CohereMessageEnd,
  CohereMessageStart,
  CohereToolCall,
  CohereToolPlanDelta,
  cohereFinishReasonOf,
  cohereUsageOf,
} from './cohereWire';
import {
  createWarnOnce,
  decoderOperator,
  parseJsonPayload,
  type Emit,
  type WireDecoder,
} from './decoder';
import { toolCallEvent } from './toolCall';
import { readWire, wireTypeOf } from './wireSchema';

const PROVIDER = 'cohere';

/** An open content part, tool plan or tool call. */
type OpenPart =
  | { kind: 'text'; id: string }
  | { kind: 'reasoning'; id: string; index: number }
  | { kind: 'tool'; id: string; name: string; input: string };

/**
 * Cohere's v2 chat stream as a pure decoder; see {@link decodeCohere}. Ids derive from the
 * `message-start` id: text `<id>:text:<content index>`, reasoning `<id>:reasoning:<n>`, the
 * tool plan `<id>:tool-plan`; tool calls keep the wire id.
 */
export function createCohereDecoder(): WireDecoder<SseMessage> {
  const warn = createWarnOnce();
  let baseId = PROVIDER;
  let started = false;
  let ended = false;
  let reasoningCount = 0;
  const parts = new Map<string, OpenPart>();

  const start = (emit: Emit, id?: string | null) => {
    if (started) return;
    started = true;
    if (id) baseId = id;
    emit(
      id
        ? { type: 'response-start', provider: PROVIDER, id }
        : { type: 'response-start', provider: PROVIDER },
    );
  };
  const openReasoning = (key: string, id: string, emit: Emit): OpenPart => {
    const part: OpenPart = { kind: 'reasoning', id, index: reasoningCount++ };
    parts.set(key, part);
    emit({ type: 'reasoning-start', id, index: part.index });
    return part;
  };
  const openText = (key: string, id: string, emit: Emit): OpenPart => {
    const part: OpenPart = { kind: 'text', id };
    parts.set(key, part);
    emit({ type: 'text-start', id });
    return part;
  };
  const endPart = (key: string, emit: Emit) => {
    const part = parts.get(key);
    if (!part) return;
    parts.delete(key);
    if (part.kind === 'text') emit({ type: 'text-end', id: part.id });
    else if (part.kind === 'reasoning')
      emit({ type: 'reasoning-end', id: part.id, index: part.index });
    else emit(toolCallEvent(part.id, part.name, part.input));
  };
  const endAll = (emit: Emit, withToolCalls: boolean) => {
    for (const [key, part] of parts) {
      if (part.kind === 'tool' && !withToolCalls) parts.delete(key);
      else endPart(key, emit);
    }
  };
  const delta = (part: OpenPart, text: string, emit: Emit) => {
    if (text === '') return;
    if (part.kind === 'text') emit({ type: 'text-delta', id: part.id, delta: text });
    else if (part.kind === 'reasoning')
      emit({ type: 'reasoning-delta', id: part.id, index: part.index, delta: text, kind: 'text' });
  };

  const content = (type: string, payload: unknown, emit: Emit) => {
    const event = readWire(CohereContentStart, payload, PROVIDER, type);
    const key = `content:${event.index}`;
    const wire = event.delta?.message?.content;
    if (type === 'content-end') return endPart(key, emit);
    let part = parts.get(key);
    if (!part) {
      const partType = wire?.type ?? (wire?.thinking != null ? 'thinking' : 'text');
      if (partType !== 'text' && partType !== 'thinking') {
        const message = `Cohere content of type "${partType}" is not decoded; it was skipped.`;
        return warn(emit, 'unknown-field', `content.${partType}`, message);
      }
      endPart('tool-plan', emit);
      part =
        partType === 'thinking'
          ? openReasoning(key, `${baseId}:reasoning:${reasoningCount}`, emit)
          : openText(key, `${baseId}:text:${event.index}`, emit);
    }
    delta(part, (part.kind === 'text' ? wire?.text : wire?.thinking) ?? '', emit);
  };

  const toolCall = (type: string, payload: unknown, emit: Emit) => {
    const event = readWire(CohereToolCall, payload, PROVIDER, type);
    const key = `tool:${event.index}`;
    if (type === 'tool-call-end') return endPart(key, emit);
    const wire = event.delta?.message?.tool_calls;
    const existing = parts.get(key);
    if (type === 'tool-call-start' && !existing) {
      endPart('tool-plan', emit);
      const id = wire?.id || `${baseId}:tool:${event.index}`;
      const name = wire?.function?.name ?? '';
      parts.set(key, { kind: 'tool', id, name, input: '' });
      emit({ type: 'tool-input-start', id, name, index: event.index });
    }
    const part = parts.get(key);
    const fragment = wire?.function?.arguments ?? '';
    if (part?.kind !== 'tool' || fragment === '') return;
    part.input += fragment;
    emit({ type: 'tool-input-delta', id: part.id, delta: fragment });
  };

  const citation = (payload: unknown, emit: Emit) => {
    const wire = readWire(CohereCitationStart, payload, PROVIDER, 'citation-start').delta.message
      .citations;
    const sources = wire.sources?.length ? wire.sources : [undefined];
    for (const source of sources) {
      const event: CitationEvent = { type: 'citation' };
      const id = source?.document?.id ?? source?.id;
      if (id) event.id = id;
      if (source?.document?.url) event.url = source.document.url;
      if (source?.document?.title) event.title = source.document.title;
      if (wire.text != null) event.text = wire.text;
      if (wire.start != null) event.start = wire.start;
      if (wire.end != null) event.end = wire.end;
      emit(event);
    }
  };

  const messageEnd = (payload: unknown, emit: Emit) => {
    const end = readWire(CohereMessageEnd, payload, PROVIDER, 'message-end');
    endAll(emit, true);
    const usage = cohereUsageOf(end);
    if (usage) emit(usage);
    const raw = end.delta?.finish_reason ?? 'COMPLETE';
    const finish: FinishEvent = { type: 'finish', reason: cohereFinishReasonOf(raw), raw };
    emit(finish);
    ended = true;
    if (finish.reason !== 'error') return emit(terminalForFinish(finish, usage));
    const why = end.delta?.error ? `: ${end.delta.error}` : '.';
    emit(
      failedEvent('provider-error', `Cohere ended the response with ${raw}${why}`, true, {
        provider: PROVIDER,
      }),
    );
  };

  const decode = (type: string, payload: unknown, emit: Emit) => {
    switch (type) {
      case 'message-start':
        return start(emit, readWire(CohereMessageStart, payload, PROVIDER, type).id);
      case 'content-start':
      case 'content-delta':
      case 'content-end':
        return content(type, payload, emit);
      case 'tool-plan-delta': {
        const plan = readWire(CohereToolPlanDelta, payload, PROVIDER, type).delta.message.tool_plan;
        const part =
          parts.get('tool-plan') ?? openReasoning('tool-plan', `${baseId}:tool-plan`, emit);
        return delta(part, plan, emit);
      }
      case 'tool-call-start':
      case 'tool-call-delta':
      case 'tool-call-end':
        return toolCall(type, payload, emit);
      case 'citation-start':
        return citation(payload, emit);
      case 'message-end':
        return messageEnd(payload, emit);
      default:
        // `citation-end` closes a span citation-start reported whole; `debug` is for Cohere.
        if (COHERE_EVENT_TYPES.has(type)) return;
        warn(emit, 'unknown-event', type, `Cohere event "${type}" is not decoded; it was skipped.`);
    }
  };

  return {
    next(message, emit) {
      if (ended || message.data.trim() === '') return;
      const payload = parseJsonPayload(message.data, PROVIDER);
      const type = wireTypeOf(payload, PROVIDER, message.event);
      if (type !== 'message-start') start(emit);
      decode(type, payload, emit);
    },
    complete(emit) {
      if (!ended) endAll(emit, true);
    },
  };
}

/**
 * Decodes Cohere's v2 chat stream (`POST /v2/chat` with `stream: true`) from `fromSse`
 * messages into StreamEvents.
 *
 * ```
 * wire:    -S---P---C-------D---E---M|
 * events:  -a---(r)-(i)-----(j)-(c)-(u f x)|
 *   S = message-start  P = tool-plan-delta  C = tool-call-start  D = tool-call-delta
 *   E = tool-call-end  M = message-end {finish_reason:"TOOL_CALL"}
 *   a = response-start  r = reasoning-start + delta (the plan)  i = tool-input-start
 *   j = tool-input-delta  c = reasoning-end? + tool-call  u = usage  f = finish  x = completed
 * ```
 *
 * - `content-start` / `-delta` / `-end` of type `text` → text (`<id>:text:<index>`), of type
 *   `thinking` → reasoning (kind `text`). Other content types → one `unknown-field` warning.
 * - `tool-plan-delta` → reasoning (kind `text`, id `<id>:tool-plan`): it is the model's plan
 *   before it calls tools ("I will use the weather tool…"), not the answer, so it never
 *   reaches the text. It ends when a tool call or content starts.
 * - `tool-call-start` (id, name) / `-delta` (argument fragments) / `-end` → `tool-input-start`,
 *   `tool-input-delta`, then `tool-call` (invalid JSON → `input: null` + `error`).
 * - `citation-start` → one `citation` per source (`id`, and `url` / `title` of a document;
 *   `text`, `start`, `end` of the cited span); `citation-end` adds nothing.
 * - `message-end`: `usage` from `tokens` (`cached_tokens` → cachedInputTokens; `billed_units`
 *   is billing, not tokens, and is not reported), `finish` from `finish_reason` (COMPLETE and
 *   STOP_SEQUENCE → `stop`, MAX_TOKENS → `length`, TOOL_CALL → `tool-calls`, ERROR and
 *   TIMEOUT → `failed` `provider-error`, retryable, with Cohere's `error` text; others →
 *   `other`, raw kept), then the terminal.
 * - An event type it does not know → one `unknown-event` warning per type; `debug` is skipped.
 *   A payload that is not JSON or not of the expected shape throws `malformed-event`.
 *
 * @example
 * ```ts
 * // init: POST { stream: true, … } with `Accept: text/event-stream` (else Cohere sends NDJSON)
 * const response = await fetch('https://api.cohere.com/v2/chat', init);
 * fromSse(response).pipe(decodeCohere(), ensureTerminal()).subscribe(console.log);
 * ```
 */
export function decodeCohere(): OperatorFunction<SseMessage, StreamEvent> {
  return decoderOperator(createCohereDecoder);
}
