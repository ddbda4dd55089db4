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

/**
 * The byte sources' `maxBufferSize` option: the most characters (bytes for binary framings) one
 * line, event or frame may hold, a positive integer, 1 MiB when absent.
 */
export const maxBufferSizeOption = z._default(z.int().check(z.positive()), 1024 * 1024);

/** A duration in milliseconds: a finite, non-negative number. */
export const durationOption = z.number().check(z.nonnegative());

/** Every options object goes through it (see parseOptions.ts). */
export { parseOptions } from './parseOptions';

/** A `fetch` option: the function to make HTTP requests with (the global `fetch` when absent). */
export const fetchOption = z.optional(
  z.custom<typeof fetch>((value) => typeof value === 'function', {
    message: 'expected a fetch function',
  }),
);

/**
 * The fields of a bot made from its token (`createTelegramBot`, `createDiscordBot`): the token,
 * the API's base URL and the `fetch` to call it with.
 */
export const botTokenFields = {
  token: z.string().check(z.minLength(1, 'the bot token is required')),
  apiBase: z.optional(z.url()),
  fetch: fetchOption,
};

/**
 * The check of an options object that takes one of two keys (`token` or `client`, `token` or
 * `getToken`): exactly one of them, else `message` (reported at `first`).
 */
export function exactlyOneOf(first: string, second: string, message: string) {
  return z.refine<Record<string, unknown>>(
    (value) => (value[first] === undefined) !== (value[second] === undefined),
    { message, path: [first] },
  );
}

/** The check of an options object that takes a `token` or a `getToken`: exactly one of them. */
export const oneTokenSource = exactlyOneOf(
  'token',
  'getToken',
  'give exactly one of token and getToken',
);

/**
 * The `token` and `client` fields of an options object that takes either (checked together by
 * {@link tokenOrClient}): a non-empty token, or a client `isClient` accepts (else `message`).
 */
export function tokenOrClientFields<Client>(
  isClient: (value: unknown) => value is Client,
  message: string,
) {
  return {
    token: z.optional(z.string().check(z.minLength(1, 'the bot token is required'))),
    client: z.optional(z.custom<Client>(isClient, { message })),
  };
}

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
