import * as z from 'zod/mini';
import { LlmRxError } from '../errors';
import { StreamEvent } from '../events';
import type { SseMessage } from '../source/fromSse';
import { excerpt } from '../source/excerpt';
import { decoderOperator, parseJsonPayload, type WireDecoder } from './decoder';
import { zodMessages } from '../internal/zodMessages';

/**
 * The decoder of llm-rx's own SSE wire (`toSseStream`): each message's data is one
 * StreamEvent as JSON, validated by the zod schema. Events pass as they are, the terminal
 * included; heartbeats (`: ping` comments) never reach a decoder.
 *
 * - Data that is not JSON, or JSON that is not a valid StreamEvent → `malformed-event`,
 *   naming what was wrong.
 */
export function createLlmRxDecoder(): WireDecoder<SseMessage> {
  return {
    next(message, emit) {
      const parsed = StreamEvent.safeParse(parseJsonPayload(message.data, 'llm-rx'), zodMessages);
      if (!parsed.success) {
        throw new LlmRxError(
          'malformed-event',
          `An llm-rx event is not a valid StreamEvent (${z.prettifyError(parsed.error).replace(/\n/g, ' ')}): ` +
            excerpt(message.data),
          { provider: 'llm-rx' },
        );
      }
      emit(parsed.data);
    },
    complete: () => undefined,
  };
}

/**
 * Decodes llm-rx's own SSE wire (what `toSseStream` writes) back into events.
 *
 * ```
 * source:  -{data:'{"type":"text-delta",…}'}-{data:'{"type":"completed"}'}|
 * result:  -text-delta----------------------completed|
 * ```
 *
 * @example
 * ```ts
 * fromSse(response).pipe(decodeLlmRx(), ensureTerminal())
 * ```
 */
export const decodeLlmRx = () => decoderOperator(createLlmRxDecoder);

/** True when the data of `message` is a valid StreamEvent: the first message of llm-rx's wire. */
export function isLlmRxMessage(message: SseMessage): boolean {
  if (message.event !== undefined) return false;
  try {
    return StreamEvent.safeParse(JSON.parse(message.data)).success;
  } catch {
    return false;
  }
}
