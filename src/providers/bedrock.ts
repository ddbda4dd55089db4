import type { OperatorFunction } from 'rxjs';
import type { FinishEvent, ReasoningEndEvent, StreamEvent, UsageEvent } from '../events';
import { terminalForFinish } from '../terminalEvents';
import type { EventStreamMessage } from '../source/fromEventStream';
import {
  BlockDelta,
  BlockStart,
  BlockStop,
  DECODED_DELTA_FIELDS,
  MessageStop,
  Metadata,
  base64Of,
  bedrockEventOf,
  bedrockFailed,
  bedrockFinishReasonOf,
  bedrockUsageOf,
} from './bedrockWire';
import { createWarnOnce, decoderOperator, type Emit, type WireDecoder } from './decoder';
import { toolCallEvent } from './toolCall';
import { readWire } from './wireSchema';

const PROVIDER = 'bedrock';

/** What decodeBedrock reads: framed messages (`fromEventStream`) or the AWS SDK's event objects. */
export type BedrockInput = EventStreamMessage | Record<string, unknown>;

/** An open content block. */
type Block =
  | { kind: 'text'; id: string }
  | { kind: 'reasoning'; id: string; index: number; signature?: string; redacted: string[] }
  | { kind: 'tool'; id: string; name: string; input: string; index: number };

/**
 * Bedrock's ConverseStream as a pure decoder; see {@link decodeBedrock}. The wire has no
 * response id, so ids derive from the block index: text `bedrock:text:<i>`, reasoning
 * `bedrock:reasoning:<i>`; tool calls keep their `toolUseId`.
 */
export function createBedrockDecoder(): WireDecoder<BedrockInput> {
  const warn = createWarnOnce();
  const blocks = new Map<number, Block>();
  let started = false;
  let ended = false;
  let finish: FinishEvent | undefined;
  let usage: UsageEvent | undefined;

  const endBlock = (index: number, emit: Emit) => {
    const block = blocks.get(index);
    if (!block) return;
    blocks.delete(index);
    if (block.kind === 'text') return emit({ type: 'text-end', id: block.id });
    if (block.kind === 'tool') return emit(toolCallEvent(block.id, block.name, block.input));
    const end: ReasoningEndEvent = { type: 'reasoning-end', id: block.id, index: block.index };
    if (block.signature) end.signature = block.signature;
    if (block.redacted.length > 0) end.redacted = block.redacted;
    emit(end);
  };
  const endAll = (emit: Emit) => {
    for (const index of [...blocks.keys()]) endBlock(index, emit);
  };
  const blockOf = (index: number, kind: 'text' | 'reasoning', emit: Emit): Block => {
    const open = blocks.get(index);
    if (open && open.kind === kind) return open;
    if (open) endBlock(index, emit);
    const block: Block =
      kind === 'text'
        ? { kind, id: `${PROVIDER}:text:${index}` }
        : { kind, id: `${PROVIDER}:reasoning:${index}`, index, redacted: [] };
    blocks.set(index, block);
    emit(
      block.kind === 'text'
        ? { type: 'text-start', id: block.id }
        : { type: 'reasoning-start', id: block.id, index },
    );
    return block;
  };

  const blockStart = (payload: unknown, emit: Emit) => {
    const event = readWire(BlockStart, payload, PROVIDER, 'contentBlockStart');
    const toolUse = event.start?.toolUse;
    for (const key in event.start ?? {}) {
      if (key === 'toolUse') continue;
      const message = `Bedrock content block start "${key}" is not decoded; it was skipped.`;
      warn(emit, 'unknown-field', `start.${key}`, message);
    }
    if (!toolUse) return;
    const index = event.contentBlockIndex;
    endBlock(index, emit);
    blocks.set(index, {
      kind: 'tool',
      id: toolUse.toolUseId,
      name: toolUse.name,
      input: '',
      index,
    });
    emit({ type: 'tool-input-start', id: toolUse.toolUseId, name: toolUse.name, index });
  };

  const blockDelta = (payload: unknown, emit: Emit) => {
    const { contentBlockIndex: index, delta } = readWire(
      BlockDelta,
      payload,
      PROVIDER,
      'contentBlockDelta',
    );
    for (const key in delta) {
      if (DECODED_DELTA_FIELDS.has(key) || delta[key] == null) continue;
      const message = `Bedrock delta field "${key}" is not decoded; it was skipped.`;
      warn(emit, 'unknown-field', `delta.${key}`, message);
    }
    if (delta.text) {
      const block = blockOf(index, 'text', emit);
      emit({ type: 'text-delta', id: block.id, delta: delta.text });
    }
    const reasoning = delta.reasoningContent;
    if (reasoning && (reasoning.text || reasoning.signature || reasoning.redactedContent)) {
      const block = blockOf(index, 'reasoning', emit) as Extract<Block, { kind: 'reasoning' }>;
      if (reasoning.text)
        emit({ type: 'reasoning-delta', id: block.id, index, delta: reasoning.text, kind: 'text' });
      if (reasoning.signature) block.signature = (block.signature ?? '') + reasoning.signature;
      if (reasoning.redactedContent) block.redacted.push(base64Of(reasoning.redactedContent));
    }
    const input = delta.toolUse?.input;
    const tool = blocks.get(index);
    if (input && tool?.kind === 'tool') {
      tool.input += input;
      emit({ type: 'tool-input-delta', id: tool.id, delta: input });
    }
  };

  const decode = (type: string, payload: unknown, emit: Emit) => {
    switch (type) {
      case 'messageStart':
        return;
      case 'contentBlockStart':
        return blockStart(payload, emit);
      case 'contentBlockDelta':
        return blockDelta(payload, emit);
      case 'contentBlockStop':
        return endBlock(readWire(BlockStop, payload, PROVIDER, type).contentBlockIndex, emit);
      case 'messageStop': {
        endAll(emit);
        const raw = readWire(MessageStop, payload, PROVIDER, type).stopReason;
        finish ??= { type: 'finish', reason: bedrockFinishReasonOf(raw), raw };
        return emit(finish);
      }
      case 'metadata': {
        usage = bedrockUsageOf(readWire(Metadata, payload, PROVIDER, type));
        if (usage) emit(usage);
        // metadata is the last event of a ConverseStream: after messageStop it ends the stream.
        if (!finish) return;
        ended = true;
        return emit(terminalForFinish(finish, usage));
      }
      default:
        warn(
          emit,
          'unknown-event',
          type,
          `Bedrock event "${type}" is not decoded; it was skipped.`,
        );
    }
  };

  return {
    next(input, emit) {
      if (ended) return;
      const { type, payload, failure } = bedrockEventOf(input);
      if (failure) {
        endAll(emit);
        ended = true;
        return emit(bedrockFailed(type, payload));
      }
      if (!started) {
        started = true;
        emit({ type: 'response-start', provider: PROVIDER });
      }
      decode(type, payload, emit);
    },
    complete(emit) {
      if (!ended) endAll(emit);
    },
  };
}

/**
 * Decodes AWS Bedrock's ConverseStream (`POST /model/<id>/converse-stream`) into StreamEvents:
 * messages from {@link fromEventStream}, or the event objects the AWS SDK's `response.stream`
 * yields (`{ contentBlockDelta: { … } }`).
 *
 * ```
 * wire:    -S-R-----G---P---T---X---M---U|
 * events:  -a-(s r)-----(e)-(t d)-(x)-f---(u c)|
 *   S = messageStart  R = reasoningContent.text  G = reasoningContent.signature
 *   P = contentBlockStop  T = delta.text  X = contentBlockStop  M = messageStop end_turn
 *   U = metadata usage   a = response-start  s/r/e = reasoning-start/-delta/-end (signature)
 *   t/d/x = text-start/-delta/-end  f = finish stop  u = usage  c = completed
 * ```
 *
 * - `delta.text` → text; `delta.reasoningContent.text` → reasoning (kind `text`), its
 *   `signature` pieces joined and `redactedContent` kept in `redacted`, both on `reasoning-end`
 *   (never shown as text). A block opens on its first delta (`contentBlockStart` is sent
 *   only for tool use) and ends at `contentBlockStop`.
 * - `contentBlockStart.start.toolUse` (`toolUseId`, `name`) → `tool-input-start`; each
 *   `delta.toolUse.input` string → `tool-input-delta`; `contentBlockStop` → `tool-call`.
 * - `messageStop.stopReason`: end_turn, stop_sequence → `stop`; tool_use → `tool-calls`;
 *   max_tokens, model_context_window_exceeded → `length`; guardrail_intervened,
 *   content_filtered → `content-filter`; others → `other` (raw kept).
 * - `metadata` (the last event) → `usage` (`inputTokens`, `outputTokens`, `totalTokens`,
 *   `cacheReadInputTokens` → cachedInputTokens), then the terminal `finish` earned.
 * - Exceptions in the stream (`internalServerException`, `modelStreamErrorException`,
 *   `throttlingException`, `serviceUnavailableException`: retryable; `validationException`:
 *   not) → one `failed` with the exception name as `code`, its message and HTTP status.
 * - Unknown events → one `unknown-event` warning per name; unknown delta fields and block
 *   starts → one `unknown-field` warning per name. A payload that is not JSON or not of the
 *   expected shape throws `malformed-event`.
 *
 * @example
 * ```ts
 * const response = await fetch(converseStreamUrl, signedInit);
 * fromEventStream(response).pipe(decodeBedrock(), ensureTerminal()).subscribe(console.log);
 * ```
 */
export function decodeBedrock(): OperatorFunction<BedrockInput, StreamEvent> {
  return decoderOperator(createBedrockDecoder);
}
