import * as z from 'zod/mini';
import type { MessageEdit } from '../channels/messageEditPlanner';
import { parseOptions } from '../internal/options';
import { DeliveryError } from './deliveryError';
import {
  cutChunks,
  finalActivity,
  messageActivity,
  TEAMS_MAX_MESSAGE_CHARS,
  typingActivity,
} from './teamsActivities';
import {
  activityIdOf,
  connectorError,
  createTeamsConnector,
  isStreamRefusal,
  readFailure,
} from './teamsConnector';
import { monotonicNow } from './transportWait';
import type { DeliveryTransport, TransportCall } from './types';

export { cutChunks, TEAMS_MAX_MESSAGE_CHARS } from './teamsActivities';

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

/** One Teams message showing part of a delivered message. */
export interface TeamsMessagePart {
  /** The activity id (a stream's id is its first activity's). */
  id: string;
  text: string;
  /** `stream`: streamed (until `closed`, then updated by PUT); `message`: posted, updated by PUT. */
  kind: 'stream' | 'message';
  closed: boolean;
  /** The last `streamSequence` used. */
  sequence: number;
  startedAt: number;
  /** No more text goes into this part (it was full, or its stream grew too old). */
  sealed: boolean;
}

/** What {@link teamsTransport} keeps for one message: its Teams messages, in order. */
export interface TeamsMessageRef {
  parts: TeamsMessagePart[];
  /** Where in the message's text its unsealed part begins. */
  openAt: number;
}

/** A transport with the message lifecycle: `finish` and the limit `toMessageEdits` should use. */
export type TeamsTransport = DeliveryTransport<TeamsMessageRef> & {
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
 *   (`PUT …/activities/{id}`). A stream Teams ended itself is updated the same way.
 * - One request at a time, `minIntervalMs` apart; `getToken()` before each one.
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
  let streams = settings.isPersonalChat ?? !conversationId.includes('@thread');
  const connector = createTeamsConnector({
    activitiesUrl: `${serviceUrl.replace(/\/+$/, '')}/v3/conversations/${encodeURIComponent(conversationId)}/activities`,
    getToken,
    fetch: settings.fetch ?? globalThis.fetch,
    minIntervalMs,
  });
  const unfinishedSends = new Map<number, TeamsMessageRef>();

  /** Sends one activity; resolves to the answer when it went through, else throws (or returns the refusal). */
  const call = async (
    label: string,
    method: 'POST' | 'PUT',
    activityId: string | undefined,
    activity: unknown,
    context: TransportCall,
    { refusable = false } = {},
  ) => {
    const answer = await connector.request(method, activityId, activity, label, context.signal);
    const failure = readFailure(answer, answer.token);
    if (!failure) return { answer, refused: false };
    if (refusable && isStreamRefusal(failure)) return { answer, refused: true };
    throw connectorError(label, failure, answer);
  };

  const postMessage = async (text: string, context: TransportCall) => {
    const label = 'Teams POST activities (message)';
    const { answer } = await call(label, 'POST', undefined, messageActivity(text), context);
    return activityIdOf(answer, label);
  };

  const update = (part: TeamsMessagePart, text: string, context: TransportCall) =>
    call(
      `Teams PUT activities/${part.id}`,
      'PUT',
      part.id,
      { ...messageActivity(text), id: part.id },
      context,
    );

  /** A new Teams message showing `text`: a stream where Teams allows one, else a posted message. */
  const open = async (text: string, context: TransportCall): Promise<TeamsMessagePart> => {
    if (streams) {
      const startedAt = monotonicNow();
      const label = 'Teams POST activities (stream start)';
      const { answer, refused } = await call(
        label,
        'POST',
        undefined,
        typingActivity(text, 1),
        context,
        {
          refusable: true,
        },
      );
      if (!refused) {
        const id = activityIdOf(answer, label);
        return { id, text, kind: 'stream', closed: false, sequence: 1, startedAt, sealed: false };
      }
      streams = false;
    }
    const id = await postMessage(text, context);
    return {
      id,
      text,
      kind: 'message',
      closed: true,
      sequence: 0,
      startedAt: monotonicNow(),
      sealed: false,
    };
  };

  /** Shows `text` in `part` (a stream update while it streams, else an update of the message). */
  const change = async (part: TeamsMessagePart, text: string, context: TransportCall) => {
    if (part.text === text) return;
    if (!part.closed) {
      const activity = typingActivity(text, ++part.sequence, part.id);
      const label = `Teams POST activities (stream ${part.id})`;
      const { refused } = await call(label, 'POST', undefined, activity, context, {
        refusable: true,
      });
      if (!refused) {
        part.text = text;
        return;
      }
      // Teams ended this stream (its time ran out, or the user stopped it): update the message.
      part.closed = true;
    }
    await update(part, text, context);
    part.text = text;
  };

  /** Ends `part`'s stream with its text, persisted as a message. */
  const close = async (part: TeamsMessagePart, context: TransportCall) => {
    if (part.closed) return;
    const label = `Teams POST activities (stream ${part.id} final)`;
    const { refused } = await call(
      label,
      'POST',
      undefined,
      finalActivity(part.text, part.id),
      context,
      {
        refusable: true,
      },
    );
    part.closed = true;
    if (refused) await update(part, part.text, context);
  };

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
    async send(edit, context) {
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
    edit: (ref, edit, context) => show(ref, edit.text, context, false),
    finish: (ref, edit, context) => show(ref, edit.text, context, true),
  };
}
