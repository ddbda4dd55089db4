import type { OperatorFunction } from 'rxjs';
import { type FinishEvent, type StreamEvent, type TerminalEvent, type UsageEvent } from '../events';
import { terminalForFinish } from '../terminalEvents';
import type { SseMessage } from '../source/fromSse';
import {
  createWarnOnce,
  decoderOperator,
  parseJsonPayload,
  type Emit,
  type WireDecoder,
} from './decoder';
import { createResponsesParts } from './openaiResponsesParts';
import {
  ArgumentsDoneEvent,
  ContentDeltaEvent,
  ContentDoneEvent,
  CustomInputDoneEvent,
  OutputItemEvent,
  RefusalDoneEvent,
  ResponseLifecycleEvent,
  ResponsesErrorEvent,
  SummaryDeltaEvent,
  SummaryDoneEvent,
  NOTHING_TO_READ,
  createSequenceCheck,
  incompleteFinishReason,
  responsesFailed,
  responsesUsageEvent,
  type ResponsesUsage,
} from './openaiResponsesWire';
import { readWire, wireTypeOf } from './wireSchema';
import {
  AnnotationAddedEvent,
  PartialImageEvent,
  partialImageUpdate,
  responsesCitation,
} from './openaiResponsesServerTools';

const PROVIDER = 'openai-responses';

/**
 * The OpenAI Responses wire (OpenAI, Azure, LM Studio, Ollama `/v1/responses`) as a pure
 * decoder; see {@link decodeOpenAIResponses}. Ids come from the wire: text `item_id`
 * (`item_id:content_index` past index 0), reasoning `item_id:summary_index` (summary) or
 * `item_id:text:content_index` (full reasoning text), tool calls `call_id`.
 */
export function createOpenAIResponsesDecoder(): WireDecoder<SseMessage> {
  const warn = createWarnOnce();
  const parts = createResponsesParts(warn);
  let started = false;
  let ended = false;
  const checkSequence = createSequenceCheck();

  /** Ends the open parts, reports usage, emits the terminal; nothing is decoded after it. */
  const endWith = (
    emit: Emit,
    usage: ResponsesUsage | null | undefined,
    finishToolCalls: boolean,
    terminal: (usage: UsageEvent | undefined) => TerminalEvent,
  ) => {
    parts.endAll(emit, finishToolCalls);
    const usageEvent = responsesUsageEvent(usage);
    if (usageEvent) emit(usageEvent);
    ended = true;
    emit(terminal(usageEvent));
  };

  const decode = (type: string, payload: unknown, emit: Emit) => {
    switch (type) {
      case 'response.created':
      case 'response.in_progress':
      case 'response.queued': {
        if (started) return;
        started = true;
        const { response } = readWire(ResponseLifecycleEvent, payload, PROVIDER, type);
        const start: StreamEvent = { type: 'response-start', provider: PROVIDER };
        if (response.id) start.id = response.id;
        if (response.model) start.model = response.model;
        return emit(start);
      }
      case 'response.output_item.added':
      case 'response.output_item.done': {
        const { item, output_index: index = 0 } = readWire(
          OutputItemEvent,
          payload,
          PROVIDER,
          type,
        );
        if (type === 'response.output_item.added') return parts.itemAdded(emit, item, index);
        return parts.itemDone(emit, item, index);
      }
      // A refusal is what the model says instead of an answer: shown as text, as in chat.
      case 'response.output_text.delta':
      case 'response.refusal.delta': {
        const event = readWire(ContentDeltaEvent, payload, PROVIDER, type);
        return parts.textDelta(emit, textId(event.item_id, event.content_index), event.delta);
      }
      case 'response.output_text.done': {
        const event = readWire(ContentDoneEvent, payload, PROVIDER, type);
        return parts.textDone(emit, textId(event.item_id, event.content_index), event.text);
      }
      case 'response.refusal.done': {
        const event = readWire(RefusalDoneEvent, payload, PROVIDER, type);
        return parts.textDone(emit, textId(event.item_id, event.content_index), event.refusal);
      }
      case 'response.reasoning_summary_text.delta': {
        const event = readWire(SummaryDeltaEvent, payload, PROVIDER, type);
        const { item_id: itemId, summary_index: index, delta } = event;
        return parts.reasoningDelta(emit, itemId, index, 'summary', delta);
      }
      case 'response.reasoning_summary_text.done': {
        const event = readWire(SummaryDoneEvent, payload, PROVIDER, type);
        return parts.reasoningDone(emit, event.item_id, event.summary_index, 'summary', event.text);
      }
      case 'response.reasoning_text.delta': {
        const event = readWire(ContentDeltaEvent, payload, PROVIDER, type);
        const { item_id: itemId, content_index: index = 0, delta } = event;
        return parts.reasoningDelta(emit, itemId, index, 'text', delta);
      }
      case 'response.reasoning_text.done': {
        const event = readWire(ContentDoneEvent, payload, PROVIDER, type);
        const { item_id: itemId, content_index: index = 0, text } = event;
        return parts.reasoningDone(emit, itemId, index, 'text', text);
      }
      case 'response.output_text.annotation.added': {
        const { annotation } = readWire(AnnotationAddedEvent, payload, PROVIDER, type);
        const citation = responsesCitation(annotation);
        if (citation) return emit(citation);
        return warn(
          emit,
          'unknown-event',
          `annotation:${annotation.type}`,
          `OpenAI Responses annotation type "${annotation.type}" names no source; it was skipped.`,
        );
      }
      case 'response.image_generation_call.partial_image':
        return emit(partialImageUpdate(readWire(PartialImageEvent, payload, PROVIDER, type)));
      case 'response.custom_tool_call_input.delta':
      case 'response.function_call_arguments.delta': {
        const event = readWire(ContentDeltaEvent, payload, PROVIDER, type);
        return parts.argumentsDelta(emit, event.item_id, event.delta, type);
      }
      case 'response.function_call_arguments.done': {
        const event = readWire(ArgumentsDoneEvent, payload, PROVIDER, type);
        return parts.argumentsDone(emit, event.item_id, event.arguments, type);
      }
      case 'response.custom_tool_call_input.done': {
        const event = readWire(CustomInputDoneEvent, payload, PROVIDER, type);
        return parts.argumentsDone(emit, event.item_id, event.input, type);
      }
      case 'response.completed': {
        const { response } = readWire(ResponseLifecycleEvent, payload, PROVIDER, type);
        return endWith(emit, response.usage, true, (usage) => {
          const reason = parts.toolCallCount() > 0 ? 'tool-calls' : 'stop';
          const finish: FinishEvent = { type: 'finish', reason };
          emit(finish);
          return terminalForFinish(finish, usage);
        });
      }
      case 'response.incomplete': {
        const { response } = readWire(ResponseLifecycleEvent, payload, PROVIDER, type);
        const raw = response.incomplete_details?.reason ?? 'unknown';
        return endWith(emit, response.usage, true, () => {
          const finish: FinishEvent = { type: 'finish', reason: incompleteFinishReason(raw), raw };
          emit(finish);
          if (finish.reason !== 'other') return terminalForFinish(finish);
          return {
            type: 'incomplete',
            reason: raw,
            message: `The response ended incomplete (${raw}).`,
          };
        });
      }
      case 'response.failed': {
        const { response } = readWire(ResponseLifecycleEvent, payload, PROVIDER, type);
        const { code, message } = response.error ?? {};
        return endWith(emit, response.usage, false, () => responsesFailed(code, message));
      }
      case 'error': {
        // `error` comes before `response.failed`: fail here; what follows is not decoded.
        const event = readWire(ResponsesErrorEvent, payload, PROVIDER, type);
        const code = event.error?.code ?? event.error?.type ?? event.code;
        const message = event.error?.message ?? event.message;
        return endWith(emit, undefined, false, () => responsesFailed(code, message));
      }
      default:
        if (NOTHING_TO_READ.has(type)) return;
        warn(
          emit,
          'unknown-event',
          type,
          `OpenAI Responses event "${type}" is not decoded; it was skipped.`,
        );
    }
  };

  return {
    next(message, emit) {
      if (ended) return;
      const payload = parseJsonPayload(message.data, PROVIDER);
      const type = wireTypeOf(payload, PROVIDER);
      checkSequence(emit, (payload as { sequence_number?: unknown }).sequence_number);
      decode(type, payload, emit);
    },
    complete(emit) {
      if (!ended) parts.endAll(emit, false);
    },
  };
}

/**
 * OpenAI Responses SSE messages → StreamEvents. Pipe `fromSse` into it (or use `streamEvents`).
 *
 * ```
 * wire:    created  summary_text.delta  output_item.done(rs)  output_text.delta  completed
 * result:  s--------(R r)---------------e---------------------(T t)--------------(E u f c|)
 *          s response-start  R/r/e reasoning-start/delta/end  T/t/E text-start/delta/end
 *          u usage  f finish  c completed
 * ```
 *
 * - `reasoning_summary_text.delta` → kind `summary`, index = `summary_index`;
 *   `reasoning_text.delta` → kind `text`, index = `content_index`. An entry ends when the next
 *   one, text or a tool call starts; the item's last entry ends at `output_item.done` carrying
 *   the item's `encrypted_content` as `redacted` (encrypted content without text gets an entry
 *   `<item>:encrypted` of its own). `*.done` events only add text the deltas did not carry.
 * - `refusal.delta` / `refusal.done` are text, like `output_text.*` (what the model says
 *   instead of an answer must reach the user).
 * - `function_call` items → `tool-input-start` (index = `output_index`, id = `call_id`),
 *   `tool-input-delta`, then one `tool-call` at `function_call_arguments.done` or
 *   `output_item.done`, whichever comes first (arguments sent only there still get a delta).
 *   Custom tools (`custom_tool_call_input.*`): the same, their free text is `input` and
 *   `inputText` (never parsed); `apply_patch_call` → a `tool-call` `apply_patch` whose input is
 *   the operation. `output_text.annotation.added` → `citation`.
 * - Tools OpenAI runs itself (`web_search_call`, `file_search_call`, `mcp_call`,
 *   `mcp_list_tools`, `code_interpreter_call`, `image_generation_call`) → `tool-start` at
 *   `output_item.added`, `tool-end` (the done item as `result`) at `output_item.done`, both
 *   `providerExecuted: true`; a partial image → `tool-update`. A `compaction` item is kept like
 *   encrypted reasoning (`format: 'openai-compaction'`).
 * - `response.completed` → `usage`, `finish` (`tool-calls` when a call was made, else `stop`),
 *   `completed`; `response.incomplete` → `incomplete` (`max_output_tokens` → `length`,
 *   `content_filter` → `content-filter`, any other reason kept as is); `response.failed` and the
 *   `error` event (nested or flat) → one `failed` with the provider's code, retryable for
 *   `server_error` and `rate_limit_exceeded`. Nothing is decoded after a terminal.
 * - A `sequence_number` that skips ahead → `warning` `sequence-gap`; an event or output item
 *   type it does not decode → one `warning` `unknown-event` per type.
 * - No terminal on the wire (ollama/ollama#17118 closes mid-reasoning with HTTP 200): open
 *   parts are ended, unfinished tool calls dropped, and `ensureTerminal` says `stream-closed`.
 *
 * @example
 * ```ts
 * const response = await fetch('https://api.openai.com/v1/responses', init);
 * fromSse(response).pipe(decodeOpenAIResponses(), ensureTerminal()).subscribe(console.log);
 * ```
 */
export function decodeOpenAIResponses(): OperatorFunction<SseMessage, StreamEvent> {
  return decoderOperator(createOpenAIResponsesDecoder);
}

function textId(itemId: string, contentIndex: number | undefined): string {
  return contentIndex ? `${itemId}:${contentIndex}` : itemId;
}
