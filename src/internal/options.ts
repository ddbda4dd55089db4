import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { z } from 'zod';
import { LlmRxError } from '../errors';

/** A `scheduler` option: anything with `schedule` and `now`, defaulting to `asyncScheduler`. */
export const schedulerOption = z
  .custom<SchedulerLike>(
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      typeof (value as SchedulerLike).schedule === 'function' &&
      typeof (value as SchedulerLike).now === 'function',
    { message: 'expected an RxJS scheduler (with schedule() and now())' },
  )
  .default(asyncScheduler);

/** An AbortSignal option. */
export const signalOption = z.custom<AbortSignal>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AbortSignal).aborted === 'boolean' &&
    typeof (value as AbortSignal).addEventListener === 'function',
  { message: 'expected an AbortSignal' },
);

/** A duration in milliseconds: a finite, non-negative number. */
export const durationOption = z.number().finite().nonnegative();

/**
 * Validates `options` at construction; a bad option throws an LlmRxError `invalid-options`
 * naming the function and each offending field.
 */
export function parseOptions<Schema extends z.ZodType>(
  functionName: string,
  schema: Schema,
  options: unknown,
): z.output<Schema> {
  const result = schema.safeParse(options ?? {});
  if (result.success) return result.data;
  throw new LlmRxError(
    'invalid-options',
    `${functionName}: invalid options\n${z.prettifyError(result.error)}`,
  );
}
