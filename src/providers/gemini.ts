import type { OperatorFunction } from 'rxjs';
import type {
  FinishEvent,
  ReasoningEndEvent,
  ResponseStartEvent,
  StreamEvent,
  UsageEvent,
} from '../events';
import type { SseMessage } from '../source/fromSse';
import {
  createWarnOnce,
  decoderOperator,
  parseJsonPayload,
  type Emit,
  type WireDecoder,
} from './decoder';
import { citationsOf, geminiFailed, usageOf } from './geminiParts';
import { createGeminiToolCalls } from './geminiToolCalls';
import {
  GeminiChunk,
  geminiFinishReason,
  KNOWN_CANDIDATE_FIELDS,
  KNOWN_CHUNK_FIELDS,
  KNOWN_PART_FIELDS,
  type GeminiCandidate,
  type GeminiPart,
} from './geminiWire';
import { readWire } from './wireSchema';

const PROVIDER = 'gemini';

/** Gemini's `:streamGenerateContent?alt=sse` as a pure decoder; see {@link decodeGemini}. */
export function createGeminiDecoder(): WireDecoder<SseMessage> {
  const warn = createWarnOnce();
  let started = false;
  let ended = false;
  let finished = false;
  let responseId: string | undefined;
  let textIndex = -1;
  let textOpen = false;
  let reasoningIndex = -1;
  let reasoningOpen = false;
  let reasoningSignature: string | undefined;
  const calls = createGeminiToolCalls(() => `gemini:${responseId ? `${responseId}:` : ''}`);
  let answer = '';
  let usage: UsageEvent | undefined;
  let reportedUsage = '';
  const citations = new Set<string>();

  const reasoningId = () => `gemini:reasoning:${reasoningIndex}`;
  const endReasoning = (emit: Emit, signature = reasoningSignature) => {
    if (!reasoningOpen) return;
    reasoningOpen = false;
    reasoningSignature = undefined;
    const end: ReasoningEndEvent = {
      type: 'reasoning-end',
      id: reasoningId(),
      index: reasoningIndex,
    };
    if (signature !== undefined) end.signature = signature;
    emit(end);
  };
  const startReasoning = (emit: Emit) => {
    reasoningOpen = true;
    reasoningIndex++;
    emit({ type: 'reasoning-start', id: reasoningId(), index: reasoningIndex });
  };
  const endText = (emit: Emit) => {
    if (!textOpen) return;
    textOpen = false;
    emit({ type: 'text-end', id: `gemini:text:${textIndex}` });
  };
  const endOpenParts = (emit: Emit) => {
    endReasoning(emit);
    endText(emit);
  };
  /** A signature on a text or code part closes the reasoning before it, or stands alone. */
  const keepSignature = (emit: Emit, signature: string) => {
    // An entry that has a signature of its own keeps it; this one then gets an entry too.
    if (reasoningSignature !== undefined) endReasoning(emit);
    if (!reasoningOpen) startReasoning(emit);
    endReasoning(emit, signature);
  };

  const thought = (emit: Emit, part: GeminiPart) => {
    // A signature closes its thought: what follows is a new entry.
    if (reasoningSignature !== undefined) endReasoning(emit);
    if (!reasoningOpen && (part.text || part.thoughtSignature)) {
      endText(emit);
      startReasoning(emit);
    }
    if (part.text)
      emit({
        type: 'reasoning-delta',
        id: reasoningId(),
        index: reasoningIndex,
        delta: part.text,
        kind: 'text',
      });
    if (part.thoughtSignature !== undefined) reasoningSignature = part.thoughtSignature;
  };
  const text = (emit: Emit, delta: string) => {
    endReasoning(emit);
    if (!textOpen) {
      textOpen = true;
      textIndex++;
      emit({ type: 'text-start', id: `gemini:text:${textIndex}` });
    }
    answer += delta;
    emit({ type: 'text-delta', id: `gemini:text:${textIndex}`, delta });
  };

  const part = (emit: Emit, value: GeminiPart) => {
    warnUnknown(emit, value, KNOWN_PART_FIELDS, 'part');
    if (value.functionCall)
      return calls.part(emit, value.functionCall, value.thoughtSignature, () => endOpenParts(emit));
    if (value.thought) return thought(emit, value);
    if (value.thoughtSignature !== undefined) keepSignature(emit, value.thoughtSignature);
    if (value.text) text(emit, value.text);
    if (value.executableCode) {
      endOpenParts(emit);
      calls.code(emit, value.executableCode);
    }
    if (value.codeExecutionResult) calls.codeResult(emit, value.codeExecutionResult);
  };

  const warnField = (emit: Emit, field: string, message: string) =>
    warn(emit, 'unknown-field', field, message, { field });
  const warnUnknown = (emit: Emit, value: object, known: Set<string>, where: string) => {
    for (const field in value)
      if (!known.has(field))
        warnField(
          emit,
          `${where}.${field}`,
          `Gemini ${where} field "${field}" is not decoded; it was skipped.`,
        );
  };

  const candidate = (emit: Emit, value: GeminiCandidate) => {
    warnUnknown(emit, value, KNOWN_CANDIDATE_FIELDS, 'candidate');
    for (const each of value.content?.parts ?? []) part(emit, each);
    if (value.groundingMetadata || value.citationMetadata)
      for (const citation of citationsOf(value.groundingMetadata, value.citationMetadata, answer)) {
        const key = JSON.stringify(citation);
        if (citations.has(key)) continue;
        citations.add(key);
        emit(citation);
      }
    const blocked = value.safetyRatings?.some((rating) => rating.blocked === true) ?? false;
    if (value.finishReason !== undefined || blocked) finish(emit, value.finishReason, blocked);
  };

  const reportUsage = (emit: Emit) => {
    const key = usage ? JSON.stringify(usage) : '';
    if (key === reportedUsage || !usage) return;
    reportedUsage = key;
    emit(usage);
  };
  const finish = (emit: Emit, raw: string | undefined, blocked: boolean) => {
    if (finished) return;
    finished = true;
    calls.close(emit);
    endOpenParts(emit);
    let reason = raw === undefined ? 'other' : geminiFinishReason(raw, calls.count > 0);
    if (blocked) reason = 'content-filter';
    reportUsage(emit);
    const event: FinishEvent = { type: 'finish', reason };
    const rawReason = raw ?? (blocked ? 'blocked' : undefined);
    if (rawReason !== undefined) event.raw = rawReason;
    emit(event);
  };

  return {
    next(message, emit) {
      if (ended) return;
      const chunk = readWire(
        GeminiChunk,
        parseJsonPayload(message.data, PROVIDER),
        PROVIDER,
        'chunk',
      );
      if (chunk.error) {
        ended = true;
        calls.close(emit);
        endOpenParts(emit);
        return emit(geminiFailed(chunk.error));
      }
      responseId ??= chunk.responseId;
      if (!started) {
        started = true;
        const start: ResponseStartEvent = { type: 'response-start', provider: PROVIDER };
        if (chunk.responseId) start.id = chunk.responseId;
        if (chunk.modelVersion) start.model = chunk.modelVersion;
        emit(start);
      }
      warnUnknown(emit, chunk, KNOWN_CHUNK_FIELDS, 'response');
      if (chunk.usageMetadata) usage = usageOf(chunk.usageMetadata) ?? usage;
      const candidates = chunk.candidates ?? [];
      if (candidates.length > 1)
        warnField(
          emit,
          'candidates[1]',
          'Gemini sent several candidates; llm-rx decodes the first only.',
        );
      if (candidates[0]) candidate(emit, candidates[0]);
      const blockReason = chunk.promptFeedback?.blockReason;
      if (blockReason !== undefined) {
        finish(emit, blockReason, true);
        reportUsage(emit);
        ended = true;
        const why = chunk.promptFeedback?.blockReasonMessage;
        return emit({
          type: 'incomplete',
          reason: 'content-filter',
          message: `Gemini blocked the prompt (blockReason ${blockReason})${why ? `: ${why.replace(/\.$/, '')}` : ''}. Change the prompt or the request's safetySettings.`,
        });
      }
      if (finished) reportUsage(emit);
    },
    complete(emit) {
      if (ended) return;
      calls.close(emit);
      endOpenParts(emit);
    },
  };
}

/**
 * Google Gemini's `:streamGenerateContent?alt=sse` SSE messages (Gemini API and Vertex AI) →
 * StreamEvents. Pipe `fromSse` into it, then `ensureTerminal` (Gemini's stream has no end marker:
 * the last `finish` decides), or use `streamEvents(response, { provider: 'gemini' })`.
 *
 * ```
 * chunks:  {thought:true}  {text,thoughtSignature}  {functionCall}  {finishReason:"STOP",usage}  EOF
 * result:  (s R r)---------(e T t)------------------(E i d c)-------(u f)-------------------------(x|)
 *          s response-start  R/r/e reasoning-start/delta/end (e carries the signature)
 *          T/t/E text-start/delta/end  i/d/c tool-input-start/delta, tool-call  u usage
 *          f finish  x completed (from ensureTerminal)
 * ```
 *
 * - `parts[].text` → text; `thought: true` → reasoning (kind `text`). Ids are derived:
 *   `gemini:text:<n>`, `gemini:reasoning:<n>`.
 * - `thoughtSignature` is opaque and never dropped: on a `functionCall` part it is the
 *   `tool-call`'s `signature` (send it back with that call); on a thought, text or code part —
 *   a trailing empty part too — it is the `signature` of the `reasoning-end` that closes the
 *   reasoning before it, or of a reasoning entry of its own (no deltas) when none is open.
 * - `functionCall` → `tool-input-start`, one `tool-input-delta` (the arguments as JSON),
 *   `tool-call`; the id is the wire's `id`, else `gemini:<responseId>:call:<n>`. Vertex's
 *   streamed arguments (`willContinue`, `partialArgs` by `jsonPath`) become one call, closed
 *   by the part without `willContinue`, with a delta per piece: the JSON text the pieces make,
 *   adding up to `inputText` (pieces out of document order: the value is sent whole at the end).
 * - Code execution runs on Google's side: `executableCode` → `tool-start`, `codeExecutionResult`
 *   → `tool-end` (`name: 'code_execution'`, `providerExecuted: true`, `isError` unless
 *   `OUTCOME_OK`). `groundingMetadata` and `citationMetadata` → `citation` events (`start` /
 *   `end` as string indices into the text). `urlContextMetadata` → one `unknown-field` warning.
 * - `finishReason` → `finish`: STOP → `stop` (`tool-calls` after a function call), MAX_TOKENS →
 *   `length`, SAFETY / RECITATION / BLOCKLIST / PROHIBITED_CONTENT / SPII (and the image ones)
 *   → `content-filter`, as is a safety rating with `blocked: true`; MALFORMED_FUNCTION_CALL →
 *   `error`; others → `other`, raw kept. `promptFeedback.blockReason` → `incomplete`
 *   `content-filter` at once, naming the reason.
 * - `usageMetadata` (the totals so far, in every chunk) → one `usage` with the finish:
 *   promptTokenCount → `inputTokens`, candidatesTokenCount → `outputTokens` (thoughts not
 *   included), thoughtsTokenCount → `reasoningTokens`, cachedContentTokenCount →
 *   `cachedInputTokens`, totalTokenCount → `totalTokens`; a later change is reported again.
 * - `{ error: { code, message, status } }` → `failed` with `status` as code (`RESOURCE_EXHAUSTED`),
 *   `code` as `status` (429), retryable for 408, 409, 429, 5xx and the transient statuses.
 * - A field it does not know → one `warning` `unknown-field` per name per stream; only the first
 *   candidate is decoded.
 *
 * @example
 * ```ts
 * const url = `https://generativelanguage.googleapis.com/v1beta/models/${model}:streamGenerateContent?alt=sse`;
 * const response = await fetch(url, init);
 * fromSse(response).pipe(decodeGemini(), ensureTerminal()).subscribe(console.log);
 * ```
 */
export function decodeGemini(): OperatorFunction<SseMessage, StreamEvent> {
  return decoderOperator(createGeminiDecoder);
}
