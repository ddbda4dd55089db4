import * as z from 'zod/mini';
import { type FinishReason, type UsageEvent } from '../events';

// The parts of Cohere's v2 chat stream (`POST /v2/chat`, `stream: true`) decodeCohere reads.
// Every event is `{ type, index?, delta: { message: … } }`; loose objects, so new fields pass.

const text = z.nullish(z.string());
const count = z.nullish(z.number());

/** `message-start`: the response id. */
export const CohereMessageStart = z.looseObject({ id: text });

/** `content-start`: a content part at `index` begins, `thinking` or `text`. */
export const CohereContentStart = z.looseObject({
  index: z.int(),
  delta: z.nullish(
    z.looseObject({
      message: z.nullish(
        z.looseObject({ content: z.nullish(z.looseObject({ type: text, text, thinking: text })) }),
      ),
    }),
  ),
});

/** `content-delta`: a piece of the part at `index`: `text` or `thinking`. */
export const CohereContentDelta = CohereContentStart;

/** `tool-plan-delta`: a piece of the model's plan before it calls tools. */
export const CohereToolPlanDelta = z.looseObject({
  delta: z.looseObject({ message: z.looseObject({ tool_plan: z.string() }) }),
});

/** `tool-call-start` / `tool-call-delta`: the call at `index`, its id and name, then arguments. */
export const CohereToolCall = z.looseObject({
  index: z.int(),
  delta: z.nullish(
    z.looseObject({
      message: z.nullish(
        z.looseObject({
          tool_calls: z.nullish(
            z.looseObject({
              id: text,
              function: z.nullish(z.looseObject({ name: text, arguments: text })),
            }),
          ),
        }),
      ),
    }),
  ),
});

/** A source a citation points at: a document (`id`, `url`, `title`) or a tool output. */
const CohereSource = z.looseObject({
  type: text,
  id: text,
  document: z.nullish(z.looseObject({ id: text, url: text, title: text })),
});

/** `citation-start`: a span of the answer (`start`, `end`, `text`) and its sources. */
export const CohereCitationStart = z.looseObject({
  delta: z.looseObject({
    message: z.looseObject({
      citations: z.looseObject({
        start: count,
        end: count,
        text,
        sources: z.nullish(z.array(CohereSource)),
      }),
    }),
  }),
});

const Tokens = z.nullish(z.looseObject({ input_tokens: count, output_tokens: count }));

/** `message-end`: why the model stopped, usage, and an error message when it failed. */
export const CohereMessageEnd = z.looseObject({
  delta: z.nullish(
    z.looseObject({
      finish_reason: text,
      error: text,
      usage: z.nullish(
        z.looseObject({ billed_units: Tokens, tokens: Tokens, cached_tokens: count }),
      ),
    }),
  ),
});
export type CohereMessageEnd = z.infer<typeof CohereMessageEnd>;

/** The event types decodeCohere knows; a stream is told to be Cohere by them. */
export const COHERE_EVENT_TYPES = new Set([
  'message-start',
  'content-start',
  'content-delta',
  'content-end',
  'tool-plan-delta',
  'tool-call-start',
  'tool-call-delta',
  'tool-call-end',
  'citation-start',
  'citation-end',
  'message-end',
  'debug',
]);

const FINISH_REASONS: Record<string, FinishReason> = {
  COMPLETE: 'stop',
  STOP_SEQUENCE: 'stop',
  MAX_TOKENS: 'length',
  TOOL_CALL: 'tool-calls',
  ERROR: 'error',
  TIMEOUT: 'error',
};

/** Our finish reason for Cohere's `finish_reason`; anything unlisted is `other`. */
export function cohereFinishReasonOf(raw: string): FinishReason {
  return Object.hasOwn(FINISH_REASONS, raw) ? FINISH_REASONS[raw] : 'other';
}

/**
 * The `usage` of `message-end`: `tokens` (what the model read and wrote), `cached_tokens` →
 * cachedInputTokens. `billed_units` is what Cohere bills (a different measure: 8 billed
 * input units for 1394 tokens read), so it is not reported as tokens. Undefined without counts.
 */
export function cohereUsageOf(end: CohereMessageEnd): UsageEvent | undefined {
  const wire = end.delta?.usage;
  if (!wire) return undefined;
  const tokens = wire.tokens;
  const usage: UsageEvent = { type: 'usage' };
  if (tokens?.input_tokens != null) usage.inputTokens = tokens.input_tokens;
  if (tokens?.output_tokens != null) usage.outputTokens = tokens.output_tokens;
  if (wire.cached_tokens != null) usage.cachedInputTokens = wire.cached_tokens;
  if (usage.inputTokens !== undefined && usage.outputTokens !== undefined)
    usage.totalTokens = usage.inputTokens + usage.outputTokens;
  return Object.keys(usage).length > 1 ? usage : undefined;
}
