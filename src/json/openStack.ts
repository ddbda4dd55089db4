/**
 * The containers a partial JSON parse holds open, and the value built so far. The live tree is
 * mutated in place as values arrive; a closed container or a complete scalar never changes
 * again, so `snapshot()` shares them and copies only the open containers along the path
 * (shallowly) plus the open string, which makes a snapshot cost the open path, not the input.
 */

/** What the next non-blank character may be. */
export type Expectation =
  'value' | 'value-or-end' | 'key' | 'key-or-end' | 'colon' | 'comma-or-end' | 'end';

interface Frame {
  container: unknown[] | Record<string, unknown>;
  isArray: boolean;
  expect: Expectation;
  /** Objects: the key whose value is being read (set at the colon). */
  key: string;
}

/** The open containers of one parse, with the operations the parser drives. */
export interface OpenStack {
  expecting(): Expectation;
  inObject(): boolean;
  /** A complete scalar (or a closed string) goes into the current slot. */
  place(value: unknown): void;
  openContainer(isArray: boolean): void;
  closeContainer(): void;
  /** A string opens: a key (hidden until complete) or a value (visible at once, growing). */
  openString(isKey: boolean): void;
  appendText(text: string): void;
  closeString(): void;
  comma(): void;
  colon(): void;
  snapshot(): unknown;
  readonly changed: boolean;
}

/** Sets `key` as an own property even when it is `__proto__`, as `JSON.parse` does. */
function setKey(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(object, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  else object[key] = value;
}

/** An empty stack: the next value is the root. */
export function createOpenStack(): OpenStack {
  const frames: Frame[] = [];
  let rootExpect: Expectation = 'value';
  let root: unknown = undefined;
  let text = ''; // the open string so far (V8 appends to a rope: O(1) per piece)
  let stringIsKey = false;
  let stringOpen = false;
  let changed = false;

  const top = (): Frame | undefined => frames[frames.length - 1];

  const afterValue = (): void => {
    const frame = top();
    if (frame) frame.expect = 'comma-or-end';
    else rootExpect = 'end';
  };

  /** Puts `value` in the slot the next value fills (root, array end, object key). */
  const fill = (value: unknown): void => {
    const frame = top();
    if (!frame) root = value;
    else if (frame.isArray) (frame.container as unknown[]).push(value);
    else setKey(frame.container as Record<string, unknown>, frame.key, value);
    changed = true;
  };

  /** Replaces the value in the slot just filled (a string that grew, then closed). */
  const refill = (value: unknown): void => {
    const frame = top();
    if (!frame) root = value;
    else if (frame.isArray) {
      const array = frame.container as unknown[];
      array[array.length - 1] = value;
    } else setKey(frame.container as Record<string, unknown>, frame.key, value);
  };

  return {
    expecting: () => top()?.expect ?? rootExpect,
    inObject: () => top()?.isArray === false,
    place(value) {
      fill(value);
      afterValue();
    },
    openContainer(isArray) {
      const container = isArray ? [] : {};
      fill(container);
      frames.push({ container, isArray, expect: isArray ? 'value-or-end' : 'key-or-end', key: '' });
    },
    closeContainer() {
      frames.pop();
      afterValue();
    },
    openString(isKey) {
      stringIsKey = isKey;
      stringOpen = true;
      text = '';
      if (!isKey) fill('');
    },
    appendText(piece) {
      text += piece;
      if (!stringIsKey) changed = true;
    },
    closeString() {
      stringOpen = false;
      if (stringIsKey) {
        top()!.key = text;
        top()!.expect = 'colon';
      } else {
        refill(text);
        afterValue();
      }
    },
    comma() {
      const frame = top()!;
      frame.expect = frame.isArray ? 'value' : 'key';
    },
    colon() {
      top()!.expect = 'value';
    },
    snapshot() {
      changed = false;
      let child: unknown = undefined;
      let hasChild = stringOpen && !stringIsKey;
      if (hasChild) child = text;
      if (frames.length === 0) return hasChild ? child : root;
      for (let depth = frames.length - 1; depth >= 0; depth--) {
        const frame = frames[depth]!;
        const copy: unknown[] | Record<string, unknown> = frame.isArray
          ? (frame.container as unknown[]).slice()
          : { ...frame.container };
        if (hasChild) {
          if (Array.isArray(copy)) copy[copy.length - 1] = child;
          else setKey(copy, frame.key, child);
        }
        child = copy;
        hasChild = true;
      }
      return child;
    },
    get changed() {
      return changed;
    },
  };
}
