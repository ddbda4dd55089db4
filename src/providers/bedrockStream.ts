import type { Subscriber, Subscription } from 'rxjs';
import type { StreamEvent } from '../events';
import type { ByteInput } from '../source/byteSource';
import { fromEventStream } from '../source/fromEventStream';
import { emptyBody } from '../source/unexpectedAnswer';
import { createBedrockDecoder } from './bedrock';

/**
 * streamEvents' path for `application/vnd.amazon.eventstream` bodies: `fromEventStream` →
 * the Bedrock decoder, into `subscriber`. A body without a single frame is `stream-closed`,
 * as for the other wires; faults go to `subscriber.error` (ensureTerminal makes them `failed`).
 */
export function decodeEventStream(
  input: ByteInput,
  options: { maxBufferSize?: number },
  subscriber: Subscriber<StreamEvent>,
): Subscription {
  const decoder = createBedrockDecoder();
  const emit = (event: StreamEvent) => subscriber.next(event);
  let messages = 0;
  const sourceOptions = options.maxBufferSize === undefined ? {} : options;
  return fromEventStream(input, sourceOptions).subscribe({
    next(message) {
      messages++;
      try {
        decoder.next(message, emit);
      } catch (error) {
        subscriber.error(error);
      }
    },
    error: (error) => subscriber.error(error),
    complete() {
      try {
        if (messages === 0) emit(emptyBody());
        else decoder.complete(emit);
        subscriber.complete();
      } catch (error) {
        subscriber.error(error);
      }
    },
  });
}
