import * as z from 'zod/mini';

// One line of Ollama's native `/api/chat` NDJSON stream, as far as decodeOllama reads it.
// Timing fields (`created_at`, `*_duration`) and anything newer pass unchecked.

/** A whole tool call: Ollama sends it in one line, arguments as an object. */
export const OllamaToolCall = z.looseObject({
  id: z.nullish(z.string()),
  function: z.looseObject({
    index: z.nullish(z.int()),
    name: z.string(),
    arguments: z.optional(z.unknown()),
  }),
});
export type OllamaToolCall = z.infer<typeof OllamaToolCall>;

/** `message` of a line; the fields it knows are listed in `KNOWN_MESSAGE_FIELDS`. */
export const OllamaMessage = z.looseObject({
  content: z.nullish(z.string()),
  thinking: z.nullish(z.string()),
  tool_calls: z.nullish(z.array(OllamaToolCall)),
});

/** One NDJSON line: a piece of the message, the final `done` line, or `{ error }`. */
export const OllamaLine = z.looseObject({
  model: z.nullish(z.string()),
  message: z.nullish(OllamaMessage),
  done: z.nullish(z.boolean()),
  done_reason: z.nullish(z.string()),
  prompt_eval_count: z.nullish(z.number()),
  eval_count: z.nullish(z.number()),
  error: z.optional(z.unknown()),
});
export type OllamaLine = z.infer<typeof OllamaLine>;

/** `message` fields decoded or knowingly ignored (`role` is always assistant, `images` input). */
export const KNOWN_MESSAGE_FIELDS = new Set([
  'role',
  'content',
  'thinking',
  'tool_calls',
  'images',
  'tool_name',
]);
