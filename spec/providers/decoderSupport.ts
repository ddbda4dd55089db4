import type { StreamEvent } from '../../src/events';
import type { SseMessage } from '../../src/source/fromSse';
import type { Emit, WireDecoder } from '../../src/providers/decoder';

/**
 * Runs a pure decoder over payload objects, one SSE message each (`named`: the message's event
 * name is the payload's `type`, as Anthropic sends it), and returns what it emitted.
 */
export function decodePayloads(
  decoder: WireDecoder<SseMessage>,
  payloads: object[],
  { complete = true, named = false } = {},
): StreamEvent[] {
  const events: StreamEvent[] = [];
  const emit: Emit = (event) => events.push(event);
  for (const payload of payloads) {
    const data = JSON.stringify(payload);
    decoder.next(named ? { event: (payload as { type: string }).type, data } : { data }, emit);
  }
  if (complete) decoder.complete(emit);
  return events;
}

/** The message of the SyntaxError this runtime's JSON.parse throws for `text`. */
export function jsonErrorOf(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  return '';
}
