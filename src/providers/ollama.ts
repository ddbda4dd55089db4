import type { OperatorFunction } from 'rxjs';
import { type FinishEvent, type StreamEvent, type UsageEvent } from '../events';
import { terminalForFinish } from '../terminalEvents';
import { excerpt } from '../source/excerpt';
import { createWarnOnce, decoderOperator, type Emit, type WireDecoder } from './decoder';
import { KNOWN_MESSAGE_FIELDS, OllamaLine, type OllamaToolCall } from './ollamaWire';
import { toolCallEvent } from './toolCall';
import { readWire } from './wireSchema';

const PROVIDER = 'ollama';

/**
 * Ollama's native `/api/chat` NDJSON (values already parsed by `fromNdjson`) as a pure decoder;
 * see {@link decodeOllama}. Ollama sends no ids, so they are derived: text `ollama:text:<n>`,
 * reasoning `ollama:reasoning:<n>`, tool calls the wire `id` or `ollama:call:<n>`.
 */
export function createOllamaDecoder(): WireDecoder<unknown> {
  const warn = createWarnOnce();
  let started = false;
  let ended = false;
  let textOpen = false;
  let textIndex = -1;
  let reasoningIndex = -1;
  let reasoningOpen = false;
  let toolCallCount = 0;

  const endReasoning = (emit: Emit) => {
    if (!reasoningOpen) return;
    reasoningOpen = false;
    emit({ type: 'reasoning-end', id: reasoningId(reasoningIndex), index: reasoningIndex });
  };
  const endText = (emit: Emit) => {
    if (!textOpen) return;
    textOpen = false;
    emit({ type: 'text-end', id: `ollama:text:${textIndex}` });
  };
  const endOpenParts = (emit: Emit) => {
    endReasoning(emit);
    endText(emit);
  };

  const thinking = (emit: Emit, delta: string) => {
    if (!reasoningOpen) {
      // Thinking that resumes after text or a tool call is a new entry, with the next index.
      reasoningOpen = true;
      reasoningIndex++;
      emit({ type: 'reasoning-start', id: reasoningId(reasoningIndex), index: reasoningIndex });
    }
    emit({
      type: 'reasoning-delta',
      id: reasoningId(reasoningIndex),
      index: reasoningIndex,
      delta,
      kind: 'text',
    });
  };
  const text = (emit: Emit, delta: string) => {
    endReasoning(emit);
    if (!textOpen) {
      textOpen = true;
      textIndex++;
      emit({ type: 'text-start', id: `ollama:text:${textIndex}` });
    }
    emit({ type: 'text-delta', id: `ollama:text:${textIndex}`, delta });
  };
  const toolCall = (emit: Emit, call: OllamaToolCall) => {
    endReasoning(emit);
    endText(emit);
    const id = call.id || `ollama:call:${toolCallCount}`;
    const { name, index, arguments: input = {} } = call.function;
    emit({ type: 'tool-input-start', id, name, index: index ?? toolCallCount });
    toolCallCount++;
    // Arguments are an object on this wire; a server that sends a JSON string still works.
    if (typeof input === 'string') return emit(toolCallEvent(id, name, input));
    emit({ type: 'tool-call', id, name, input, inputText: JSON.stringify(input) });
  };

  const done = (emit: Emit, line: OllamaLine) => {
    endOpenParts(emit);
    const usage: UsageEvent = { type: 'usage' };
    if (line.prompt_eval_count != null) usage.inputTokens = line.prompt_eval_count;
    if (line.eval_count != null) usage.outputTokens = line.eval_count;
    if (usage.inputTokens !== undefined && usage.outputTokens !== undefined)
      usage.totalTokens = usage.inputTokens + usage.outputTokens;
    const hasUsage = Object.keys(usage).length > 1;
    if (hasUsage) emit(usage);
    const raw = line.done_reason ?? undefined;
    const finish: FinishEvent = { type: 'finish', reason: finishReasonOf(raw, toolCallCount) };
    if (raw) finish.raw = raw;
    emit(finish);
    ended = true;
    emit(terminalForFinish(finish, hasUsage ? usage : undefined));
  };

  return {
    next(value, emit) {
      if (ended) return;
      const line = readWire(OllamaLine, value, PROVIDER, 'chat');
      if (line.error !== undefined) {
        ended = true;
        endOpenParts(emit);
        return emit(ollamaFailed(line.error));
      }
      if (!started) {
        started = true;
        emit(
          line.model
            ? { type: 'response-start', provider: PROVIDER, model: line.model }
            : { type: 'response-start', provider: PROVIDER },
        );
      }
      const message = line.message;
      if (message) {
        for (const field in message) {
          if (!KNOWN_MESSAGE_FIELDS.has(field))
            warn(
              emit,
              'unknown-field',
              `message.${field}`,
              `Ollama message field "${field}" is not decoded; it was skipped.`,
            );
        }
        if (message.thinking) thinking(emit, message.thinking);
        if (message.content) text(emit, message.content);
        if (message.tool_calls) for (const call of message.tool_calls) toolCall(emit, call);
      }
      if (line.done) done(emit, line);
    },
    complete(emit) {
      if (!ended) endOpenParts(emit);
    },
  };
}

/**
 * Ollama `/api/chat` NDJSON values → StreamEvents. Pipe `fromNdjson` into it (or use
 * `streamEvents`, which picks it for `application/x-ndjson`).
 *
 * ```
 * lines:   {thinking}  {content}  {tool_calls:[…]}  {done:true,done_reason:"stop",eval_count…}
 * result:  (s R r)-----(e T t)----(E i c)-----------(u f x|)
 *          s response-start  R/r/e reasoning-start/delta/end  T/t/E text-start/delta/end
 *          i tool-input-start  c tool-call  u usage  f finish  x completed
 * ```
 *
 * - `message.thinking` → reasoning (kind `text`), `message.content` → text; empty strings start
 *   nothing. Reasoning ends when text or a tool call starts, text when a tool call starts;
 *   either resuming later is a new part (`ollama:text:1`, reasoning index 1).
 * - `message.tool_calls` come whole, arguments as an object: `tool-input-start` then `tool-call`
 *   (`inputText` is the arguments as JSON), no deltas.
 * - `done: true` → `usage` (`prompt_eval_count` → input, `eval_count` → output, their sum →
 *   total), `finish` from `done_reason` (`stop` → `stop`, or `tool-calls` when the reply called
 *   a tool; `length` → `length`; `load`, `unload` and others → `other`, raw kept), terminal.
 * - `{"error": "…"}` → `failed` code `provider-error` (not retryable: Ollama does not say why).
 *   A `message` field it does not know → one `warning` `unknown-field` per name. EOF without
 *   `done` → open parts end here and `ensureTerminal` says `stream-closed`.
 *
 * @example
 * ```ts
 * const response = await fetch('http://localhost:11434/api/chat', init);
 * fromNdjson(response).pipe(decodeOllama(), ensureTerminal()).subscribe(console.log);
 * ```
 */
export function decodeOllama(): OperatorFunction<unknown, StreamEvent> {
  return decoderOperator(createOllamaDecoder);
}

function reasoningId(index: number): string {
  return `ollama:reasoning:${index}`;
}

function finishReasonOf(raw: string | undefined, toolCallCount: number): FinishEvent['reason'] {
  if (raw === undefined || raw === 'stop') return toolCallCount > 0 ? 'tool-calls' : 'stop';
  return raw === 'length' ? 'length' : 'other';
}

function ollamaFailed(error: unknown): StreamEvent {
  const message =
    typeof error === 'string'
      ? error
      : `Ollama reported an error: ${excerpt(JSON.stringify(error))}`;
  return {
    type: 'failed',
    error: { code: 'provider-error', message, provider: PROVIDER, retryable: false },
  };
}
