import type { OperatorFunction } from 'rxjs';
import * as z from 'zod/mini';
import { LlmRxError } from '../errors';
import { type FailedEvent, type FinishEvent, type StreamEvent, type UsageEvent } from '../events';
import { terminalForFinish } from '../terminalEvents';
import type { SseMessage } from '../source/fromSse';
import * as decoderModule from './decoder';
import type { Emit, WireDecoder } from './decoder';
import * as schemaModule from './openaiChatSchema';
import type { Chunk as ChunkType, ChunkDelta, ChunkError } from './openaiChatSchema';
import * as contentModule from './openaiChatContent';
import type { ContentSink } from './openaiChatContent';
import { completedWithoutFinish, usageOfChunk } from './openaiChatUsage';
import { createToolCallAssembler } from './openaiChatToolCalls';
import { createChatExtras, type ChatExtras } from './openaiChatExtras';
import * as reasoningModule from './openaiChatReasoning';
import { zodMessages } from '../internal/zodMessages';

// Module-local copies of what runs for every event. Compiled to CommonJS (tsx, ts-jest), every
// use of an imported name is a read of the other module's exports object, under tsx through a
// getter call (see markdownScanner.ts); the bundle in dist/ has no such reads.
const { createWarnOnce, decoderOperator, parseJsonPayload } = decoderModule;
const { Chunk, failedErrorOf, finishReasonOf, readPlainDelta, reportUnknownDeltaFields } =
  schemaModule;
const { decodeContent } = contentModule;
const { createReasoningTracker, decodeReasoning } = reasoningModule;

const PROVIDER = 'openai-chat';

/**
 * The decoder state for one OpenAI-compatible chat stream (OpenAI, OpenRouter, DeepSeek, vLLM,
 * Qwen, llama.cpp, Ollama `/v1`), without RxJS: feed it SSE messages, it emits StreamEvents.
 * `streamEvents` uses it directly; {@link decodeOpenAIChat} is its operator form and documents
 * the rules.
 *
 * ```
 * next({data:'{…"content":"Hi"…}'}) → response-start text-start text-delta
 * next({data:'[DONE]'})              → text-end completed
 * ```
 *
 * @example
 * ```ts
 * const decoder = createOpenAIChatDecoder();
 * decoder.next({ data: '{"id":"r","choices":[{"delta":{"content":"Hi"}}]}' }, console.log);
 * decoder.complete(console.log);
 * ```
 */
export function createOpenAIChatDecoder(): WireDecoder<SseMessage> {
  const warnOnce = createWarnOnce();
  let ended = false;
  let baseId: string | undefined;
  let textOpen = false;
  let textParts = 0;
  let textId = '';
  let finish: FinishEvent | undefined;
  let usage: UsageEvent | undefined;
  let reasoning: ReturnType<typeof createReasoningTracker>;
  let toolCalls: ReturnType<typeof createToolCallAssembler>;
  let extras: ChatExtras;

  /** Starts the response on its first chunk; ids of everything after derive from its id. */
  function begin(chunk: ChunkType, emit: Emit) {
    baseId = chunk.id || 'response';
    reasoning = createReasoningTracker(baseId);
    toolCalls = createToolCallAssembler(baseId);
    extras = createChatExtras(baseId);
    const start: StreamEvent = { type: 'response-start', provider: PROVIDER };
    if (chunk.id) start.id = chunk.id;
    if (chunk.model) start.model = chunk.model;
    emit(start);
  }

  function appendText(delta: string, emit: Emit) {
    reasoning.endAll(emit);
    if (!textOpen) {
      textOpen = true;
      // A text part reopened after a finish gets its own id: `r:text`, then `r:text:1`, …
      textId = textParts === 0 ? `${baseId}:text` : `${baseId}:text:${textParts}`;
      emit({ type: 'text-start', id: textId });
    }
    emit({ type: 'text-delta', id: textId, delta });
  }

  /** Closes what is open; pending tool calls are emitted unless the stream failed. */
  function closeOpenParts(emit: Emit, emitToolCalls: boolean) {
    if (baseId === undefined) return;
    reasoning.endAll(emit);
    if (textOpen) {
      emit({ type: 'text-end', id: textId });
      textOpen = false;
      textParts++;
    }
    if (emitToolCalls) toolCalls.flush(emit, () => reasoning.endAll(emit));
    else toolCalls.clear();
  }

  function fail(error: ChunkError | { code?: unknown; message?: unknown }, emit: Emit) {
    closeOpenParts(emit, false);
    const event: FailedEvent = { type: 'failed', error: failedErrorOf(error, PROVIDER) };
    emit(event);
    ended = true;
  }

  const content: ContentSink = {
    text: appendText,
    reasoning: (delta, emit) => reasoning.appendPlain(delta, emit),
  };

  function decodeDelta(delta: ChunkDelta, emit: Emit) {
    decodeReasoning(delta, reasoning, emit, warnOnce);
    decodeContent(delta.content, content, emit, warnOnce);
    // A refusal is what the model says instead of an answer: the user should see it.
    if (delta.refusal) appendText(delta.refusal, emit);
    if (delta.tool_calls) {
      delta.tool_calls.forEach((fragment, position) =>
        toolCalls.add(fragment, position, emit, () => reasoning.endAll(emit)),
      );
    }
    if (delta.executed_tools) extras.executedTools(delta.executed_tools, emit);
  }

  function decodeFinish(raw: string, emit: Emit) {
    closeOpenParts(emit, true);
    const reason = finishReasonOf(raw);
    if (finish === undefined) {
      finish = { type: 'finish', reason, raw };
      emit(finish);
    } else if (finish.raw !== raw) {
      warnOnce(
        emit,
        'duplicate-event',
        'finish_reason',
        `The provider sent a second finish reason "${raw}" after "${finish.raw}"; the first one stands.`,
      );
    }
  }

  function decodeChunk(chunk: ChunkType, emit: Emit) {
    const error = chunk.error ?? (chunk.object === 'error' ? chunk : undefined);
    if (baseId === undefined && !(error && !chunk.choices)) begin(chunk, emit);
    for (const choice of chunk.choices ?? []) {
      if ((choice.index ?? 0) !== 0) {
        warnOnce(
          emit,
          'unknown-field',
          'choices[n]',
          `Only the first choice is decoded; choice ${choice.index} (n > 1) was ignored.`,
        );
        continue;
      }
      if (choice.delta) {
        reportUnknownDeltaFields(choice.delta, emit, warnOnce);
        decodeDelta(choice.delta, emit);
      }
      if (error) continue;
      if (choice.finish_reason === 'error') return fail({}, emit);
      if (choice.finish_reason) decodeFinish(choice.finish_reason, emit);
    }
    if (error) return fail(error as ChunkError, emit);
    if (chunk.citations || chunk.search_results)
      extras.citations(chunk.citations, chunk.search_results, emit);
    const next = usageOfChunk(chunk, usage);
    if (next) emit((usage = next));
  }

  return {
    next(message, emit) {
      if (ended) return;
      const data = message.data;
      if (data === '[DONE]') {
        closeOpenParts(emit, true);
        ended = true;
        // [DONE] is an explicit end: finish the stream now rather than wait for EOF.
        emit(finish ? terminalForFinish(finish, usage) : completedWithoutFinish(usage));
        return;
      }
      if (data === '' || data.trim() === '') return;
      const value = parseJsonPayload(data, PROVIDER);
      const plainDelta = baseId === undefined ? undefined : readPlainDelta(value);
      if (plainDelta) return decodeDelta(plainDelta, emit);
      const parsed = Chunk.safeParse(value, zodMessages);
      if (!parsed.success) {
        throw new LlmRxError(
          'malformed-event',
          `An openai-chat event does not have the shape of a chat.completion.chunk: ${z.prettifyError(parsed.error)}`,
          { provider: PROVIDER },
        );
      }
      decodeChunk(parsed.data, emit);
    },
    complete(emit) {
      if (!ended) closeOpenParts(emit, true);
    },
  };
}

/**
 * Decodes an OpenAI-compatible chat stream (OpenAI, OpenRouter, DeepSeek, vLLM, Qwen,
 * llama.cpp, Ollama `/v1`) from `fromSse` messages into StreamEvents.
 *
 * ```
 * wire:    -R-------------C-------------------F-------D|
 * events:  -(a s r)-------(e t d)-------------(x f)---c|
 *   R = {reasoning_details:[{type:"reasoning.text",text:"Let me…",index:0}], content:""}
 *   C = {content:"Hi"}   F = {finish_reason:"stop"}   D = [DONE]
 *   a = response-start  s/r/e = reasoning-start/-delta/-end  t/d/x = text-start/-delta/-end
 *   f = finish stop     c = completed
 * ```
 *
 * - Reasoning from `reasoning_content`, `reasoning`, `reasoning_text` and every entry of
 *   `reasoning_details[]` (text → kind `text`, summary → kind `summary`, encrypted → kept in
 *   `reasoning-end.redacted`; `signature` and `format` kept on `reasoning-end`), in wire
 *   order, each with its own index. When a chunk's details carry text, its plain `reasoning`
 *   copy (OpenRouter) is dropped; equal plain fields (vLLM) count once. Empty strings start
 *   nothing. Plain reasoning continues the entry opened last, or opens the next free index.
 * - An index ends (`reasoning-end`) when text or a tool call starts, or at finish. An index
 *   that reopens later gets a new id (`…:reasoning:0:1`).
 * - Ids are derived from the response id, never random: `${id}:text`, `${id}:reasoning:${i}`,
 *   tool calls keep the wire id (else `${id}:tool:${index}`).
 * - `delta.content` as a string is text; as an array of typed parts (Mistral magistral),
 *   `text` parts are text and `thinking` parts reasoning; other part types → one
 *   `unknown-field` warning per type.
 * - Tool calls merge by `index`, arguments before the name are kept; a fragment with a new
 *   `id` and no `index` (Gemini), or at an index whose call has another id (Ollama `/v1`),
 *   starts a new call. `tool-input-start` / `-delta` as they stream, one `tool-call` per call
 *   at finish (empty arguments → `{}`, invalid JSON → `input: null` + `error`).
 * - Usage from `chunk.usage`, Groq's `x_groq.usage` or the choice's `usage` (Moonshot): one
 *   `usage` event, not repeated when unchanged, and on `completed`. xAI's `cost_in_usd_ticks`
 *   (1e-10 USD) is `cost` in USD when no `cost` is sent.
 * - Gateways: Perplexity's `citations` / `search_results` → one `citation` per URL, once, `id`
 *   its 1-based place; Groq compound's `executed_tools` → `tool-start` / `tool-end` with
 *   `providerExecuted: true`; Gemini's `extra_content.google.thought_signature` → the
 *   `tool-call`'s `signature`; Azure's filter chunks (empty `choices`) give nothing.
 * - A chunk's reasoning and text come before its `finish`; `finish` closes what is open.
 *   Content after it still arrives, as a new text part. A repeated finish emits nothing
 *   (a different reason: one `duplicate-event` warning); its usage is still reported.
 * - `[DONE]` ends the stream at once with the terminal its finish earns (`terminalForFinish`;
 *   `completed` when no finish came). At EOF without `[DONE]` the decoder emits no terminal:
 *   ensureTerminal decides.
 * - An error object in a 200 stream (`{"error":…}`, vLLM's `{"object":"error"}`) or
 *   `finish_reason: "error"` → one `failed` with the provider's code, message and
 *   `retryable`; pending tool calls are dropped, text already sent stays delivered.
 * - Unknown non-null delta fields → one `unknown-field` warning per name per stream; `role`,
 *   `obfuscation`, Groq's `channel` and proxy bookkeeping are ignored quietly. Only choice 0
 *   is decoded.
 * - A payload that is not JSON or not a chunk throws `malformed-event`.
 *
 * @example
 * ```ts
 * fromSse(response).pipe(decodeOpenAIChat(), ensureTerminal()).subscribe(console.log);
 * ```
 */
export function decodeOpenAIChat(): OperatorFunction<SseMessage, StreamEvent> {
  return decoderOperator(createOpenAIChatDecoder);
}
