import type { TransportCall } from '../../delivery/types';
import {
  activityIdOf,
  connectorError,
  isStreamRefusal,
  isUserCancel,
  readFailure,
  type createTeamsConnector,
} from './teamsConnector';
import {
  finalActivity,
  informativeActivity,
  messageActivity,
  typingActivity,
} from './teamsActivities';
import { monotonicNow } from '../../delivery/transportWait';

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

/**
 * The three things done to one Teams message: open it (a stream where Teams allows one, else a
 * posted message), change its text, close its stream. A new stream refused with
 * `403 ContentStreamNotAllowed` turns streaming off for good; a stream Teams ended itself (its
 * two minutes, or the user's Stop: `onUserStop` is called) is updated by PUT from then on.
 */
export function createTeamsParts(
  connector: ReturnType<typeof createTeamsConnector>,
  streamsAtFirst: boolean,
  onUserStop: () => void = () => undefined,
) {
  let streams = streamsAtFirst;
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
    if (refusable && isStreamRefusal(failure)) {
      if (isUserCancel(failure)) onUserStop();
      return { answer, refused: true };
    }
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

  /**
   * Shows `status` as an informative update while no text has streamed: it opens the stream
   * (`part` undefined) or updates it. Once text streams, or where Teams does not stream, it
   * shows nothing (informative updates are the placeholder before the answer).
   */
  const inform = async (
    part: TeamsMessagePart | undefined,
    status: string,
    context: TransportCall,
  ): Promise<TeamsMessagePart | undefined> => {
    if (!streams || (part && (part.closed || part.text !== ''))) return part;
    const label = `Teams POST activities (informative${part ? ` ${part.id}` : ''})`;
    const sequence = (part?.sequence ?? 0) + 1;
    const activity = informativeActivity(status, sequence, part?.id);
    const startedAt = monotonicNow();
    const { answer, refused } = await call(label, 'POST', undefined, activity, context, {
      refusable: true,
    });
    if (refused) {
      if (!part) streams = false;
      return part;
    }
    if (part) {
      part.sequence = sequence;
      return part;
    }
    const id = activityIdOf(answer, label);
    return { id, text: '', kind: 'stream', closed: false, sequence, startedAt, sealed: false };
  };

  return { open, change, close, inform };
}
