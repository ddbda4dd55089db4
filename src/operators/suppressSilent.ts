import type { MonoTypeOperatorFunction } from 'rxjs';
import * as z from 'zod/mini';
import { type StreamEvent, type TextEndEvent, type TextStartEvent } from '../events';
import { isTerminal } from '../terminalEvents';
import { createOperator, type OperatorStage } from '../internal/createOperator';
import { parseOptions } from '../internal/options';
import {
  DEFAULT_SILENT_TOKENS,
  createSilentTokenMatcher,
  stripSilentTokens,
  type SilentTokenMatcher,
} from '../text/silentTokens';

const SuppressSilentOptions = z.object({
  tokens: z._default(
    z
      .array(
        z
          .string()
          .check(
            z.regex(
              /[^\s*_~]/,
              'a token needs a character that is not whitespace or * _ ~ emphasis',
            ),
          ),
      )
      .check(z.minLength(1)),
    [...DEFAULT_SILENT_TOKENS],
  ),
});

/** Options of {@link suppressSilent}. */
export interface SuppressSilentOptions {
  /**
   * The replies that mean "stay silent", matched ignoring case.
   * @defaultValue `['NO_REPLY', 'ANNOUNCE_SKIP', 'REPLY_SKIP']`
   */
  tokens?: string[];
}

// One open text part: its matcher, and its text-start until a visible character justifies it.
interface OpenPart {
  matcher: SilentTokenMatcher;
  heldStart?: TextStartEvent;
  streamedAnything: boolean;
}

/**
 * Turns a reply that is only a silent token into one `silent` event, and strips a token that
 * trails real content; text that could still become a token is held, never leaked.
 *
 * ```
 * source:  -s-a-b-e-|      a = "**NO_"   b = "REPLY**"
 * result:  -------k-|      k = silent { token: "NO_REPLY" }: no text-start, delta or end
 *
 * source:  -s-a-b-c-e-|    a = "Done."   b = "\n\nNO"   c = "_REPLY"
 * result:  ---x-----e-|    x = s then a, in one frame; "\n\nNO_REPLY" is never shown
 * ```
 *
 * - Silent: the whole visible text is tokens, whitespace and `*` `_` `~` emphasis, in any case
 *   (`NO_REPLY`, `  no_reply `, `**NO_REPLY**`, `NO_REPLY NO_REPLY`). Nothing visible exists, so
 *   the part emits no `text-start`, `text-delta` or `text-end`: only `silent { token }`, with the
 *   token as configured, at the part's end.
 * - Stripped: tokens after content, separated by whitespace, `*` or `~` ("Done.\n\nNO_REPLY",
 *   "some text **NO_REPLY"); the whitespace before them goes too ("Done."). No event marks it.
 * - Content, delivered unchanged: a token glued to a word (`interject.NO_REPLY`, `foo_NO_REPLY`),
 *   followed by anything else (`NO_REPLY but more`, `NO_REPLY 👍`), inside a sentence.
 * - Holding: per text id, only the text from the earliest place a token tail could still start is
 *   held; it goes out with the first delta that rules the tail out. `text-start` is held until the
 *   first visible character, so a silent part leaves no trace. Other events pass at once. A
 *   delta released whole and alone (the common case) goes out as the same event object.
 * - Resolved at `text-end`, a terminal (parts without `text-end`: released text or `silent`, no
 *   `text-end` is invented), source completion, and source error (held non-token text is released,
 *   then the error passes). A `text-end` with the full `text` gets the same stripping on `text`.
 * - Unsubscribing drops whatever is held.
 *
 * @example
 * ```ts
 * streamEvents(response).pipe(suppressSilent(), bufferChunk({ minChars: 800, maxChars: 4096 }))
 * ```
 * @param options - {@link SuppressSilentOptions}
 */
export function suppressSilent(
  options: SuppressSilentOptions = {},
): MonoTypeOperatorFunction<StreamEvent> {
  return createOperator(suppressSilentStage(options));
}

/**
 * The logic of {@link suppressSilent} without its RxJS shell (options checked here, at once), for
 * `fuseStages`: `suppressSilent(options)` is `createOperator(suppressSilentStage(options))`.
 */
export function suppressSilentStage(
  options: SuppressSilentOptions = {},
): OperatorStage<StreamEvent, StreamEvent> {
  const { tokens } = parseOptions('suppressSilent', SuppressSilentOptions, options);
  return ({ subscriber }) => {
    const parts = new Map<string, OpenPart>();
    // The part the last delta belonged to, so the common delta costs no Map lookup.
    let lastId: string | undefined;
    let lastPart: OpenPart | undefined;

    const open = (id: string): OpenPart => {
      if (id === lastId) return lastPart!;
      let part = parts.get(id);
      if (!part) {
        part = { matcher: createSilentTokenMatcher(tokens), streamedAnything: false };
        parts.set(id, part);
      }
      lastId = id;
      lastPart = part;
      return part;
    };
    const close = (id: string) => {
      parts.delete(id);
      if (id === lastId) lastId = lastPart = undefined;
    };
    const releaseStart = (part: OpenPart) => {
      if (part.heldStart) subscriber.next(part.heldStart);
      part.heldStart = undefined;
    };
    const release = (part: OpenPart, id: string, text: string) => {
      if (text === '') return;
      releaseStart(part);
      subscriber.next({ type: 'text-delta', id, delta: text });
    };

    // Ends one part. Returns whether it was silent (then its text-end, if any, is dropped).
    const resolve = (id: string, end?: TextEndEvent): boolean => {
      const part = open(id);
      close(id);
      const resolution = part.matcher.end();
      release(part, id, resolution.release);
      const fullText = end?.text === undefined ? undefined : stripSilentTokens(end.text, tokens);
      const silentToken = resolution.silent
        ? resolution.token
        : !part.streamedAnything && fullText?.silent
          ? fullText.token
          : undefined;
      if (silentToken !== undefined) {
        subscriber.next({ type: 'silent', token: silentToken });
        return true;
      }
      releaseStart(part);
      if (end) subscriber.next(fullText ? { ...end, text: fullText.text } : end);
      return false;
    };
    const resolveAll = () => {
      for (const id of [...parts.keys()]) resolve(id);
    };

    return {
      next(event) {
        switch (event.type) {
          case 'text-start': {
            const part = open(event.id);
            part.heldStart = event;
            return;
          }
          case 'text-delta': {
            const part = open(event.id);
            if (event.delta === '') return;
            part.streamedAnything = true;
            const released = part.matcher.push(event.delta);
            // Released whole (the common delta): the output would be identical, send the event.
            if (released === event.delta) {
              releaseStart(part);
              subscriber.next(event);
            } else release(part, event.id, released);
            return;
          }
          case 'text-end':
            resolve(event.id, event);
            return;
          default:
            if (isTerminal(event)) resolveAll();
            subscriber.next(event);
        }
      },
      complete() {
        resolveAll();
        subscriber.complete();
      },
      error(error) {
        resolveAll();
        subscriber.error(error);
      },
      teardown() {
        parts.clear();
        lastId = lastPart = undefined;
      },
    };
  };
}
