import { EventStreamCodec } from '@smithy/eventstream-codec';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const codec = new EventStreamCodec(
  (bytes) => decoder.decode(bytes),
  (text) => encoder.encode(text),
);

/** One frame of `application/vnd.amazon.eventstream`, with real prelude and message CRCs. */
export function eventStreamFrame(
  headers: Record<string, string>,
  body: string | Uint8Array = '',
): Uint8Array {
  const wireHeaders: Parameters<typeof codec.encode>[0]['headers'] = {};
  for (const name in headers) wireHeaders[name] = { type: 'string', value: headers[name] };
  return codec.encode({
    headers: wireHeaders,
    body: typeof body === 'string' ? encoder.encode(body) : body,
  });
}

/**
 * A Bedrock event as the wire frames it: `{ contentBlockDelta: {…} }` → `:event-type`
 * `contentBlockDelta`, its value as the JSON payload; a name ending in `Exception` →
 * `:message-type` `exception` with `:exception-type`.
 */
export function bedrockFrame(event: Record<string, unknown>): Uint8Array {
  const [name] = Object.keys(event);
  const exception = /Exception$/.test(name);
  const headers: Record<string, string> = exception
    ? { ':message-type': 'exception', ':exception-type': name }
    : { ':message-type': 'event', ':event-type': name };
  headers[':content-type'] = 'application/json';
  return eventStreamFrame(headers, JSON.stringify(event[name]));
}

/** The frames of several events, back to back, as one body. */
export function bedrockBody(events: Array<Record<string, unknown>>): Uint8Array {
  const frames = events.map(bedrockFrame);
  const body = new Uint8Array(frames.reduce((sum, frame) => sum + frame.length, 0));
  let offset = 0;
  for (const frame of frames) {
    body.set(frame, offset);
    offset += frame.length;
  }
  return body;
}
