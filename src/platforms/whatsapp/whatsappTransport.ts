import type { SchedulerLike, Subscription } from 'rxjs';
import * as z from 'zod/mini';
import type { MessageEdit } from '../../channels/messageEditPlanner';
import { DeliveryError } from '../../delivery/errors';
import { messagePieces } from '../../delivery/messagePieces';
import type { DeliveryTransport, TransportCall } from '../../delivery/types';
import { createStopControl, type StopControl } from '../../delivery/transportStop';
import { fetchOption, parseOptions, schedulerOption } from '../../internal/options';
import { whatsappLimits } from './limits';
import { createWhatsAppApi } from './whatsappApi';

/** WhatsApp's limit for a text message's `body`, in characters (`platformLimits.whatsapp`). */
export const WHATSAPP_MAX_MESSAGE_CHARS = whatsappLimits.maxMessageChars;

/**
 * The typing indicator is shown again at most this many times with no new text in between (5
 * minutes at the default 20 s), then left to lapse: the final text still goes out.
 */
export const MAX_IDLE_TYPING_REFRESHES = 15;

/** Options of {@link whatsappTransport}. */
export interface WhatsAppTransportOptions {
  /** The access token (system user or app). Sent as `Authorization: Bearer`; never printed. */
  token: string;
  /** The business phone number's id (`/{phone-number-id}/messages`). */
  phoneNumberId: string;
  /** The user's WhatsApp id or phone number (`to`). */
  to: string;
  /**
   * The id (`wamid.…`) of the user's message being answered: it is marked read and the typing
   * indicator is shown on it while the answer streams. Without it, no indicator.
   */
  replyTo?: string;
  /** The typing indicator lasts about 25 s: it is shown again this often. @defaultValue 20000 */
  typingRefreshMs?: number;
  /** How long a pair-rate refusal (131056) waits before the next try. @defaultValue 6000 */
  pairRateMs?: number;
  /** @defaultValue `'https://graph.facebook.com/v23.0'` */
  apiBase?: string;
  /** @defaultValue the global `fetch` */
  fetch?: typeof fetch;
  /** Where the typing refresh timers run. @defaultValue asyncScheduler */
  scheduler?: SchedulerLike;
}

const WhatsAppTransportOptions = z.object({
  token: z.string().check(z.minLength(1, 'the access token is required')),
  phoneNumberId: z.string().check(z.minLength(1, 'the phone number id is required')),
  to: z.string().check(z.minLength(1, 'the recipient (to) is required')),
  replyTo: z.optional(z.string().check(z.minLength(1))),
  typingRefreshMs: z._default(z.number().check(z.positive()), 20_000),
  pairRateMs: z._default(z.number().check(z.nonnegative()), 6000),
  apiBase: z._default(z.url(), 'https://graph.facebook.com/v23.0'),
  fetch: fetchOption,
  scheduler: schedulerOption,
});

/**
 * What {@link whatsappTransport} keeps for one message: the WhatsApp messages that hold its
 * final text (none until it is final) and their bodies. Plain JSON: a new transport given it
 * (a ledger, a restart) sends only the parts not yet sent.
 */
export interface WhatsAppMessageRef {
  ids: string[];
  bodies: string[];
}

/** A transport with the message lifecycle: `finish` sends the text. */
export type WhatsAppTransport = DeliveryTransport<WhatsAppMessageRef> &
  // No Stop button of its own: the bot's Stop calls stop(); stopSignal goes to the model's fetch.
  StopControl & {
    finish(
      ref: WhatsAppMessageRef,
      edit: MessageEdit,
      call: TransportCall,
    ): Promise<WhatsAppMessageRef>;
    readonly maxMessageChars: number;
    /** Typing indicators waiting for their next refresh (for specs: 0 once every message finished). */
    readonly typingPending: number;
  };

const SentMessage = z.looseObject({
  messages: z.array(z.looseObject({ id: z.string() })).check(z.minLength(1)),
});

/**
 * A {@link DeliveryTransport} for the WhatsApp Cloud API. WhatsApp has no edits, so an answer
 * is shown the way a person answers: typing while it streams, then the text.
 *
 * ```
 * edits:    send "A" ─── edit "AB" ─── … ───────────── finish "AB…Z"
 * requests: typing (read + typing_indicator) ·20 s· typing ·20 s· typing   POST text (×n ≤ 4096)
 * ```
 *
 * - `send` marks `replyTo` read and shows the typing indicator; it is shown again every
 *   `typingRefreshMs` (WhatsApp drops it after ~25 s) until `finish`, at most
 *   {@link MAX_IDLE_TYPING_REFRESHES} times with no new text. `edit` makes no call.
 * - `finish` sends the final text as text messages of at most 4096 characters, cut by the
 *   project's rules (between blocks, a fence closed and reopened); a retry sends only the parts
 *   not yet sent. `edit.rendered` must be in `whatsapp` format (`*bold*`, `_italic_`, `~strike~`).
 * - Errors by Graph code: 130429 (throughput) waits 1 s, 131056 (pair rate) `pairRateMs`, 4 and
 *   80007 (call limits) a minute, a `Retry-After` header wins; 190 and other auth, permission,
 *   recipient and parameter errors are permanent; 5xx and network failures are retried. A failed
 *   typing indicator is only cosmetic: it is skipped. The token never appears in an error.
 *
 * @example
 * ```ts
 * events$.pipe(
 *   channel('whatsapp', { live: true }),
 *   toMessageEdits({ maxMessageChars: 4096, render: 'whatsapp' }),
 *   deliver(whatsappTransport({ token, phoneNumberId, to: message.from, replyTo: message.id })),
 * );
 * ```
 * @param options - {@link WhatsAppTransportOptions}
 */
export function whatsappTransport(options: WhatsAppTransportOptions): WhatsAppTransport {
  const settings = parseOptions('whatsappTransport', WhatsAppTransportOptions, options);
  const { to, replyTo, typingRefreshMs, scheduler } = settings;
  const url = `${settings.apiBase.replace(/\/+$/, '')}/${encodeURIComponent(settings.phoneNumberId)}/messages`;
  const call = createWhatsAppApi({
    token: settings.token,
    url,
    fetch: settings.fetch ?? globalThis.fetch,
    pairRateMs: settings.pairRateMs,
  });
  const typing = createTypingKeeper(scheduler, typingRefreshMs, (signal) =>
    replyTo === undefined
      ? Promise.resolve()
      : call(
          'typing indicator',
          {
            messaging_product: 'whatsapp',
            status: 'read',
            message_id: replyTo,
            typing_indicator: { type: 'text' },
          },
          signal,
        ).then(
          () => undefined,
          () => undefined,
        ),
  );

  const control = createStopControl();
  return {
    stopSignal: control.stopSignal,
    stop: control.stop,
    maxMessageChars: WHATSAPP_MAX_MESSAGE_CHARS,
    get typingPending() {
      return typing.pending;
    },
    async send(edit) {
      await typing.start(edit.message);
      return { ids: [], bodies: [] };
    },
    async edit(_ref, edit) {
      typing.sawText(edit.message);
    },
    async finish(ref, edit, context) {
      typing.stop(edit.message);
      const pieces = messagePieces(edit, {
        format: 'whatsapp',
        maxChars: WHATSAPP_MAX_MESSAGE_CHARS,
        transport: 'whatsappTransport',
      });
      // Parts sent by an earlier try (or run) that still match are not sent again.
      for (let i = ref.bodies.length; i < pieces.length; i++) {
        const body = pieces[i];
        const answer = SentMessage.safeParse(
          await call(
            'text message',
            {
              messaging_product: 'whatsapp',
              recipient_type: 'individual',
              to,
              type: 'text',
              text: { body, preview_url: false },
            },
            context.signal,
          ),
        );
        if (!answer.success) {
          throw new DeliveryError('WhatsApp text message: the answer has no message id.', {
            permanent: true,
          });
        }
        ref.ids.push(answer.data.messages[0].id);
        ref.bodies.push(body);
      }
      return ref;
    },
  };
}

/**
 * Typing indicators, one per message being written: shown at once, then every `refreshMs`
 * until `stop`, and no more than {@link MAX_IDLE_TYPING_REFRESHES} times in a row without a new
 * text. Timers run on `scheduler`; the refreshes' requests are aborted by `stop`.
 */
function createTypingKeeper(
  scheduler: SchedulerLike,
  refreshMs: number,
  show: (signal: AbortSignal) => Promise<void>,
) {
  const entries = new Map<number, { idle: number; timer?: Subscription; abort: AbortController }>();
  const arm = (message: number) => {
    const entry = entries.get(message);
    if (!entry) return;
    entry.timer = scheduler.schedule(() => {
      if (!entries.has(message)) return;
      if (++entry.idle > MAX_IDLE_TYPING_REFRESHES) return void entries.delete(message);
      void show(entry.abort.signal).then(() => arm(message));
    }, refreshMs);
  };
  return {
    get pending() {
      return entries.size;
    },
    /** Shows the indicator for `message` (resolves once WhatsApp answered) and keeps it up. */
    async start(message: number) {
      if (entries.has(message)) return;
      const entry = { idle: 0, abort: new AbortController() };
      entries.set(message, entry);
      await show(entry.abort.signal);
      arm(message);
    },
    sawText(message: number) {
      const entry = entries.get(message);
      if (entry) entry.idle = 0;
    },
    stop(message: number) {
      const entry = entries.get(message);
      entry?.timer?.unsubscribe();
      entry?.abort.abort();
      entries.delete(message);
    },
  };
}
