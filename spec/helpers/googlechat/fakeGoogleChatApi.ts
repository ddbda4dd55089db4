// A fake Google Chat REST API on 127.0.0.1: `spaces.messages.create` (POST
// /v1/spaces/{space}/messages) and `spaces.messages.patch` (PATCH /v1/{name}?updateMask=text),
// enforcing what the docs say: a Bearer token (401 UNAUTHENTICATED), a known space (404), at most
// 32,000 bytes a message (400 INVALID_ARGUMENT), `updateMask=text`, and the per-space write quota
// (`writesPerWindow` in `windowMs`, 60 a minute for real: 429 RESOURCE_EXHAUSTED), with Google's
// error bodies.

import { startFakeJsonServer, type FakeAnswer, type FakeServerOptions } from '../fakeJsonServer';

export interface FakeGoogleChatApiOptions extends FakeServerOptions {
  token: string;
  space: string;
  /** @defaultValue 60 */
  writesPerWindow?: number;
  /** @defaultValue 60000 */
  windowMs?: number;
}

export interface FakeChatMessage {
  name: string;
  text: string;
  thread?: string;
  /** Every text it showed, in order. */
  history: string[];
}

export interface FakeGoogleChatApi {
  apiBase: string;
  messages: FakeChatMessage[];
  /** Accepted writes (create and patch), by arrival time. */
  writes: number[];
  counts: { rateLimited: number; rejected: number };
  close(): Promise<void>;
}

const googleError = (code: number, status: string, message: string): FakeAnswer => ({
  status: code,
  body: { error: { code, message, status } },
});

export async function startFakeGoogleChatApi(
  options: FakeGoogleChatApiOptions,
): Promise<FakeGoogleChatApi> {
  const { token, space, writesPerWindow = 60, windowMs = 60_000 } = options;
  const messages: FakeChatMessage[] = [];
  const writes: number[] = [];
  const counts = { rateLimited: 0, rejected: 0 };
  const reject = (answer: FakeAnswer) => {
    counts.rejected++;
    return answer;
  };
  const server = await startFakeJsonServer(({ method, path, headers, body, receivedAt }) => {
    if (headers.authorization !== `Bearer ${token}`) {
      return reject(
        googleError(
          401,
          'UNAUTHENTICATED',
          'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
        ),
      );
    }
    const url = new URL(path, 'http://fake');
    const create = method === 'POST' && url.pathname === `/v1/${space}/messages`;
    const patch = method === 'PATCH' && url.pathname.startsWith(`/v1/${space}/messages/`);
    if (!create && !patch)
      return reject(googleError(404, 'NOT_FOUND', 'Requested entity was not found.'));
    const recent = writes.filter((at) => receivedAt - at < windowMs);
    if (recent.length >= writesPerWindow) {
      counts.rateLimited++;
      return googleError(
        429,
        'RESOURCE_EXHAUSTED',
        "Quota exceeded for quota metric 'Write requests' and limit 'Write requests per minute per space' of service 'chat.googleapis.com'.",
      );
    }
    const text: unknown = body?.text;
    if (typeof text !== 'string' || text === '') {
      return reject(googleError(400, 'INVALID_ARGUMENT', 'Message cannot be empty.'));
    }
    if (Buffer.byteLength(text) > 32_000) {
      return reject(googleError(400, 'INVALID_ARGUMENT', 'Message text is too long.'));
    }
    writes.push(receivedAt);
    if (create) {
      const message = {
        name: `${space}/messages/m${messages.length + 1}`,
        text,
        thread: body.thread?.name ?? `${space}/threads/t${messages.length + 1}`,
        history: [text],
      };
      messages.push(message);
      return { status: 200, body: { name: message.name, text, thread: { name: message.thread } } };
    }
    if (url.searchParams.get('updateMask') !== 'text') {
      return reject(googleError(400, 'INVALID_ARGUMENT', 'Invalid update mask.'));
    }
    const message = messages.find((m) => `/v1/${m.name}` === url.pathname);
    if (!message) return reject(googleError(404, 'NOT_FOUND', 'Message not found.'));
    message.text = text;
    message.history.push(text);
    return { status: 200, body: { name: message.name, text } };
  }, options);
  return { apiBase: server.base, messages, writes, counts, close: server.close };
}
