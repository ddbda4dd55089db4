import { isRetryableHttpStatus, LlmRxError } from '../errors';
import type { CitationEvent, StreamEvent, UsageEvent } from '../events';
import { failedEvent } from '../terminalEvents';
import {
  RETRYABLE_STATUSES,
  type GeminiCitationMetadata,
  type GeminiError,
  type GeminiGrounding,
  type GeminiPartialArg,
  type GeminiUsage,
} from './geminiWire';

// Pure pieces of the Gemini decoder: Vertex's streamed arguments put together by JSON path, and
// grounding / citation metadata as `citation` events, usage and the error object.

type Container = Record<string, unknown> | unknown[];

/**
 * Applies one of Vertex's `partialArgs` to the arguments built so far: the value goes at its
 * `jsonPath` (`$.recipe.ingredients[7].amount`), creating objects and arrays on the way; a
 * `stringValue` for a path that already holds a string continues it (that path's previous piece
 * said `willContinue`).
 */
export function applyPartialArg(root: Record<string, unknown>, arg: GeminiPartialArg): void {
  const keys = parseJsonPath(arg.jsonPath);
  let container: Container = root;
  for (let i = 0; i < keys.length - 1; i++) {
    const key = keys[i];
    const existing = (container as Record<string | number, unknown>)[key];
    if (typeof existing === 'object' && existing !== null) container = existing as Container;
    else {
      const created: Container = typeof keys[i + 1] === 'number' ? [] : {};
      (container as Record<string | number, unknown>)[key] = created;
      container = created;
    }
  }
  const last = keys[keys.length - 1];
  const slot = container as Record<string | number, unknown>;
  if (arg.stringValue !== undefined) {
    const before = slot[last];
    slot[last] = typeof before === 'string' ? before + arg.stringValue : arg.stringValue;
  } else if (arg.numberValue !== undefined) slot[last] = arg.numberValue;
  else if (arg.boolValue !== undefined) slot[last] = arg.boolValue;
  else if ('nullValue' in arg) slot[last] = null;
}

/** `$.a.b[2]['c d']` → `['a', 'b', 2, 'c d']`; anything else is `malformed-event`. */
export function parseJsonPath(path: string): Array<string | number> {
  const keys: Array<string | number> = [];
  const token = /\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]/y;
  if (!path.startsWith('$')) throw badPath(path);
  token.lastIndex = 1;
  while (token.lastIndex < path.length) {
    const match = token.exec(path);
    if (!match) throw badPath(path);
    if (match[1] !== undefined) keys.push(match[1]);
    else if (match[2] !== undefined) keys.push(Number(match[2]));
    else keys.push((match[3] ?? match[4]).replace(/\\(.)/g, '$1'));
  }
  if (keys.length === 0) throw badPath(path);
  return keys;
}

function badPath(path: string): LlmRxError {
  return new LlmRxError(
    'malformed-event',
    `gemini: a streamed function argument has a JSON path llm-rx cannot read: "${path.slice(0, 80)}".`,
    { provider: 'gemini' },
  );
}

/**
 * The `citation` events of a candidate's `groundingMetadata` and `citationMetadata`. Google
 * counts `startIndex` / `endIndex` in UTF-8 bytes of the answer's text; `start` / `end` here are
 * string indices (UTF-16, what `text.slice` takes). One citation per (support, source) pair, then
 * one per source no support names, so no source is dropped.
 */
export function citationsOf(
  grounding: GeminiGrounding | undefined,
  recitations: GeminiCitationMetadata | undefined,
  answer: string,
): CitationEvent[] {
  const citations: CitationEvent[] = [];
  const toIndex = byteOffsetsToIndices(answer);
  const sources = (grounding?.groundingChunks ?? []).map(
    (chunk) => chunk.web ?? chunk.retrievedContext,
  );
  const cited = new Set<number>();
  for (const support of grounding?.groundingSupports ?? []) {
    for (const index of support.groundingChunkIndices ?? []) {
      const source = sources[index];
      if (!source) continue;
      cited.add(index);
      const citation = citationOf(source.uri, source.title);
      const segment = support.segment;
      if (segment?.text !== undefined) citation.text = segment.text;
      if (segment?.endIndex !== undefined) {
        citation.start = toIndex(segment.startIndex ?? 0);
        citation.end = toIndex(segment.endIndex);
      }
      citations.push(citation);
    }
  }
  sources.forEach((source, index) => {
    if (source && !cited.has(index)) citations.push(citationOf(source.uri, source.title));
  });
  for (const source of recitations?.citationSources ?? []) {
    const citation = citationOf(source.uri, source.title);
    if (source.endIndex !== undefined) {
      citation.start = toIndex(source.startIndex ?? 0);
      citation.end = toIndex(source.endIndex);
    }
    citations.push(citation);
  }
  return citations;
}

function citationOf(url: string | undefined, title: string | undefined): CitationEvent {
  const citation: CitationEvent = { type: 'citation' };
  if (url !== undefined) citation.url = url;
  if (title !== undefined) citation.title = title;
  return citation;
}

/** A function from a UTF-8 byte offset into `text` to the string index of the same place. */
function byteOffsetsToIndices(text: string): (byteOffset: number) => number {
  let byte = 0;
  let index = 0;
  return (target) => {
    // Offsets mostly come in order; start over when one goes back.
    if (target < byte) byte = index = 0;
    while (byte < target && index < text.length) {
      const code = text.codePointAt(index)!;
      byte += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
      index += code >= 0x10000 ? 2 : 1;
    }
    return index;
  };
}

/** `usageMetadata` as a `usage` event; none when it holds no count (Vertex sends `trafficType` alone). */
export function usageOf(wire: GeminiUsage): UsageEvent | undefined {
  const usage: UsageEvent = { type: 'usage' };
  if (wire.promptTokenCount !== undefined) usage.inputTokens = wire.promptTokenCount;
  if (wire.candidatesTokenCount !== undefined) usage.outputTokens = wire.candidatesTokenCount;
  if (wire.thoughtsTokenCount !== undefined) usage.reasoningTokens = wire.thoughtsTokenCount;
  if (wire.cachedContentTokenCount !== undefined)
    usage.cachedInputTokens = wire.cachedContentTokenCount;
  if (wire.totalTokenCount !== undefined) usage.totalTokens = wire.totalTokenCount;
  return Object.keys(usage).length > 1 ? usage : undefined;
}

/**
 * Google's `{ error: { code, message, status } }` as `failed`: the RPC `status` name is the code,
 * the HTTP `code` the status; retryable for 408, 409, 429, 5xx and the transient status names.
 */
export function geminiFailed(error: GeminiError): StreamEvent {
  const code = error.status || (error.code !== undefined ? String(error.code) : 'provider-error');
  const message = error.message || 'Gemini reported an error inside the stream.';
  const retryable =
    (error.code !== undefined && isRetryableHttpStatus(error.code)) ||
    (error.status !== undefined && RETRYABLE_STATUSES.has(error.status));
  return failedEvent(code, message, retryable, { provider: 'gemini', status: error.code });
}
