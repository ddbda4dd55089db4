import { parseJsonPath } from './geminiParts';
import type { GeminiPartialArg } from './geminiWire';

// Vertex streams a call's arguments as values at JSON paths, in document order. This writes them
// as the JSON text they make, piece by piece, so `tool-input-delta`s stream as they do on the
// other wires (and `partialToolInput` can show them growing).

interface OpenContainer {
  kind: 'object' | 'array';
  /** The key of this container in its parent (none for the root object). */
  key?: string | number;
  /** Children written so far. */
  count: number;
  /** Keys written so far (objects). */
  keys: Set<string | number>;
}

/** Writes streamed arguments as JSON text; see {@link createArgsWriter}. */
export interface ArgsWriter {
  /** The JSON text this piece adds; '' once the pieces left document order. */
  write(arg: GeminiPartialArg): string;
  /** The text that closes what is open, or undefined when the text could not follow the pieces. */
  end(): string | undefined;
}

/**
 * A writer for one call's `partialArgs`. A piece for the path of the open string continues it; a
 * new path closes what it leaves and opens what it enters. A piece that goes back (a key or index
 * written before, an array that does not start at 0) cannot be written in order: the writer stops
 * and `end()` says so, and the caller sends the assembled value instead.
 */
export function createArgsWriter(): ArgsWriter {
  const stack: OpenContainer[] = [];
  let openString: string | undefined;
  let inOrder = true;

  const close = () => {
    let text = '';
    if (openString !== undefined) text += '"';
    openString = undefined;
    return text;
  };
  const enter = (container: OpenContainer, key: string | number): string | undefined => {
    if (container.kind === 'array' ? key !== container.count : container.keys.has(key)) return;
    const separator = container.count > 0 ? ',' : '';
    container.count++;
    container.keys.add(key);
    return container.kind === 'array' ? separator : `${separator}${JSON.stringify(key)}:`;
  };

  return {
    write(arg) {
      if (!inOrder) return '';
      const value = valueText(arg);
      if (value === undefined) return '';
      if (openString !== undefined && openString === arg.jsonPath && arg.stringValue !== undefined)
        return value.slice(1, -1);
      const keys = parseJsonPath(arg.jsonPath);
      let text = close();
      if (stack.length === 0) {
        text += '{';
        stack.push({ kind: 'object', count: 0, keys: new Set() });
      }
      // Keep the open containers this path still runs through; close the others.
      let depth = 1;
      while (depth < stack.length && depth < keys.length && stack[depth].key === keys[depth - 1])
        depth++;
      while (stack.length > depth) text += stack.pop()!.kind === 'object' ? '}' : ']';
      for (let i = depth - 1; i < keys.length; i++) {
        const entered = enter(stack[stack.length - 1], keys[i]);
        if (entered === undefined) {
          inOrder = false;
          return '';
        }
        text += entered;
        if (i === keys.length - 1) break;
        const kind = typeof keys[i + 1] === 'number' ? 'array' : 'object';
        text += kind === 'object' ? '{' : '[';
        stack.push({ kind, key: keys[i], count: 0, keys: new Set() });
      }
      if (arg.stringValue !== undefined) {
        openString = arg.jsonPath;
        return text + value.slice(0, -1);
      }
      return text + value;
    },
    end() {
      if (!inOrder) return undefined;
      let text = close();
      if (stack.length === 0) return '{}';
      while (stack.length > 0) text += stack.pop()!.kind === 'object' ? '}' : ']';
      return text;
    },
  };
}

/** The JSON text of a piece's value, or undefined when it carries none. */
function valueText(arg: GeminiPartialArg): string | undefined {
  if (arg.stringValue !== undefined) return JSON.stringify(arg.stringValue);
  if (arg.numberValue !== undefined) return JSON.stringify(arg.numberValue);
  if (arg.boolValue !== undefined) return String(arg.boolValue);
  if ('nullValue' in arg) return 'null';
  return undefined;
}
