import * as z from 'zod/mini';

// One `data:` payload of Gemini's `:streamGenerateContent?alt=sse` (Gemini API and Vertex AI), as
// far as decodeGemini reads it. Safety scores, modality details and anything newer pass unchecked.

/** One piece of Vertex's streamed function arguments: a value at a JSON path (RFC 9535). */
export const GeminiPartialArg = z.looseObject({
  jsonPath: z.string(),
  stringValue: z.optional(z.string()),
  numberValue: z.optional(z.number()),
  boolValue: z.optional(z.boolean()),
  nullValue: z.optional(z.unknown()),
  willContinue: z.optional(z.boolean()),
});
export type GeminiPartialArg = z.infer<typeof GeminiPartialArg>;

/** A function call: whole (`args`), or Vertex's streamed form (`partialArgs`, `willContinue`). */
export const GeminiFunctionCall = z.looseObject({
  id: z.optional(z.string()),
  name: z.optional(z.string()),
  args: z.optional(z.unknown()),
  partialArgs: z.optional(z.array(GeminiPartialArg)),
  willContinue: z.optional(z.boolean()),
});
export type GeminiFunctionCall = z.infer<typeof GeminiFunctionCall>;

/** Code the model ran in Google's sandbox, and what it printed. */
export const GeminiExecutableCode = z.looseObject({
  id: z.optional(z.string()),
  language: z.optional(z.string()),
  code: z.optional(z.string()),
});
export type GeminiExecutableCode = z.infer<typeof GeminiExecutableCode>;
export const GeminiCodeExecutionResult = z.looseObject({
  id: z.optional(z.string()),
  outcome: z.optional(z.string()),
  output: z.optional(z.string()),
});
export type GeminiCodeExecutionResult = z.infer<typeof GeminiCodeExecutionResult>;

/** One part of `content.parts`; the fields it knows are listed in `KNOWN_PART_FIELDS`. */
export const GeminiPart = z.looseObject({
  text: z.optional(z.string()),
  thought: z.optional(z.boolean()),
  thoughtSignature: z.optional(z.string()),
  functionCall: z.optional(GeminiFunctionCall),
  executableCode: z.optional(GeminiExecutableCode),
  codeExecutionResult: z.optional(GeminiCodeExecutionResult),
});
export type GeminiPart = z.infer<typeof GeminiPart>;

/** `groundingMetadata`: the sources (chunks) and which bytes of the text each supports. */
export const GeminiGrounding = z.looseObject({
  groundingChunks: z.optional(
    z.array(
      z.looseObject({
        web: z.optional(
          z.looseObject({ uri: z.optional(z.string()), title: z.optional(z.string()) }),
        ),
        retrievedContext: z.optional(
          z.looseObject({ uri: z.optional(z.string()), title: z.optional(z.string()) }),
        ),
      }),
    ),
  ),
  groundingSupports: z.optional(
    z.array(
      z.looseObject({
        segment: z.optional(
          z.looseObject({
            startIndex: z.optional(z.number()),
            endIndex: z.optional(z.number()),
            text: z.optional(z.string()),
          }),
        ),
        groundingChunkIndices: z.optional(z.array(z.int())),
      }),
    ),
  ),
});
export type GeminiGrounding = z.infer<typeof GeminiGrounding>;

/** `citationMetadata`: recitation sources, byte offsets into the text. */
export const GeminiCitationMetadata = z.looseObject({
  citationSources: z.optional(
    z.array(
      z.looseObject({
        uri: z.optional(z.string()),
        title: z.optional(z.string()),
        startIndex: z.optional(z.number()),
        endIndex: z.optional(z.number()),
      }),
    ),
  ),
});
export type GeminiCitationMetadata = z.infer<typeof GeminiCitationMetadata>;

const SafetyRatings = z.optional(z.array(z.looseObject({ blocked: z.optional(z.boolean()) })));

/** One candidate; llm-rx decodes the first (`candidateCount` is 1 unless asked otherwise). */
export const GeminiCandidate = z.looseObject({
  index: z.optional(z.int()),
  content: z.optional(z.looseObject({ parts: z.optional(z.array(GeminiPart)) })),
  finishReason: z.optional(z.string()),
  finishMessage: z.optional(z.string()),
  safetyRatings: SafetyRatings,
  groundingMetadata: z.optional(GeminiGrounding),
  citationMetadata: z.optional(GeminiCitationMetadata),
});
export type GeminiCandidate = z.infer<typeof GeminiCandidate>;

/** Token counts; every chunk repeats the totals so far. */
export const GeminiUsage = z.looseObject({
  promptTokenCount: z.optional(z.number()),
  candidatesTokenCount: z.optional(z.number()),
  thoughtsTokenCount: z.optional(z.number()),
  cachedContentTokenCount: z.optional(z.number()),
  totalTokenCount: z.optional(z.number()),
});
export type GeminiUsage = z.infer<typeof GeminiUsage>;

/** Google's error object: `code` the HTTP status, `status` the RPC status name. */
export const GeminiError = z.looseObject({
  code: z.optional(z.number()),
  message: z.optional(z.string()),
  status: z.optional(z.string()),
});
export type GeminiError = z.infer<typeof GeminiError>;

/** One SSE payload: a chunk of the response, or `{ error }`. */
export const GeminiChunk = z.looseObject({
  candidates: z.optional(z.array(GeminiCandidate)),
  usageMetadata: z.optional(GeminiUsage),
  modelVersion: z.optional(z.string()),
  responseId: z.optional(z.string()),
  promptFeedback: z.optional(
    z.looseObject({
      blockReason: z.optional(z.string()),
      blockReasonMessage: z.optional(z.string()),
      safetyRatings: SafetyRatings,
    }),
  ),
  error: z.optional(GeminiError),
});
export type GeminiChunk = z.infer<typeof GeminiChunk>;

/** Chunk fields decoded or knowingly left alone (`createTime` is a timestamp). */
export const KNOWN_CHUNK_FIELDS = new Set([
  'candidates',
  'usageMetadata',
  'modelVersion',
  'responseId',
  'promptFeedback',
  'error',
  'createTime',
  'modelStatus',
]);

/**
 * Candidate fields decoded or knowingly left alone: scores and log-probabilities are not part of
 * the answer. `urlContextMetadata` is not here: it says which URLs the URL context tool fetched,
 * which llm-rx reports once as `unknown-field` (the sources it used arrive as `groundingMetadata`).
 */
export const KNOWN_CANDIDATE_FIELDS = new Set([
  'index',
  'content',
  'finishReason',
  'finishMessage',
  'safetyRatings',
  'groundingMetadata',
  'citationMetadata',
  'tokenCount',
  'avgLogprobs',
  'logprobsResult',
]);

/** Part fields decoded or knowingly left alone (`partMetadata`, `videoMetadata` describe input). */
export const KNOWN_PART_FIELDS = new Set([
  'text',
  'thought',
  'thoughtSignature',
  'functionCall',
  'executableCode',
  'codeExecutionResult',
  'partMetadata',
  'videoMetadata',
]);

/** Finish reasons of a content filter (text and image): the answer was cut by policy. */
const CONTENT_FILTER_REASONS = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);

/** Our finish reason for Gemini's `finishReason`; anything unlisted is `other`, raw kept. */
export function geminiFinishReason(
  raw: string,
  calledTools: boolean,
): 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other' {
  if (raw === 'STOP') return calledTools ? 'tool-calls' : 'stop';
  if (raw === 'MAX_TOKENS') return 'length';
  if (CONTENT_FILTER_REASONS.has(raw)) return 'content-filter';
  // The model wrote a call that does not parse: a retry usually succeeds.
  if (raw === 'MALFORMED_FUNCTION_CALL') return 'error';
  return 'other';
}

/** RPC status names worth retrying, beside the HTTP codes (408, 409, 429, 5xx). */
export const RETRYABLE_STATUSES = new Set([
  'RESOURCE_EXHAUSTED',
  'UNAVAILABLE',
  'INTERNAL',
  'DEADLINE_EXCEEDED',
  'ABORTED',
]);
