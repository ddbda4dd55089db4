import type { OperatorFunction } from 'rxjs';
import {
  type CompletedEvent,
  type FinishEvent,
  type StreamEvent,
  type UsageEvent,
} from '../events';
import { terminalForFinish, usageFields } from '../terminalEvents';
import type { SseMessage } from '../source/fromSse';
import { createAnthropicBlocks } from './anthropicBlocks';
import {
  AnthropicErrorEvent,
  BlockDeltaEvent,
  BlockStartEvent,
  BlockStopEvent,
  MessageDeltaEvent,
  MessageStartEvent,
  anthropicFailed,
  anthropicUsageEvent,
  finishReasonOfStop,
  type AnthropicUsage,
} from './anthropicWire';
import {
  createWarnOnce,
  decoderOperator,
  parseJsonPayload,
  type Emit,
  type WireDecoder,
} from './decoder';
import { readWire, wireTypeOf } from './wireSchema';

const PROVIDER = 'anthropic';
const USAGE_KEYS = ['input_tokens', 'output_tokens', 'cache_read_input_tokens'] as const;

/**
 * `pause_turn`: Anthropic paused a long server-tool turn. The answer is not finished, so the
 * stream is not `completed`; the client continues it by sending the response back as the
 * assistant turn (Anthropic's documented way). `incomplete`, reason `pause-turn`.
 */
const PAUSED_TURN: StreamEvent = {
  type: 'incomplete',
  reason: 'pause-turn',
  message:
    'Anthropic paused the turn (stop_reason pause_turn) during a long server tool run; send the response back as the assistant turn to let the model continue.',
};

/**
 * The Anthropic Messages wire as a pure decoder; see {@link decodeAnthropic}. Ids: text and
 * reasoning `<message id>:<block index>`, tool calls the `tool_use` block's `id`.
 */
export function createAnthropicDecoder(): WireDecoder<SseMessage> {
  const warn = createWarnOnce();
  const blocks = createAnthropicBlocks(warn);
  let messageId: string | undefined;
  let started = false;
  let ended = false;
  const usage: AnthropicUsage = {};
  let lastUsage: UsageEvent | undefined;
  let finish: FinishEvent | undefined;

  const mergeUsage = (more: AnthropicUsage | null | undefined) => {
    if (!more) return;
    // `message_delta` usage is cumulative; a field it leaves out keeps its `message_start` value.
    for (const key of USAGE_KEYS) if (more[key] != null) usage[key] = more[key];
  };

  const decode = (type: string, payload: unknown, emit: Emit) => {
    switch (type) {
      case 'message_start': {
        if (started) {
          const message = 'Anthropic sent message_start again; the repeat was ignored.';
          return warn(emit, 'duplicate-event', type, message);
        }
        started = true;
        const { message } = readWire(MessageStartEvent, payload, PROVIDER, type);
        messageId = message.id ?? undefined;
        mergeUsage(message.usage);
        const start: StreamEvent = { type: 'response-start', provider: PROVIDER };
        if (message.id) start.id = message.id;
        if (message.model) start.model = message.model;
        return emit(start);
      }
      case 'content_block_start': {
        const event = readWire(BlockStartEvent, payload, PROVIDER, type);
        const id = `${messageId ?? 'message'}:${event.index}`;
        return blocks.start(emit, event.index, event.content_block, id);
      }
      case 'content_block_delta': {
        const event = readWire(BlockDeltaEvent, payload, PROVIDER, type);
        return blocks.delta(emit, event.index, event.delta);
      }
      case 'content_block_stop':
        return blocks.stop(emit, readWire(BlockStopEvent, payload, PROVIDER, type).index);
      case 'message_delta': {
        const event = readWire(MessageDeltaEvent, payload, PROVIDER, type);
        mergeUsage(event.usage);
        lastUsage = anthropicUsageEvent(usage);
        if (event.usage && lastUsage) emit(lastUsage);
        const raw = event.delta?.stop_reason;
        if (!raw || raw === finish?.raw) return;
        finish = { type: 'finish', reason: finishReasonOfStop(raw), raw };
        return emit(finish);
      }
      case 'message_stop': {
        blocks.endAll(emit, true);
        ended = true;
        if (finish?.raw === 'pause_turn') return emit(PAUSED_TURN);
        if (finish) return emit(terminalForFinish(finish, lastUsage));
        const completed: CompletedEvent = { type: 'completed' };
        if (lastUsage) completed.usage = usageFields(lastUsage);
        return emit(completed);
      }
      case 'ping':
        return;
      case 'error': {
        const { error } = readWire(AnthropicErrorEvent, payload, PROVIDER, type);
        blocks.endAll(emit, false);
        ended = true;
        return emit(anthropicFailed(error?.type, error?.message));
      }
      default:
        warn(
          emit,
          'unknown-event',
          type,
          `Anthropic event "${type}" is not decoded; it was skipped.`,
        );
    }
  };

  return {
    next(message, emit) {
      if (ended) return;
      const payload = parseJsonPayload(message.data, PROVIDER);
      decode(wireTypeOf(payload, PROVIDER, message.event), payload, emit);
    },
    complete(emit) {
      if (!ended) blocks.endAll(emit, false);
    },
  };
}

/**
 * Anthropic Messages SSE messages → StreamEvents. Pipe `fromSse` into it (or use `streamEvents`).
 *
 * ```
 * wire:    message_start  thinking  signature_delta  stop  text_delta  stop  message_delta  message_stop
 * result:  s--------------(R r)-----------------------e----(T t)--------E----(u f)----------(c|)
 *          s response-start  R/r/e reasoning-start/delta/end (e carries the signature)
 *          T/t/E text-start/delta/end  u usage  f finish  c completed
 * ```
 *
 * - Blocks by `index`: `text` (its `citations_delta` → `citation`: url, title, cited text, the
 *   char / page / block range); `thinking` (`thinking_delta` → kind `text`, `signature_delta` →
 *   `reasoning-end.signature`); `redacted_thinking` (→ `reasoning-end.redacted`); `tool_use`
 *   (`input_json_delta` → `tool-input-delta`, one `tool-call` at `content_block_stop`; no input
 *   → `{}`). Server tools are not client tool calls: `server_tool_use` / `mcp_tool_use` → one
 *   `tool-start` with its whole input as `args` at its stop, `*_tool_result` → `tool-end` with
 *   its content as `result` (`isError` for an `*_error` content), both `providerExecuted: true`.
 *   Other block types (`compaction`…) and delta types → one `warning` `unknown-event` per type.
 * - `message_delta` → `usage` (merged with `message_start`'s) and `finish`: `end_turn` /
 *   `stop_sequence` → `stop`, `max_tokens` → `length`, `tool_use` → `tool-calls`, `refusal` →
 *   `content-filter`, `pause_turn` and unknown reasons → `other` (`raw` keeps the wire value).
 * - `message_stop` → the terminal for that finish (`pause_turn` → `incomplete` `pause-turn`:
 *   the turn is not finished, the client continues it); `event: error` → `failed` with the error's
 *   `type` as code, retryable for `overloaded_error` and `api_error`. Nothing after a terminal.
 * - A second `message_start` → `warning` `duplicate-event`; `ping` is ignored; JSON padded
 *   with whitespace is fine. No `message_stop`: `ensureTerminal` decides from the `finish`.
 *
 * @example
 * ```ts
 * const response = await fetch('https://api.anthropic.com/v1/messages', init);
 * fromSse(response).pipe(decodeAnthropic(), ensureTerminal()).subscribe(console.log);
 * ```
 */
export function decodeAnthropic(): OperatorFunction<SseMessage, StreamEvent> {
  return decoderOperator(createAnthropicDecoder);
}
