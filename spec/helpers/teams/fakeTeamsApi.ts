import { startFakeJsonServer, type FakeAnswer, type FakeServerOptions } from '../fakeJsonServer';

/** One message as the fake Teams holds it, with every text it showed, in order. */
export interface FakeTeamsMessage {
  id: string;
  text: string;
  history: string[];
  /** `stream`: started by a streaming `typing` activity; `message`: posted. */
  kind: 'stream' | 'message';
  /**
   * `streaming` until a final message (`final`), Teams' time limit (`timed-out`) or the user's
   * Stop (`cancelled`) ends it.
   */
  state: 'streaming' | 'final' | 'timed-out' | 'cancelled' | 'posted';
  /** Updated by PUT at least once. */
  updated?: true;
  /** Streams only: the text of every informative update, in order (never the message's text). */
  informative?: string[];
}

/** One request the fake handled, for specs that check order and pacing. */
export interface FakeTeamsRequest {
  method: string;
  kind: 'stream-start' | 'stream-update' | 'stream-final' | 'post' | 'update' | 'other';
  sequence?: number;
  streamId?: string;
  receivedAt: number;
  handledAt: number;
  status: number;
}

/** Settings of {@link startFakeTeamsApi}. */
export interface FakeTeamsApiOptions extends FakeServerOptions {
  /** The token accepted at first (`rotateToken` changes it). */
  token: string;
  /** Conversations that exist, and whether each is a 1:1 chat (where streaming is allowed). */
  conversations: Record<string, { personal: boolean }>;
  /** Least time between two streaming requests in a conversation (Teams: 1 s). @defaultValue 1000 */
  minStreamIntervalMs?: number;
  /** A stream's lifetime (Teams: two minutes). @defaultValue 120000 */
  maxStreamMs?: number;
  /** Forced answers by request number (0-based), before anything is done. */
  fault?: (request: number) => 'throttled' | 'server-error' | undefined;
}

const MAX_INFORMATIVE_CHARS = 1000;
const MAX_CHARS = 28000;
const notAllowed = (message: string): FakeAnswer => ({
  status: 403,
  body: { error: { code: 'ContentStreamNotAllowed', message } },
});
const badRequest = (message: string): FakeAnswer => ({
  status: 400,
  body: { error: { code: 'BadRequest', message } },
});

/**
 * A fake Bot Framework Connector for Teams on 127.0.0.1: `POST /v3/conversations/{id}/activities`
 * and `PUT /v3/conversations/{id}/activities/{activityId}`, enforcing what learn.microsoft.com's
 * "Stream bot messages" (streaming-ux) and the Bot Framework REST reference say:
 *
 * - `Authorization: Bearer <token>`, else 401 `{ message: 'Authorization has been denied for
 *   this request.' }` (the Connector's answer); an unknown conversation is 404.
 * - Streaming only in 1:1 chats ("Streaming bot messages is available only for one-on-one
 *   chats"): elsewhere a streaming `typing` activity gets 403 `ContentStreamNotAllowed`
 *   "Content stream is not allowed".
 * - A stream starts with `streamSequence` 1 and text (400 "Start streaming activities should
 *   include text"), answered 201 `{ id }` = the streamId; each update carries the streamId and a
 *   higher sequence — a lower or equal one is dropped with 202
 *   `ContentStreamSequenceOrderPreConditionFailed` (`counts.outOfOrder`); its text must contain
 *   the previous text (403 "Request streamed content should contain the previously streamed
 *   content").
 * - "A minimum rate of one request per second" while streaming: a streaming request sooner than
 *   `minStreamIntervalMs` after the previous one in the conversation gets 429 "API calls quota
 *   exceeded" (the docs give no code; `counts.tooFast`). Requests that overlap in time are
 *   counted in `counts.overlaps` (the docs: call the next one only after the previous answered).
 * - The final `message` with `streamType: 'final'` and no `streamSequence` (400 if set) closes
 *   the stream; anything after it gets 403 "Content stream is not allowed on an already completed
 *   streamed message". A stream still open `maxStreamMs` after its start is ended by Teams with
 *   the text it had: 403 "Content stream finished due to exceeded streaming time." (`timed-out`).
 * - Informative updates ("a blue progress bar ... about the bot's ongoing actions";
 *   "informative messages must not be more than 1 kb or 1000 characters"): `typing` with
 *   `streamType: 'informative'`, starting a stream (sequence 1, answered 201 `{ id }`) or
 *   updating one by streamId with a higher sequence; recorded apart from the streamed text, which
 *   the next streaming update starts afresh. Over 1,000 characters: 400 (a body of the fake's
 *   own, the docs give none).
 * - The user's Stop on a streaming message (`pressStop`) ends the stream with the text it had;
 *   every later streaming request gets 403 `ContentStreamNotAllowed` "Content stream was
 *   cancelled by user." (the Connector's answer, as microsoft/teams.ts#101 quotes it).
 * - A message or stream text over 28,000 characters is refused (stream: 403 "Message size too
 *   large"; post / update: 413, a body of the fake's own, the docs give none).
 * - PUT replaces a posted message's text, or a stream's once it is final or timed out (an open
 *   stream cannot be updated: 400, the fake's own choice).
 */
export async function startFakeTeamsApi(options: FakeTeamsApiOptions) {
  const { minStreamIntervalMs = 1000, maxStreamMs = 120000, fault } = options;
  let token = options.token;
  const conversations = new Map(
    Object.entries(options.conversations).map(([id, { personal }]) => [
      id,
      {
        personal,
        messages: [] as FakeTeamsMessage[],
        lastStreamCallAt: -Infinity,
        startedAt: new Map<string, number>(),
        sequence: new Map<string, number>(),
      },
    ]),
  );
  const requests: FakeTeamsRequest[] = [];
  const counts = { requests: 0, outOfOrder: 0, tooFast: 0, overlaps: 0, timedOut: 0, refused: 0 };
  let nextId = 1728640934763;

  const handle = (
    method: string,
    path: string,
    auth: string | undefined,
    body: any,
    receivedAt: number,
  ) => {
    const n = counts.requests++;
    const now = performance.now();
    const entry: FakeTeamsRequest = {
      method,
      kind: 'other',
      receivedAt,
      handledAt: now,
      status: 0,
    };
    if (requests.some((r) => r.handledAt > receivedAt)) counts.overlaps++;
    const reply = (answer: FakeAnswer) => {
      entry.status = answer.status;
      requests.push(entry);
      return answer;
    };
    const info = (body?.entities ?? []).find((e: any) => e?.type === 'streaminfo');
    if (info) {
      entry.kind =
        info.streamType === 'final'
          ? 'stream-final'
          : info.streamId
            ? 'stream-update'
            : 'stream-start';
      entry.sequence = info.streamSequence;
      entry.streamId = info.streamId;
    } else entry.kind = method === 'PUT' ? 'update' : 'post';
    if (auth !== `Bearer ${token}`) {
      return reply({
        status: 401,
        body: { message: 'Authorization has been denied for this request.' },
      });
    }
    const forced = fault?.(n);
    if (forced === 'server-error')
      return reply({
        status: 500,
        body: { error: { code: 'ServiceError', message: 'Internal error' } },
      });
    if (forced === 'throttled')
      return reply({
        status: 429,
        body: { error: { code: 'Throttled', message: 'API calls quota exceeded' } },
        headers: { 'retry-after': '0.02' },
      });
    const match = /^\/v3\/conversations\/([^/]+)\/activities(?:\/([^/]+))?$/.exec(path);
    const conversation = match && conversations.get(decodeURIComponent(match[1]));
    if (!match || !conversation) {
      return reply({
        status: 404,
        body: { error: { code: 'ConversationNotFound', message: 'Conversation not found.' } },
      });
    }
    const text: unknown = body?.text;
    const byId = (id: string) => conversation.messages.find((m) => m.id === id);

    if (method === 'PUT') {
      const message = byId(decodeURIComponent(match[2] ?? ''));
      if (!message)
        return reply({
          status: 404,
          body: { error: { code: 'ActivityNotFound', message: 'Activity not found.' } },
        });
      if (message.state === 'streaming')
        return reply(badRequest('A streaming message cannot be updated until its stream ends'));
      if (typeof text !== 'string' || text === '')
        return reply(badRequest('Activity text is required'));
      if (text.length > MAX_CHARS)
        return reply({
          status: 413,
          body: { error: { code: 'MessageSizeTooBig', message: 'Message size too large' } },
        });
      message.text = text;
      message.history.push(text);
      message.updated = true;
      if (message.kind === 'message') message.state = 'posted';
      return reply({ status: 200, body: { id: message.id } });
    }

    if (!info) {
      if (body?.type !== 'message' || typeof text !== 'string' || text === '')
        return reply(badRequest('Activity text is required'));
      if (text.length > MAX_CHARS)
        return reply({
          status: 413,
          body: { error: { code: 'MessageSizeTooBig', message: 'Message size too large' } },
        });
      const message: FakeTeamsMessage = {
        id: String(nextId++),
        text,
        history: [text],
        kind: 'message',
        state: 'posted',
      };
      conversation.messages.push(message);
      return reply({ status: 201, body: { id: message.id } });
    }

    // A streaming request.
    entry.kind =
      info.streamType === 'final'
        ? 'stream-final'
        : info.streamId
          ? 'stream-update'
          : 'stream-start';
    entry.sequence = info.streamSequence;
    entry.streamId = info.streamId;
    if (!conversation.personal) {
      counts.refused++;
      return reply(notAllowed('Content stream is not allowed'));
    }
    if (receivedAt - conversation.lastStreamCallAt < minStreamIntervalMs) {
      counts.tooFast++;
      return reply({
        status: 429,
        body: { error: { code: 'Throttled', message: 'API calls quota exceeded' } },
      });
    }
    conversation.lastStreamCallAt = receivedAt;
    if (info.streamType === 'informative') {
      if (body?.type !== 'typing' || typeof info.streamSequence !== 'number')
        return reply(
          badRequest('Informative activities are typing activities with a streamSequence'),
        );
      if (typeof text !== 'string' || text === '')
        return reply(badRequest('Informative activities should include text'));
      if (text.length > MAX_INFORMATIVE_CHARS)
        return reply(badRequest('Informative message too long'));
      if (!info.streamId) {
        if (info.streamSequence !== 1)
          return reply(badRequest('The first streaming activity must have streamSequence 1'));
        const message: FakeTeamsMessage = {
          id: String(nextId++),
          text: '',
          history: [],
          kind: 'stream',
          state: 'streaming',
          informative: [text],
        };
        conversation.messages.push(message);
        conversation.startedAt.set(message.id, receivedAt);
        conversation.sequence.set(message.id, 1);
        return reply({ status: 201, body: { id: message.id } });
      }
      const informed = byId(info.streamId);
      if (!informed || informed.kind !== 'stream' || informed.state !== 'streaming')
        return reply(badRequest('Unknown streamId'));
      if (info.streamSequence <= conversation.sequence.get(informed.id)!)
        return reply(badRequest('streamSequence must increase'));
      conversation.sequence.set(informed.id, info.streamSequence);
      (informed.informative ??= []).push(text);
      return reply({ status: 202, body: {} });
    }
    if (entry.kind === 'stream-start') {
      if (body?.type !== 'typing' || info.streamSequence !== 1)
        return reply(badRequest('The first streaming activity must have streamSequence 1'));
      if (typeof text !== 'string' || text === '')
        return reply(badRequest('Start streaming activities should include text'));
      if (text.length > MAX_CHARS) return reply(notAllowed('Message size too large'));
      const message: FakeTeamsMessage = {
        id: String(nextId++),
        text,
        history: [text],
        kind: 'stream',
        state: 'streaming',
      };
      conversation.messages.push(message);
      conversation.startedAt.set(message.id, receivedAt);
      conversation.sequence.set(message.id, 1);
      return reply({ status: 201, body: { id: message.id } });
    }
    const stream = byId(info.streamId);
    if (!stream || stream.kind !== 'stream') return reply(badRequest('Unknown streamId'));
    if (
      stream.state === 'streaming' &&
      receivedAt - conversation.startedAt.get(stream.id)! > maxStreamMs
    ) {
      stream.state = 'timed-out';
      counts.timedOut++;
    }
    if (stream.state === 'timed-out')
      return reply(notAllowed('Content stream finished due to exceeded streaming time.'));
    if (stream.state === 'cancelled')
      return reply(notAllowed('Content stream was cancelled by user.'));
    if (stream.state === 'final')
      return reply(
        notAllowed('Content stream is not allowed on an already completed streamed message'),
      );
    if (typeof text !== 'string' || text === '')
      return reply(badRequest('Streaming activities should include text'));
    if (text.length > MAX_CHARS) return reply(notAllowed('Message size too large'));
    if (entry.kind === 'stream-final') {
      if (body?.type !== 'message' || info.streamSequence !== undefined)
        return reply(badRequest('The final streaming message must not have a streamSequence'));
      stream.state = 'final';
    } else {
      if (body?.type !== 'typing' || typeof info.streamSequence !== 'number')
        return reply(badRequest('Streaming activities need a streamSequence'));
      if (info.streamSequence <= conversation.sequence.get(stream.id)!) {
        counts.outOfOrder++;
        return reply({
          status: 202,
          body: {
            error: {
              code: 'ContentStreamSequenceOrderPreConditionFailed',
              message: 'PreCondition failed exception when processing streaming activity.',
            },
          },
        });
      }
      if (!text.startsWith(stream.text))
        return reply(
          notAllowed('Request streamed content should contain the previously streamed content'),
        );
      conversation.sequence.set(stream.id, info.streamSequence);
    }
    stream.text = text;
    stream.history.push(text);
    return reply({
      status: entry.kind === 'stream-final' ? 200 : 202,
      body: entry.kind === 'stream-final' ? { id: stream.id } : {},
    });
  };

  const server = await startFakeJsonServer(
    ({ method, path, headers, body, receivedAt }) =>
      handle(method, path, headers.authorization, body, receivedAt),
    options,
  );
  return {
    serviceUrl: `${server.base}/`,
    /** Messages per conversation, in the order they were created. */
    messages: (conversationId: string) => conversations.get(conversationId)?.messages ?? [],
    requests,
    counts,
    /** The user presses Stop on the conversation's streaming message; returns its id. */
    pressStop(conversationId: string): string {
      const stream = conversations
        .get(conversationId)
        ?.messages.find((m) => m.kind === 'stream' && m.state === 'streaming');
      if (!stream) throw new Error(`the fake Teams: ${conversationId} streams no message`);
      stream.state = 'cancelled';
      return stream.id;
    },
    /** From now on only `next` is accepted (the old token expired). */
    rotateToken(next: string) {
      token = next;
    },
    close: server.close,
  };
}

/** What a fake Teams started by {@link startFakeTeamsApi} offers a spec. */
export type FakeTeamsApi = Awaited<ReturnType<typeof startFakeTeamsApi>>;
