// The one place every options object is checked (no RxJS here: the pure chunker uses it too).

import * as z from 'zod/mini';
import { LlmRxError } from '../errors';
import { zodMessages } from './zodMessages';

/**
 * Validates `options` at construction; a bad option throws an LlmRxError `invalid-options`
 * naming the function and each offending field. A key the schema does not know (a misspelt
 * `idleTimeout`) is an error too, naming the known ones: it would otherwise be ignored without
 * a word. (`z.object` and `z.strictObject` schemas alike; `z.looseObject` lets unknown keys pass.)
 */
export function parseOptions<Schema extends z.ZodMiniType>(
  functionName: string,
  schema: Schema,
  options: unknown,
): z.output<Schema> {
  const fail = (issues: string) =>
    new LlmRxError('invalid-options', `${functionName}: invalid options\n${issues}`);
  const { shape, catchall } = schema._zod.def as {
    shape?: object;
    catchall?: { _zod: { def: { type: string } } };
  };
  // z.object and z.strictObject are checked; z.looseObject (catchall unknown) lets keys pass.
  const loose = catchall && catchall._zod.def.type !== 'never';
  if (shape && !loose && typeof options === 'object' && options) {
    const known = Object.keys(shape);
    const unknown = Object.keys(options).filter((key) => !known.includes(key));
    if (unknown.length > 0) {
      throw fail(`✖ Unknown option "${unknown.join('", "')}"; known options: ${known.join(', ')}`);
    }
  }
  const result = schema.safeParse(options ?? {}, zodMessages);
  if (result.success) return result.data;
  throw fail(z.prettifyError(result.error));
}
