import type { OperatorFunction } from 'rxjs';
import type { StreamEvent } from '../events';
import { createOperator } from '../internal/createOperator';
import { createTurnBuilder, type Turn } from './turnBuilder';

/**
 * Reduces a stream of events to one {@link Turn}: its text, reasoning entries (with their
 * signatures and encrypted payloads, kept as they came), tool calls, citations, silent token,
 * finish reason, usage, warnings and event counts.
 *
 * ```
 * source:  -r-t-f-(c|)        r = reasoning-delta, t = text-delta, f = finish, c = completed
 * result:  -------(T|)        T = { outcome: 'completed', text, reasoning: [...], … }
 * ```
 *
 * - The turn is emitted as soon as the terminal arrives; the output then completes and the
 *   source is released (nothing after a terminal belongs to the turn).
 * - A source that completes without a terminal still yields a turn, with the terminal
 *   ensureTerminal would have given it (from the last `finish`, else `failed` `stream-closed`).
 * - A turn with reasoning but no text is `completed` with `reasoningOnly: true`: never an
 *   error. Check for an empty turn with `assertTurn`.
 * - A source error passes through as an error, as `reduce` does (`streamEvents` never errors).
 * - Read it from the source stage (`streamEvents`, `normalizeReasoning`, `suppressSilent`):
 *   `block` events of bufferChunk are counted but not joined into `text`.
 *
 * @example
 * ```ts
 * const turn = await firstValueFrom(streamEvents(response).pipe(collectTurn()));
 * assertTurn(turn);
 * console.log(turn.reasoningOnly ? turn.reasoning.map((r) => r.text).join('') : turn.text);
 * ```
 */
export function collectTurn(): OperatorFunction<StreamEvent, Turn> {
  return createOperator<StreamEvent, Turn>(({ subscriber, unsubscribeSource }) => {
    const builder = createTurnBuilder();
    const emitTurn = () => {
      subscriber.next(builder.build());
      subscriber.complete();
    };
    return {
      next(event) {
        if (!builder.add(event)) return;
        unsubscribeSource();
        emitTurn();
      },
      complete: emitTurn,
    };
  });
}
