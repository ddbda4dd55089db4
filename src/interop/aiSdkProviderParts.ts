import type { CitationEvent, ReasoningEndEvent, StreamEvent } from '../events';
import { isString, messageOf, type KnownTool } from './aiSdkValues';

// What the AI SDK's providers carry beside the text: opaque reasoning fields in
// `providerMetadata`, `source` parts, and tools the provider ran itself (`providerExecuted`).

/** The opaque fields of one reasoning part, gathered from its start, deltas and end. */
export type ReasoningOpaque = Pick<ReasoningEndEvent, 'signature' | 'redacted' | 'format'>;

/** Per provider name, a JSON object: the AI SDK's `providerMetadata`. */
type ProviderMetadata = Record<string, Record<string, unknown> | undefined>;

/**
 * Adds what a reasoning part's `providerMetadata` holds to `opaque`, whatever the provider:
 * `signature` (Anthropic, Bedrock) or `thoughtSignature` (Google) → `signature`; `redactedData`
 * (Anthropic, Bedrock) or `reasoningEncryptedContent` (OpenAI) → `redacted`; and llm-rx's own
 * `llmrx: { signature, redacted, format }` (what `toUIMessageStream` writes for other wires).
 * A later value of the same field replaces an earlier one (OpenAI repeats its encrypted content
 * on the end with the final value).
 */
export function gatherOpaque(opaque: ReasoningOpaque, metadata: unknown): void {
  if (typeof metadata !== 'object' || metadata === null) return;
  for (const fields of Object.values(metadata as ProviderMetadata)) {
    if (typeof fields !== 'object' || fields === null) continue;
    const signature = fields.signature ?? fields.thoughtSignature;
    if (isString(signature) && signature !== '') opaque.signature = signature;
    const redacted = fields.redactedData ?? fields.reasoningEncryptedContent ?? fields.redacted;
    if (isString(redacted) && redacted !== '') opaque.redacted = [redacted];
    else if (Array.isArray(redacted) && redacted.every(isString)) opaque.redacted = [...redacted];
    if (isString(fields.format)) opaque.format = fields.format;
  }
}

/** A `source` part (`sourceType` `url` or `document`) as a `citation`; undefined for neither. */
export function citationOfSource(part: Record<string, unknown>): CitationEvent | undefined {
  const event: CitationEvent = { type: 'citation' };
  if (isString(part.id)) event.id = part.id;
  if (part.sourceType === 'url' && isString(part.url)) event.url = part.url;
  else if (part.sourceType !== 'document') return undefined;
  if (isString(part.title)) event.title = part.title;
  else if (isString(part.filename)) event.title = part.filename;
  return event;
}

/**
 * The event of a part of a tool the provider ran itself: its `tool-call` → `tool-start` (`args`
 * = its input), `tool-result` → `tool-end` (a preliminary one → `tool-update`), `tool-error` →
 * `tool-end` with `isError`, all `providerExecuted`. Its input parts carry nothing more (the
 * call has the whole input): undefined.
 */
export function providerToolEvent(
  part: KnownTool,
  id: string,
  name: string,
): StreamEvent | undefined {
  switch (part.type) {
    case 'tool-call':
      return { type: 'tool-start', id, name, args: part.input ?? null, providerExecuted: true };
    case 'tool-result':
      if (part.preliminary) return { type: 'tool-update', id, name, output: part.output };
      return { type: 'tool-end', id, name, result: part.output ?? null, providerExecuted: true };
    case 'tool-error':
      return {
        type: 'tool-end',
        id,
        name,
        result: messageOf(part.error),
        isError: true,
        providerExecuted: true,
      };
    default:
      return undefined;
  }
}
