import type { MonoTypeOperatorFunction } from 'rxjs';
import type { StreamEvent, TextEndEvent } from '../events';
import { createOperator, type OperatorStage } from '../internal/createOperator';
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
 * Memory: the streamed text of every id, about 1–2 bytes per character, until unsubscribe.
 *
 * @example
 * ```ts
 * foreignEvents$.pipe(monotonicText(), bufferChunk({ minChars: 800, maxChars: 4096 }))
 * ```
 */
export function monotonicText(): MonoTypeOperatorFunction<StreamEvent> {
  return createOperator(monotonicTextStage());
}

/**
 * The logic of {@link monotonicText} without its RxJS shell (options checked here, at once), for
 * `fuseStages`: `monotonicText()` is `createOperator(monotonicTextStage())`.
 */
export function monotonicTextStage(): OperatorStage<StreamEvent, StreamEvent> {
  return ({ subscriber }) => {
    const streamed = new Map<string, StreamedText>();
    // The part most deltas belong to, so the common delta costs no Map lookup.
    let currentId: string | undefined;
    let current: StreamedText | undefined;

    const streamedTextOf = (id: string): StreamedText => {
      if (id === currentId) return current!;
      let entry = streamed.get(id);
      if (!entry) streamed.set(id, (entry = newStreamedText()));
      currentId = id;
      current = entry;
      return entry;
    };

    const onTextEnd = (event: TextEndEvent & { text: string }) => {
      const entry = streamedTextOf(event.id);
      const soFar = streamedSoFar(entry);
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
        append(entry, addition);
        subscriber.next({ type: 'text-delta', id: event.id, delta: addition });
      }
      subscriber.next({ ...event, text: soFar + addition });
    };

    return {
      next(event) {
        if (event.type === 'text-delta') {
          append(streamedTextOf(event.id), event.delta);
        } else if (event.type === 'text-end' && event.text !== undefined) {
          return onTextEnd({ ...event, text: event.text });
        }
        subscriber.next(event);
      },
      teardown() {
        streamed.clear();
        currentId = current = undefined;
      },
    };
  };
}

/**
 * Everything streamed for one text id, as one string: `head` + the first `count` deltas of
 * `pieces`. `+=` per delta would build a rope with a node of some 30 bytes per delta besides the
 * delta's own string (about 10 bytes per character for the 1–8 character deltas of a chat
 * stream), and cost a string allocation per delta. So the deltas gather in `pieces` (allocated
 * once, never shrunk), which every {@link TAIL_PIECES} deltas are joined (each character copied
 * once) and appended to `head`: a rope of long flat pieces, ~1 byte per character (2 past
 * Latin-1).
 */
interface StreamedText {
  head: string;
  pieces: string[];
  count: number;
}

const TAIL_PIECES = 256;

function newStreamedText(): StreamedText {
  return { head: '', pieces: new Array<string>(TAIL_PIECES).fill(''), count: 0 };
}

function append(entry: StreamedText, delta: string): void {
  entry.pieces[entry.count++] = delta;
  if (entry.count === TAIL_PIECES) {
    entry.head += entry.pieces.join('');
    entry.count = 0;
  }
}

/** The whole streamed text of `entry`, kept from now on as one string in `head`. */
function streamedSoFar(entry: StreamedText): string {
  if (entry.count > 0) {
    entry.head += entry.pieces.slice(0, entry.count).join('');
    entry.count = 0;
  }
  return entry.head;
}
