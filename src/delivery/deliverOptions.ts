import type { SchedulerLike } from 'rxjs';
import * as z from 'zod/mini';
import { LlmRxError } from '../errors';
import { durationOption, parseOptions, schedulerOption } from '../internal/options';
import { defaultNotice, type NoticeText } from './answerOutcome';
import type { DeliveryLedger, DeliveryTransport } from './types';

/** Options of `deliver`. */
export interface DeliverOptions {
  /** Least time between the starts of two calls. @defaultValue `transport.minIntervalMs`, else 0 */
  minIntervalMs?: number;
  /** Calls per text before giving up on failures that are not `retryAfterMs`. @defaultValue 5 */
  maxAttempts?: number;
  /** Wait after the first failure, doubling after each next one. @defaultValue 500 */
  backoffMs?: number;
  /**
   * Where each message's ref, last acknowledged text and finished state are recorded, before
   * its report goes out: a new run with the same `ledger` and `key` skips what was delivered.
   * @defaultValue none (nothing survives the subscription)
   */
  ledger?: DeliveryLedger;
  /** The reply's name in the ledger (the stream id); required with `ledger`. */
  key?: string;
  /**
   * The one-line notice added to the chat when an answer did not complete: a function of the
   * end's terminal and outcome returning markdown (or undefined for none), or `false` for no
   * notice at all. @defaultValue `defaultNotice` ("⚠️ The answer was cut off.", "⏹ Stopped.", …)
   */
  notice?: false | NoticeText;
  /** Where the interval, backoff and retry-after timers run. @defaultValue asyncScheduler */
  scheduler?: SchedulerLike;
}

const ledgerOption = z.custom<DeliveryLedger>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as DeliveryLedger).read === 'function' &&
    typeof (value as DeliveryLedger).write === 'function',
  { message: 'expected a ledger with read(key) and write(key, entry), such as memoryLedger()' },
);

const DeliverOptionsSchema = z
  .object({
    minIntervalMs: z.optional(durationOption),
    maxAttempts: z._default(z.int().check(z.minimum(1)), 5),
    backoffMs: z._default(durationOption, 500),
    ledger: z.optional(ledgerOption),
    key: z.optional(z.string().check(z.minLength(1))),
    notice: z.optional(
      z.union([
        z.literal(false),
        z.custom<NoticeText>((value) => typeof value === 'function', {
          message: 'expected false or a function (terminal, outcome) => string | undefined',
        }),
      ]),
    ),
    scheduler: schedulerOption,
  })
  .check(
    z.refine((options) => (options.ledger === undefined) === (options.key === undefined), {
      message: 'ledger and key go together: give both (key names the reply) or neither',
      path: ['key'],
    }),
  );

/** The options with their defaults filled in. */
export type ResolvedDeliverOptions = z.output<typeof DeliverOptionsSchema> & {
  minIntervalMs: number;
  notice: false | NoticeText;
};

/** Validates the transport and the options; bad ones throw `invalid-options` at once. */
export function parseDeliverOptions(
  transport: DeliveryTransport<any>,
  options: DeliverOptions,
): ResolvedDeliverOptions {
  if (
    typeof transport !== 'object' ||
    transport === null ||
    typeof transport.send !== 'function' ||
    typeof transport.edit !== 'function' ||
    (transport.finish !== undefined && typeof transport.finish !== 'function')
  ) {
    throw new LlmRxError(
      'invalid-options',
      'deliver: transport must be an object with send(edit) and edit(ref, edit) methods (and optionally finish(ref, edit)), such as telegramTransport({ … }).',
    );
  }
  const settings = parseOptions('deliver', DeliverOptionsSchema, options);
  return {
    ...settings,
    minIntervalMs: settings.minIntervalMs ?? transport.minIntervalMs ?? 0,
    notice: settings.notice ?? defaultNotice,
  };
}
