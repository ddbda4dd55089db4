import type { MonoTypeOperatorFunction } from 'rxjs';
import type { StreamEvent, TextEndEvent } from '../events';
import { createOperator } from '../internal/createOperator';
import { mergeResentText } from '../text/mergeResentText';

/**
 * Makes text only ever grow: a `text-end` that resends the full text adds only what was not
 * streamed yet, as a `text-delta` before the `text-end`, so a reply is never doubled.
 *
 * ```
 * source:   -a-(e|)        a = text-delta "Hello "     e = text-end text "Hello world"
 * result:   -a-(xe|)       x = text-delta "world"      e = text-end text "Hello world"
 * ```
 *
 * Per text id, against everything streamed for it (all its `text-delta`s, joined):
 * - resent text equal to or contained in it: adds nothing;
 * - extending it: adds the missing suffix;
 * - starting with the last ≥ 10 streamed characters: adds the rest after that overlap;
 * - anything else: a `warning` `text-end-divergent` (with the id and both lengths, never the
 *   text), then the whole resent text appended as it is.
 *
 * The `text-end` then carries, as `text`, the full text the deltas now add up to, so a second
 * monotonicText changes nothing. A text id keeps its text after it ends: a repeated `text-end`
 * adds nothing. `text-end` without `text` and every other event pass unchanged. No timers.
 *
 * @example
 * ```ts
 * foreignEvents$.pipe(monotonicText(), bufferChunk({ minChars: 800, maxChars: 4096 }))
 * ```
 */
export function monotonicText(): MonoTypeOperatorFunction<StreamEvent> {
  return createOperator<StreamEvent, StreamEvent>(({ subscriber }) => {
    // Pieces per id, joined only when a text-end needs the whole: no quadratic concatenation.
    const streamed = new Map<string, string[]>();

    const streamedText = (id: string) => {
      const pieces = streamed.get(id) ?? [];
      const text = pieces.join('');
      streamed.set(id, [text]);
      return text;
    };

    const onTextEnd = (event: TextEndEvent & { text: string }) => {
      const soFar = streamedText(event.id);
      const { addition, how } = mergeResentText(soFar, event.text);
      if (how === 'divergent') {
        subscriber.next({
          type: 'warning',
          code: 'text-end-divergent',
          message: `text-end of "${event.id}" resent a text that neither matches nor overlaps what was streamed; it was appended.`,
          detail: { id: event.id, streamedChars: soFar.length, resentChars: event.text.length },
        });
      }
      if (addition !== '') {
        streamed.get(event.id)!.push(addition);
        subscriber.next({ type: 'text-delta', id: event.id, delta: addition });
      }
      subscriber.next({ ...event, text: soFar + addition });
    };

    return {
      next(event) {
        if (event.type === 'text-delta') {
          const pieces = streamed.get(event.id);
          if (pieces) pieces.push(event.delta);
          else streamed.set(event.id, [event.delta]);
        } else if (event.type === 'text-end' && event.text !== undefined) {
          return onTextEnd({ ...event, text: event.text });
        }
        subscriber.next(event);
      },
      teardown() {
        streamed.clear();
      },
    };
  });
}
