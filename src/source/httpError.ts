/**
 * What a non-2xx answer says, read the way a person would: the provider's own error message
 * out of its JSON body, and how long it asked us to wait (`Retry-After`).
 */

/** Longest provider message put into a `failed` message; longer ones are cut with `…`. */
const MAX_MESSAGE_LENGTH = 500;

/**
 * The provider's own message in an error body, or undefined when the body is not JSON or
 * holds none. Reads, in this order: `error.message` (OpenAI, OpenRouter, Anthropic, Groq,
 * Gemini's `[{ error }]`), `error` as a string (Ollama), `message` (Mistral, vLLM), `detail`
 * (FastAPI servers: a string, or a list of `{ msg }`).
 */
export function providerMessageOf(body: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (Array.isArray(value)) value = value[0];
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const error = record.error;
  const message =
    (typeof error === 'object' && error !== null
      ? stringOf((error as Record<string, unknown>).message)
      : stringOf(error)) ??
    stringOf(record.message) ??
    detailOf(record.detail);
  if (message === undefined) return undefined;
  return message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH)}…` : message;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** FastAPI's `detail`: a string, or validation errors `[{ loc, msg, type }]`. */
function detailOf(detail: unknown): string | undefined {
  if (!Array.isArray(detail)) return stringOf(detail);
  const messages = detail
    .map((entry) => stringOf((entry as { msg?: unknown } | null)?.msg))
    .filter((msg): msg is string => msg !== undefined);
  return messages.length > 0 ? messages.join('; ') : undefined;
}

/**
 * How long the provider asked to wait, in ms, from `retry-after-ms` (sent by OpenAI, read by
 * its SDK) or `Retry-After` (RFC 9110 §10.2.3: delay-seconds or an HTTP date). An HTTP date is
 * measured from the response's own `Date` header, so the result depends only on the response;
 * without one, from the local clock. A date in the past is 0; anything unreadable, undefined.
 */
export function retryAfterMsOf(headers: Headers): number | undefined {
  const milliseconds = headers.get('retry-after-ms')?.trim();
  if (milliseconds && /^\d+(\.\d+)?$/.test(milliseconds)) return Math.ceil(Number(milliseconds));
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  // HTTP dates (IMF-fixdate and the two obsolete forms) all begin with a day name.
  if (!/^[A-Za-z]{3}/.test(value)) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  const sent = Date.parse(headers.get('date') ?? '');
  return Math.max(0, at - (Number.isNaN(sent) ? Date.now() : sent));
}
