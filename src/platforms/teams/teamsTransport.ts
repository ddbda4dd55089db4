import * as z from 'zod/mini';
import type { MessageEdit } from '../../channels/messageEditPlanner';
import { parseOptions } from '../../internal/options';
import { DeliveryError } from '../../delivery/errors';
import { statusLineOf } from '../../delivery/statusLine';
import { cutChunks, TEAMS_MAX_MESSAGE_CHARS } from './teamsActivities';
import { createTeamsConnector } from './teamsConnector';
import { createTeamsParts, type TeamsMessagePart } from './teamsParts';
import { monotonicNow } from '../../delivery/transportWait';
import type { DeliveryTransport, TransportCall } from '../../delivery/types';
import { createStopControl, type StopControl } from '../../delivery/transportStop';

export { cutChunks, TEAMS_MAX_MESSAGE_CHARS } from './teamsActivities';
export type { TeamsMessagePart } from './teamsParts';

/** Options of {@link teamsTransport}. */
export interface TeamsTransportOptions {
  /** The `serviceUrl` of the incoming activity, e.g. `https://smba.trafficmanager.net/amer/`. */
  serviceUrl: string;
  /** The conversation to post in (`activity.conversation.id`). */
  conversationId: string;
  /** A Bot Framework access token. Give this or `getToken`; never printed. */
  token?: string;
  /** Called before every request, so an expiring token can be refreshed. */
  getToken?: () => string | PromiseLike<string>;
  /**
   * A 1:1 chat, where Teams streams. @defaultValue true unless the id is a group chat's or a
   * channel's (`…@thread…`)
   */
  isPersonalChat?: boolean;
  /** Least time from one request's answer to the next request (Teams: one streaming request a second). @defaultValue 1000 */
  minIntervalMs?: number;
  /** A stream is finished and continued in a new message after this (Teams ends it at 2 minutes). @defaultValue 110000 */
  maxStreamMs?: number;
  /** @defaultValue the global `fetch` */
  fetch?: typeof fetch;
}

const TeamsTransportOptions = z
  .object({
    serviceUrl: z.url(),
    conversationId: z.string().check(z.minLength(1, 'the conversation id is required')),
    token: z.optional(z.string().check(z.minLength(1, 'the token must not be empty'))),
    getToken: z.optional(z.custom<() => string>((value) => typeof value === 'function')),
    isPersonalChat: z.optional(z.boolean()),
    minIntervalMs: z._default(z.number().check(z.nonnegative()), 1000),
    maxStreamMs: z._default(z.number().check(z.positive()), 110000),
    fetch: z.optional(z.custom<typeof fetch>((value) => typeof value === 'function')),
  })
  .check(
    z.refine((o) => (o.token === undefined) !== (o.getToken === undefined), {
      message: 'give exactly one of token and getToken',
    }),
  );

/**
 * What {@link teamsTransport} keeps for one message: its Teams messages, in order, each with
 * its activity id, text, stream state and last `streamSequence`. Plain JSON: a new transport
 * given it (a ledger, a restart) goes on with the next sequence of an open stream and finishes
 * it; a stream Teams ended meanwhile (its two minutes) is updated by `PUT` instead. A stream's
 * age is read on this process's monotonic clock, so after a restart into a new process Teams'
 * own limit is what ends an old stream (the text still arrives, by `PUT`).
 */
export interface TeamsMessageRef {
  parts: TeamsMessagePart[];
  /** Where in the message's text its unsealed part begins. */
  openAt: number;
}

/** A transport with the message lifecycle: `finish` and the limit `toMessageEdits` should use. */
export type TeamsTransport = DeliveryTransport<TeamsMessageRef> &
  StopControl & {
    finish(ref: TeamsMessageRef, edit: MessageEdit, call: TransportCall): Promise<TeamsMessageRef>;
    readonly maxMessageChars: number;
    readonly minIntervalMs: number;
  };

/**
 * A {@link DeliveryTransport} for Microsoft Teams through the Bot Framework Connector.
 *
 * ```
 * 1:1 chat:   send "A"           edit "AB"            finish "AB"
 *             typing seq 1 ─≥1s─ typing seq 2 ─≥1s─── message streamType final
 * group chat: POST message ───── PUT activities/{id}  (nothing: already shown)
 * ```
 *
 * - In 1:1 chats, Teams' streaming: `typing` activities with a `streaminfo` entity
 *   (`streamType: 'streaming'`, `streamSequence` 1, 2, … strictly increasing, the whole text each
 *   time, `streamId` = the first answer's id), and `finish` sends the `message` activity with
 *   `streamType: 'final'`. A stream older than `maxStreamMs` is finished and the text goes on in
 *   a new message; a text over 28,000 characters continues in the next message, never cut.
 * - In group chats and channels, or once Teams answers `403 ContentStreamNotAllowed` to a new
 *   stream (for the rest of this transport's life): a `message` is posted, then updated
 *   (`PUT …/activities/{id}`). A stream Teams ended itself is updated the same way: a
 *   stream's age is checked only when a call comes, so with no text between `maxStreamMs` and
 *   Teams' two minutes Teams ends it, and the next call updates it in place (nothing is lost).
 * - The user's Stop on a streamed message (`403 ContentStreamNotAllowed` "Content stream was
 *   cancelled by user.") aborts `stopSignal` (give it to the model's `fetch`); the message is
 *   then updated by PUT with its final text (the partial answer and `deliver`'s stop notice).
 *   Teams' own end of a stream ("…exceeded streaming time.") is no stop: the whole text goes on
 *   by PUT. The bot's own Stop (a command, a card button) calls `stop()`.
 * - One request at a time, each `minIntervalMs` after the last answer; `getToken()` before
 *   each one.
 * - 429 waits `Retry-After` when sent, else backs off; 401, 403, 404 are permanent; 5xx and
 *   network failures are retried. The token never appears in an error.
 *
 * The edits' markdown `text` is sent (`textFormat: 'markdown'`); `rendered` is not used.
 *
 * @example
 * ```ts
 * events$.pipe(
 *   channel('msteams'),
 *   toMessageEdits({ maxMessageChars: 28000 }),
 *   deliver(teamsTransport({ serviceUrl, conversationId, getToken })),
 * );
 * ```
 * @param options - {@link TeamsTransportOptions}
 */
export function teamsTransport(options: TeamsTransportOptions): TeamsTransport {
  const settings = parseOptions('teamsTransport', TeamsTransportOptions, options);
  const { serviceUrl, conversationId, minIntervalMs, maxStreamMs, token } = settings;
  const getToken = settings.getToken ?? (() => token!);
  const streams = settings.isPersonalChat ?? !conversationId.includes('@thread');
  const connector = createTeamsConnector({
    activitiesUrl: `${serviceUrl.replace(/\/+$/, '')}/v3/conversations/${encodeURIComponent(conversationId)}/activities`,
    getToken,
    fetch: settings.fetch ?? globalThis.fetch,
    minIntervalMs,
  });
  const unfinishedSends = new Map<number, TeamsMessageRef>();

  const control = createStopControl();
  const { open, change, close, inform } = createTeamsParts(connector, streams, () =>
    control.stop('The user pressed Stop in Teams.'),
  );

  /** Tool activity before any text: an informative update (the answer's text shows none). */
  const informOf = async (ref: TeamsMessageRef, edit: MessageEdit, context: TransportCall) => {
    const part = ref.parts.at(-1);
    const shown = await inform(part, statusLineOf(edit.progress, false, false), context);
    if (shown && !part) ref.parts.push(shown);
    return ref;
  };
  const isStatusOnly = (edit: MessageEdit) =>
    edit.text.trim() === '' && statusLineOf(edit.progress, false, false) !== '';

  /** Brings `ref`'s Teams messages to the message's whole `text`. */
  const show = async (
    ref: TeamsMessageRef,
    text: string,
    context: TransportCall,
    final: boolean,
  ) => {
    let current = ref.parts.at(-1);
    if (
      current &&
      !current.sealed &&
      !current.closed &&
      monotonicNow() - current.startedAt >= maxStreamMs
    ) {
      await close(current, context);
      current.sealed = true;
      ref.openAt += current.text.length;
    }
    const chunks = cutChunks(text.slice(ref.openAt));
    for (const [i, chunk] of chunks.entries()) {
      current = ref.parts.at(-1);
      const closesNow = i < chunks.length - 1 || final;
      // A stream about to close takes its newest text in the final message itself.
      if (current && !current.sealed && !current.closed && closesNow) current.text = chunk.text;
      else if (current && !current.sealed) await change(current, chunk.text, context);
      else {
        current = await open(chunk.text, context);
        ref.parts.push(current);
      }
      if (i < chunks.length - 1) {
        await close(current, context);
        current.sealed = true;
        ref.openAt += chunk.consumed;
      } else {
        ref.openAt += chunk.lead;
      }
    }
    const last = ref.parts.at(-1);
    if (final && last) await close(last, context);
    return ref;
  };

  return {
    minIntervalMs,
    maxMessageChars: TEAMS_MAX_MESSAGE_CHARS,
    stopSignal: control.stopSignal,
    stop: control.stop,
    async send(edit, context) {
      if (isStatusOnly(edit)) return informOf({ parts: [], openAt: 0 }, edit, context);
      if (edit.text.trim() === '') {
        throw new DeliveryError(`teamsTransport: message ${edit.message} has no text to send.`, {
          permanent: true,
        });
      }
      const resumed = context.attempt > 1 ? unfinishedSends.get(edit.message) : undefined;
      const ref = resumed ?? { parts: [], openAt: 0 };
      unfinishedSends.set(edit.message, ref);
      await show(ref, edit.text, context, false);
      unfinishedSends.delete(edit.message);
      return ref;
    },
    edit: (ref, edit, context) =>
      isStatusOnly(edit) ? informOf(ref, edit, context) : show(ref, edit.text, context, false),
    finish: (ref, edit, context) => show(ref, edit.text, context, true),
  };
}
