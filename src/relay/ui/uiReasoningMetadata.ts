import type { ReasoningEndEvent } from '../../events';
import type { UIProviderMetadata } from './uiMessageChunk';

/**
 * The opaque fields of a `reasoning-end` (signature, redacted or encrypted reasoning) as the
 * `providerMetadata` of its UI `reasoning-end` chunk, under the names the AI SDK's own providers
 * use, so that a UI message sent back through `convertToModelMessages` replays them:
 * - Anthropic: `{ anthropic: { signature } }` for signed thinking, `{ anthropic: { redactedData } }`
 *   for redacted thinking;
 * - OpenAI Responses: `{ openai: { itemId, reasoningEncryptedContent } }` (the item id is the
 *   entry id before its first `:`);
 * - any other source: `{ llmrx: { signature?, redacted?, format? } }`.
 * Undefined when the entry carries nothing opaque.
 */
export function reasoningMetadata(
  provider: string | undefined,
  event: ReasoningEndEvent,
): UIProviderMetadata | undefined {
  const { signature, redacted = [], format } = event;
  if (signature === undefined && redacted.length === 0) return undefined;
  if (provider === 'anthropic' && redacted.length <= 1) {
    return {
      anthropic: redacted.length === 1 ? { redactedData: redacted[0] } : { signature: signature! },
    };
  }
  if (provider === 'openai-responses' && signature === undefined && redacted.length === 1) {
    return { openai: { itemId: event.id.split(':')[0], reasoningEncryptedContent: redacted[0] } };
  }
  const fields: Record<string, string | string[]> = {};
  if (signature !== undefined) fields.signature = signature;
  if (redacted.length > 0) fields.redacted = [...redacted];
  if (format !== undefined) fields.format = format;
  return { llmrx: fields };
}
