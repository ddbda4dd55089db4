import { startFakeJsonServer, type FakeAnswer, type FakeServerOptions } from './fakeJsonServer';

/** One message as the fake Slack API holds it, with every text it showed, in order. */
export interface FakeSlackMessage {
  ts: string;
  text: string;
  history: string[];
}

/** Settings of {@link startFakeSlackApi}. */
export interface FakeSlackApiOptions extends FakeServerOptions {
  token: string;
  /** Channels that exist; others get `channel_not_found`. */
  channels: string[];
  /** Least time between two handled calls to one channel; closer ones get 429. @defaultValue 20 */
  minIntervalMs?: number;
  /** Forced answers, by request number (0-based): a 429 or a 500 before anything is done. */
  fault?: (request: number) => 'rate-limit' | 'server-error' | undefined;
  /** `Retry-After` (seconds) for a forced 429. @defaultValue 0.01 */
  forcedRetryAfterSeconds?: number;
}

/**
 * A fake Slack Web API on 127.0.0.1 (`chat.postMessage`, `chat.update`) with the real one's
 * rules: a Bearer token (`invalid_auth` / `not_authed`, HTTP 200), a per-channel minimum interval
 * (HTTP 429, `Retry-After`, `ratelimited`), `channel_not_found`, `no_text`, `msg_too_long`
 * (40 000 characters), `message_not_found` for an unknown `ts`.
 */
export async function startFakeSlackApi(options: FakeSlackApiOptions) {
  const { token, minIntervalMs = 20, fault, forcedRetryAfterSeconds = 0.01 } = options;
  const channels = new Map<string, FakeSlackMessage[]>(options.channels.map((c) => [c, []]));
  const lastHandledAt = new Map<string, number>();
  const counts = { requests: 0, rateLimited: 0 };
  let nextTs = 1;

  const answer = (body: unknown, status = 200, headers?: Record<string, string>): FakeAnswer => ({
    status,
    headers,
    body,
  });
  const rateLimited = (seconds: number) => {
    counts.rateLimited++;
    return answer({ ok: false, error: 'ratelimited' }, 429, { 'retry-after': String(seconds) });
  };

  const handle = (path: string, auth: string | undefined, body: any): FakeAnswer => {
    const n = counts.requests++;
    if (!auth) return answer({ ok: false, error: 'not_authed' });
    if (auth !== `Bearer ${token}`) return answer({ ok: false, error: 'invalid_auth' });
    const forced = fault?.(n);
    if (forced === 'server-error') return answer({ ok: false, error: 'internal_error' }, 500);
    if (forced === 'rate-limit') return rateLimited(forcedRetryAfterSeconds);
    const messages = channels.get(body.channel);
    if (!messages) return answer({ ok: false, error: 'channel_not_found' });
    const now = performance.now();
    const waitMs = (lastHandledAt.get(body.channel) ?? -Infinity) + minIntervalMs - now;
    if (waitMs > 0) return rateLimited(waitMs / 1000);
    lastHandledAt.set(body.channel, now);
    if (typeof body.text !== 'string' || body.text === '')
      return answer({ ok: false, error: 'no_text' });
    if (body.text.length > 40000) return answer({ ok: false, error: 'msg_too_long' });
    if (path === '/api/chat.postMessage') {
      const message = {
        ts: `${1700000000 + nextTs++}.000100`,
        text: body.text,
        history: [body.text],
      };
      messages.push(message);
      return answer({ ok: true, channel: body.channel, ts: message.ts });
    }
    if (path === '/api/chat.update') {
      const message = messages.find((m) => m.ts === body.ts);
      if (!message) return answer({ ok: false, error: 'message_not_found' });
      message.text = body.text;
      message.history.push(body.text);
      return answer({ ok: true, channel: body.channel, ts: message.ts, text: body.text });
    }
    return answer({ ok: false, error: 'unknown_method' }, 404);
  };

  const server = await startFakeJsonServer(
    ({ path, headers, body }) => handle(path, headers.authorization, body),
    options,
  );
  return {
    apiBase: server.base,
    /** Messages per channel, in the order they were posted. */
    channels,
    counts,
    close: server.close,
  };
}

/** What a fake Slack API started by {@link startFakeSlackApi} offers a spec. */
export type FakeSlackApi = Awaited<ReturnType<typeof startFakeSlackApi>>;
