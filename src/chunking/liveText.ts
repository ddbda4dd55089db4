// The pure core of live mode (no RxJS, no timers): the text held since the last emission and
// where its last whole word ends. Work per character is constant: a delta is scanned once.

/** Whitespace that ends a word (a space, a tab, a line break, a no-break or ideographic space). */
const wordEnd = /\s/;

/**
 * Text waiting to go out live. `append` adds a delta; `takeWords` takes everything up to and
 * including the last whitespace (whole words only; a word's unfinished tail stays held);
 * `takeAll` takes everything (the word is done: a pause, a flush or the end).
 *
 * The pieces taken, joined in order, are exactly the text appended: no character is dropped
 * or added, whitespace at a cut included.
 *
 * @example
 * ```ts
 * const held = createLiveText();
 * held.append('Hello wor');
 * held.takeWords(); // 'Hello '
 * held.append('ld');
 * held.takeAll(); // 'world'
 * ```
 */
export function createLiveText() {
  let held = '';
  // Length of the held text's whole-word part: just past its last whitespace, 0 if none.
  let wordsEnd = 0;

  return {
    /** Whether any text is held. */
    get holding(): boolean {
      return held.length > 0;
    },
    /** Whether whole words are held (text up to a whitespace). */
    get hasWords(): boolean {
      return wordsEnd > 0;
    },
    /** Adds `delta` to the held text. */
    append(delta: string): void {
      for (let index = delta.length - 1; index >= 0; index--) {
        if (wordEnd.test(delta[index])) {
          wordsEnd = held.length + index + 1;
          break;
        }
      }
      held += delta;
    },
    /** Takes the whole words held (up to and including the last whitespace); '' when none. */
    takeWords(): string {
      const words = held.slice(0, wordsEnd);
      held = held.slice(wordsEnd);
      wordsEnd = 0;
      return words;
    },
    /** Takes everything held. */
    takeAll(): string {
      const all = held;
      held = '';
      wordsEnd = 0;
      return all;
    },
  };
}

/** The held text of one live reply (see {@link createLiveText}). */
export type LiveText = ReturnType<typeof createLiveText>;
