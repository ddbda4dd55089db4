import { asyncScheduler, type SchedulerLike } from 'rxjs';
import * as z from 'zod/mini';

/** A `scheduler` option: anything with `schedule` and `now`, defaulting to `asyncScheduler`. */
export const schedulerOption = z._default(
  z.custom<SchedulerLike>(
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      typeof (value as SchedulerLike).schedule === 'function' &&
      typeof (value as SchedulerLike).now === 'function',
    { message: 'expected an RxJS scheduler (with schedule() and now())' },
  ),
  asyncScheduler,
);

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
export const durationOption = z.number().check(z.nonnegative());

/** Every options object goes through it (see parseOptions.ts). */
export { parseOptions } from './parseOptions';

/**
 * The check of a transport that takes a token or the client a bot already has: exactly one of
 * the two. `clientKind` names the client in the message (`a bot API client`).
 */
export function tokenOrClient(clientKind: string) {
  return z.refine<{ token?: unknown; client?: unknown }>(
    (options) => (options.token === undefined) !== (options.client === undefined),
    {
      message: `give either token or client (${clientKind}), not both and not neither`,
      path: ['token'],
    },
  );
}
