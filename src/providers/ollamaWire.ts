import { z } from 'zod';

// One line of Ollama's native `/api/chat` NDJSON stream, as far as decodeOllama reads it.
// Timing fields (`created_at`, `*_duration`) and anything newer pass unchecked.

/** A whole tool call: Ollama sends it in one line, arguments as an object. */
export const OllamaToolCall = z.looseObject({
  id: z.string().nullish(),
  function: z.looseObject({
    index: z.number().int().nullish(),
    name: z.string(),
    arguments: z.unknown().optional(),
  }),
});
export type OllamaToolCall = z.infer<typeof OllamaToolCall>;

/** `message` of a line; the fields it knows are listed in `KNOWN_MESSAGE_FIELDS`. */
export const OllamaMessage = z.looseObject({
  content: z.string().nullish(),
  thinking: z.string().nullish(),
  tool_calls: z.array(OllamaToolCall).nullish(),
});

/** One NDJSON line: a piece of the message, the final `done` line, or `{ error }`. */
export const OllamaLine = z.looseObject({
  model: z.string().nullish(),
  message: OllamaMessage.nullish(),
  done: z.boolean().nullish(),
  done_reason: z.string().nullish(),
  prompt_eval_count: z.number().nullish(),
  eval_count: z.number().nullish(),
  error: z.unknown().optional(),
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
