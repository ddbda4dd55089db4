import type { Subscriber, Subscription } from 'rxjs';
import type { StreamEvent } from '../events';
import type { CheckedInput } from '../source/byteSource';
import { eventStreamMessagesOf } from '../source/fromEventStream';
import { emptyBody } from '../source/unexpectedAnswer';
import { createBedrockDecoder } from './bedrock';

/**
 * streamEvents' path for `application/vnd.amazon.eventstream` bodies: `fromEventStream` (past
 * the checks streamEvents made) → the Bedrock decoder, into `subscriber`. A body without a
 * single frame is `stream-closed`, as for the other wires; faults go to `subscriber.error`
 * (ensureTerminal makes them `failed`).
 */
export function decodeEventStream(
  input: CheckedInput,
  options: { maxBufferSize: number },
  subscriber: Subscriber<StreamEvent>,
): Subscription {
  const decoder = createBedrockDecoder();
  const emit = (event: StreamEvent) => subscriber.next(event);
  let messages = 0;
  return eventStreamMessagesOf(input, options).subscribe({
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
