import type { OperatorFunction } from 'rxjs';
import { LlmRxError, type WarningCode } from '../errors';
import type { StreamEvent, WarningEvent } from '../events';
import { createOperator } from '../internal/createOperator';
import { excerpt } from '../source/excerpt';

/** Where a decoder puts the events it decodes. */
export type Emit = (event: StreamEvent) => void;

/**
 * The pure core of one wire format's decoder: state for one stream, no RxJS. `next` decodes
 * one wire message; `complete` emits what the wire left open at the end of the source
 * (pending tool calls, open reasoning or text). A decoder emits a terminal only for an explicit
 * end on the wire (an error object, `message_stop`, `response.completed`, `[DONE]` after a
 * finish); otherwise ensureTerminal decides. Malformed input throws an LlmRxError.
 */
export interface WireDecoder<In> {
  next(message: In, emit: Emit): void;
  complete(emit: Emit): void;
}

/** Wraps a decoder factory as an operator: one fresh decoder state per subscription. */
export function decoderOperator<In>(
  createDecoder: () => WireDecoder<In>,
): OperatorFunction<In, StreamEvent> {
  return createOperator<In, StreamEvent>(({ subscriber }) => {
    const decoder = createDecoder();
    const emit: Emit = (event) => subscriber.next(event);
    return {
      next: (message) => decoder.next(message, emit),
      complete() {
        decoder.complete(emit);
        subscriber.complete();
      },
    };
  });
}

/** Emits a warning the first time a (code, name) pair is seen in a stream; later ones do nothing. */
export type WarnOnce = (
  emit: Emit,
  code: WarningCode,
  name: string,
  message: string,
  detail?: unknown,
) => void;

/**
 * Reports each unknown name once per stream: the first `warn(emit, 'unknown-field',
 * 'delta.foo', …)` emits a warning, later ones with the same code and name do nothing.
 */
export function createWarnOnce(): WarnOnce {
  const seen = new Set<string>();
  return (emit, code, name, message, detail) => {
    const key = `${code}\u0000${name}`;
    if (seen.has(key)) return;
    seen.add(key);
    const warning: WarningEvent = { type: 'warning', code, message };
    if (detail !== undefined) warning.detail = detail;
    emit(warning);
  };
}

/**
 * Parses one data payload as JSON, or throws `malformed-event` with a short excerpt: enough to
 * recognise the payload, never the whole of it.
 */
export function parseJsonPayload(data: string, provider: string): unknown {
  try {
    return JSON.parse(data);
  } catch (error) {
    throw new LlmRxError(
      'malformed-event',
      `${provider}: an event's data is not valid JSON (${(error as Error).message}): ${excerpt(data)}`,
      { provider },
    );
  }
}
