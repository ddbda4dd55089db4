import * as z from 'zod/mini';
import { LlmRxError } from '../errors';
import { zodMessages } from '../internal/zodMessages';

/**
 * Validates one wire payload against the schema of what a decoder reads, or throws
 * `malformed-event` naming the event and what was wrong (never the payload itself).
 */
export function readWire<T extends z.ZodMiniType>(
  schema: T,
  value: unknown,
  provider: string,
  what: string,
): z.infer<T> {
  const result = schema.safeParse(value, zodMessages);
  if (result.success) return result.data;
  throw new LlmRxError(
    'malformed-event',
    `${provider}: a "${what}" event does not have the expected shape: ${z.prettifyError(result.error)}`,
    { provider },
  );
}

/**
 * The `type` of a payload, read by hand on the hot path (a schema parse would copy every
 * payload just to read one field). `fallback` (the SSE event name) stands in when the payload
 * has no `type`; a payload that is not an object, or has no type at all, is `malformed-event`.
 */
export function wireTypeOf(payload: unknown, provider: string, fallback?: string): string {
  const type = isRecord(payload) ? payload.type : undefined;
  if (typeof type === 'string') return type;
  if (isRecord(payload) && type === undefined && fallback !== undefined) return fallback;
  throw new LlmRxError(
    'malformed-event',
    `${provider}: an event is not an object with a string "type" (SSE event "${fallback ?? ''}").`,
    { provider },
  );
}

/** True for a non-null, non-array object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
