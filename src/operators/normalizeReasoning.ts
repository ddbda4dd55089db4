import type { OperatorFunction } from 'rxjs';
import * as z from 'zod/mini';
import type { StreamEvent } from '../events';
import { createOperator, type OperatorStage } from '../internal/createOperator';
import { parseOptions } from '../internal/options';
import {
  DEFAULT_THINK_TAGS,
  createThinkTagScanner,
  splitThinkTags,
  type ThinkTagPart,
  type ThinkTagScanner,
} from '../text/thinkTags';

const NormalizeReasoningOptions = z.object({
  tags: z.optional(
    z
      .array(
        z
          .string()
          .check(z.regex(/^[A-Za-z][\w:-]*$/, 'a tag name: a letter, then letters, digits, _ : -')),
      )
      .check(z.minLength(1)),
  ),
  reasoning: z._default(z.enum(['keep', 'drop']), 'keep'),
});

/** Options of {@link normalizeReasoning}. */
export interface NormalizeReasoningOptions {
  /**
   * Reasoning tag names, any case; `final` is always removed besides these.
   * @defaultValue `['think', 'thinking', 'thought', 'antthinking']`
   */
  tags?: string[];
  /** `drop` removes every reasoning event (IM channels). @defaultValue `'keep'` */
  reasoning?: 'keep' | 'drop';
}

/** The scanner of one text part and the tag reasoning entry it has open. */
interface TextPartState {
  scanner: ThinkTagScanner;
  open?: { id: string; index: number };
}

/**
 * Turns `<think>`-style tags inside text into reasoning events, so reasoning has one shape
 * whatever the model or server.
 *
 * ```
 * source:   -a------------b-|        a = text-delta "<think>plan</think>Hi"   b = text-end
 * result:   -(s r e x)----b-|        s/r/e = reasoning-start/-delta "plan"/-end  x = text-delta "Hi"
 * ```
 *
 * - `<think>`, `<thinking>`, `<thought>`, `<antthinking>` (any case, attributes and inner
 *   whitespace allowed) open reasoning; any of their closing tags ends it. Not inside fenced code
 *   blocks or inline code. `<final>` / `</final>` are removed, their content kept.
 * - A tag split across deltas is recognised; only the characters that could still be a tag are
 *   held back, and released as soon as they cannot (or at `text-end`, `finish`, a terminal,
 *   completion or error). An unclosed reasoning tag is closed at those points too.
 * - Ids and indices of tag reasoning are deterministic: index = one more than the highest
 *   reasoning index seen so far in the stream (decoder reasoning included), id =
 *   `${textId}:think:${index}`; `kind` is `text`.
 * - A `text-end` that resends the full text gets it with the reasoning removed, so it matches the
 *   streamed visible text (see monotonicText).
 * - `reasoning: 'drop'` removes every reasoning event, the decoders' and the tags'.
 * - Every other event passes unchanged, in order. So does a text delta without `<` while
 *   nothing is held and no reasoning tag is open: the same event object goes out, without
 *   per-character work (the code context is still tracked across it).
 *
 * @example
 * ```ts
 * streamEvents(response).pipe(normalizeReasoning({ reasoning: 'drop' }))
 * ```
 * @param options - {@link NormalizeReasoningOptions}
 */
export function normalizeReasoning(
  options: NormalizeReasoningOptions = {},
): OperatorFunction<StreamEvent, StreamEvent> {
  return createOperator(normalizeReasoningStage(options));
}

/**
 * The logic of {@link normalizeReasoning} without its RxJS shell (options checked here, at once), for
 * `fuseStages`: `normalizeReasoning(options)` is `createOperator(normalizeReasoningStage(options))`.
 */
export function normalizeReasoningStage(
  options: NormalizeReasoningOptions = {},
): OperatorStage<StreamEvent, StreamEvent> {
  const { tags = [...DEFAULT_THINK_TAGS], reasoning } = parseOptions(
    'normalizeReasoning',
    NormalizeReasoningOptions,
    options,
  );
  const keepReasoning = reasoning === 'keep';
  return ({ subscriber }) => {
    const textParts = new Map<string, TextPartState>();
    let highestIndex = -1;
    // The part the last delta belonged to, so the common delta costs no Map lookup.
    let lastId: string | undefined;
    let lastState: TextPartState | undefined;

    const emit = (event: StreamEvent) => {
      const isReasoning =
        event.type === 'reasoning-start' ||
        event.type === 'reasoning-delta' ||
        event.type === 'reasoning-end';
      if (!isReasoning || keepReasoning) subscriber.next(event);
    };

    const emitParts = (textId: string, state: TextPartState, parts: ThinkTagPart[]) => {
      for (const part of parts) {
        if (part.type === 'text') {
          emit({ type: 'text-delta', id: textId, delta: part.text });
        } else if (part.type === 'reasoning-start') {
          const index = ++highestIndex;
          state.open = { id: `${textId}:think:${index}`, index };
          emit({ type: 'reasoning-start', ...state.open });
        } else if (part.type === 'reasoning' && state.open) {
          emit({ type: 'reasoning-delta', ...state.open, delta: part.text, kind: 'text' });
        } else if (part.type === 'reasoning-end' && state.open) {
          emit({ type: 'reasoning-end', ...state.open });
          state.open = undefined;
        }
      }
    };

    const endTextPart = (textId: string) => {
      const state = textParts.get(textId);
      if (!state) return;
      textParts.delete(textId);
      if (textId === lastId) lastId = lastState = undefined;
      emitParts(textId, state, state.scanner.end());
    };
    const endAllTextParts = () => {
      for (const textId of [...textParts.keys()]) endTextPart(textId);
    };

    return {
      next(event) {
        switch (event.type) {
          case 'text-delta': {
            let state = event.id === lastId ? lastState : textParts.get(event.id);
            if (!state) {
              state = { scanner: createThinkTagScanner({ tags }) };
              textParts.set(event.id, state);
            }
            lastId = event.id;
            lastState = state;
            // The common delta (no `<`, nothing held) is all one part: no per-character work,
            // and visible text goes out as the same event object, since it would be identical.
            const wholePart = state.scanner.pushWhole(event.delta);
            if (wholePart === 'text') return subscriber.next(event);
            if (wholePart === 'reasoning') {
              if (keepReasoning && state.open) {
                const { delta } = event;
                subscriber.next({ type: 'reasoning-delta', ...state.open, delta, kind: 'text' });
              }
              return;
            }
            return emitParts(event.id, state, state.scanner.push(event.delta));
          }
          case 'text-end':
            endTextPart(event.id);
            if (event.text === undefined) return emit(event);
            return emit({ ...event, text: splitThinkTags(event.text, { tags }).visible });
          case 'reasoning-start':
          case 'reasoning-delta':
          case 'reasoning-end':
            highestIndex = Math.max(highestIndex, event.index);
            return emit(event);
          case 'finish':
          case 'completed':
          case 'incomplete':
          case 'failed':
            // The model has stopped: nothing held can still become a tag.
            endAllTextParts();
            return emit(event);
          default:
            return emit(event);
        }
      },
      error(error) {
        endAllTextParts();
        subscriber.error(error);
      },
      complete() {
        endAllTextParts();
        subscriber.complete();
      },
      teardown() {
        textParts.clear();
        lastId = lastState = undefined;
      },
    };
  };
}
