import { startFakeJsonServer, type FakeAnswer, type FakeServerOptions } from '../fakeJsonServer';

/** One message as the fake Discord API holds it, with every content it showed, in order. */
export interface FakeDiscordMessage {
  id: string;
  text: string;
  history: string[];
  deleted?: true;
}

/** Settings of {@link startFakeDiscordApi}. */
export interface FakeDiscordApiOptions extends FakeServerOptions {
  token: string;
  /** Channels that exist; others get 404 Unknown Channel. */
  channels: string[];
  /** Requests one route's bucket allows per window (the real ones say 5). @defaultValue 5 */
  bucketLimit?: number;
  /** The bucket's window, scaled down from Discord's seconds. @defaultValue 100 */
  bucketWindowMs?: number;
  /** Forced answers by request number (0-based), before anything is done. */
  fault?: (request: number) => 'global-rate-limit' | 'server-error' | undefined;
  /** `retry_after` (float seconds) of a forced global 429. @defaultValue 0.05 */
  globalRetryAfterSeconds?: number;
  /**
   * The bot's global limit: requests per `globalWindowMs`, every route and channel together,
   * counted when handled (Rate Limits: "All bots can make up to 50 requests per second"); one
   * more gets a global 429 (`counts.globalRateLimited`). @defaultValue no limit
   */
  globalMaxRequests?: number;
  /** @defaultValue 1000 */
  globalWindowMs?: number;
}

/** One request as the fake saw it, for specs that check the pacing. */
export interface FakeDiscordRequest {
  method: string;
  route: string;
  at: number;
  status: number;
}

const LIMIT = 2000;
const BUCKET_IDS: Record<string, string> = {
  'POST messages': '80c17d2f203122d936070c88c8d10f33',
  'PATCH message': 'a9e1b4a2c3f04d5e8b7a6c5d4e3f2a1b',
  'DELETE message': '3f2b8c7d6e5a4b3c2d1e0f9a8b7c6d5e',
};

/**
 * A fake Discord HTTP API (v10) on 127.0.0.1: Create Message (`POST /channels/{id}/messages`),
 * Edit Message (`PATCH …/messages/{mid}`) and Delete Message, with the rules of Discord's docs:
 *
 * - `Authorization: Bot <token>`, else 401 `{ message: '401: Unauthorized', code: 0 }`
 *   (Opcodes and Status Codes: 401 when the header is missing or invalid).
 * - Per-route rate limits (Rate Limits: "per-route … may include the HTTP method", counted per
 *   top-level resource, the channel): each route has a bucket of `bucketLimit` requests per
 *   `bucketWindowMs`, told in every answer by `X-RateLimit-Limit`, `-Remaining`, `-Reset`,
 *   `-Reset-After` (seconds with decimals) and `-Bucket`. A request on an empty bucket gets the
 *   docs' 429: `{ message: 'You are being rate limited.', retry_after: <float seconds>,
 *   global: false }` with `Retry-After` and `X-RateLimit-Scope: user`, and counts in
 *   `counts.rateLimited` (a client that reads the headers never gets one).
 * - A forced global 429 (`X-RateLimit-Global: true`, scope `global`, `global: true`) holds every
 *   route for its `retry_after`; requests inside it get 429 again (`counts.globalViolations`).
 * - `content` of at most 2000 characters (Create Message), else 400 with the exact
 *   `50035 Invalid Form Body` / `BASE_TYPE_MAX_LENGTH` body; empty content is
 *   400 `50006 Cannot send an empty message`. Counted as UTF-16 units (the stricter count).
 * - 404 `10003 Unknown Channel` and `10008 Unknown Message`.
 */
export async function startFakeDiscordApi(options: FakeDiscordApiOptions) {
  const { token, bucketLimit = 5, bucketWindowMs = 100, fault } = options;
  const { globalRetryAfterSeconds = 0.05 } = options;
  const channels = new Map<string, FakeDiscordMessage[]>(options.channels.map((c) => [c, []]));
  const buckets = new Map<string, { remaining: number; resetAt: number }>();
  const requests: FakeDiscordRequest[] = [];
  const counts = { requests: 0, rateLimited: 0, globalRateLimited: 0, globalViolations: 0 };
  let globalUntil = -Infinity;
  const { globalMaxRequests = Infinity, globalWindowMs = 1000 } = options;
  const handledAt: number[] = [];
  let nextId = 1_180_000_000_000_000_000n;

  const answer = (status: number, body: unknown, headers?: Record<string, string>): FakeAnswer => ({
    status,
    body,
    headers,
  });

  const handle = (method: string, path: string, auth: string | undefined, body: any) => {
    const n = counts.requests++;
    const now = performance.now();
    const match = /^\/api\/v10\/channels\/([^/]+)\/messages(?:\/([^/]+))?$/.exec(path);
    const route = match ? `${method} ${match[2] ? 'message' : 'messages'}` : 'unknown';
    const record = (reply: FakeAnswer) => {
      requests.push({ method, route, at: now, status: reply.status });
      return reply;
    };
    if (auth !== `Bot ${token}`)
      return record(answer(401, { message: '401: Unauthorized', code: 0 }));
    if (now < globalUntil) {
      counts.globalViolations++;
      return record(globalLimited((globalUntil - now) / 1000));
    }
    const forced = fault?.(n);
    if (forced === 'server-error')
      return record(answer(500, { message: '500: Internal Server Error', code: 0 }));
    if (forced === 'global-rate-limit') {
      counts.globalRateLimited++;
      globalUntil = now + globalRetryAfterSeconds * 1000;
      return record(globalLimited(globalRetryAfterSeconds));
    }
    while (handledAt.length > 0 && handledAt[0] <= now - globalWindowMs) handledAt.shift();
    if (handledAt.length >= globalMaxRequests) {
      counts.globalRateLimited++;
      return record(globalLimited(Math.max(0.001, (handledAt[0] + globalWindowMs - now) / 1000)));
    }
    handledAt.push(now);
    if (!match || !BUCKET_IDS[route])
      return record(answer(404, { message: '404: Not Found', code: 0 }));
    const [, channelId, messageId] = match;
    // The bucket is per route and per channel (the top-level resource).
    const key = `${route} ${channelId}`;
    let bucket = buckets.get(key);
    if (!bucket || now >= bucket.resetAt) {
      bucket = { remaining: bucketLimit, resetAt: now + bucketWindowMs };
      buckets.set(key, bucket);
    }
    const resetAfter = Math.max(0, bucket.resetAt - now) / 1000;
    const headers = {
      'x-ratelimit-limit': String(bucketLimit),
      'x-ratelimit-remaining': String(Math.max(0, bucket.remaining - 1)),
      'x-ratelimit-reset': ((Date.now() + resetAfter * 1000) / 1000).toFixed(3),
      'x-ratelimit-reset-after': resetAfter.toFixed(3),
      'x-ratelimit-bucket': BUCKET_IDS[route],
    };
    if (bucket.remaining <= 0) {
      counts.rateLimited++;
      return record(
        answer(
          429,
          {
            message: 'You are being rate limited.',
            retry_after: Number(resetAfter.toFixed(3)),
            global: false,
          },
          {
            ...headers,
            'x-ratelimit-remaining': '0',
            'x-ratelimit-scope': 'user',
            'retry-after': String(Math.ceil(resetAfter)),
          },
        ),
      );
    }
    bucket.remaining--;
    const messages = channels.get(channelId);
    if (!messages) return record(answer(404, { message: 'Unknown Channel', code: 10003 }, headers));
    const message = messageId ? messages.find((m) => m.id === messageId && !m.deleted) : undefined;
    if (messageId && !message)
      return record(answer(404, { message: 'Unknown Message', code: 10008 }, headers));
    if (method === 'DELETE') {
      message!.deleted = true;
      return record(answer(204, undefined, headers));
    }
    const content = body?.content;
    if (typeof content !== 'string' || content === '') {
      return record(answer(400, { message: 'Cannot send an empty message', code: 50006 }, headers));
    }
    if (content.length > LIMIT) return record(answer(400, TOO_LONG, headers));
    if (method === 'POST') {
      const created = { id: String(nextId++), text: content, history: [content] };
      messages.push(created);
      return record(answer(200, messageObject(created, channelId), headers));
    }
    message!.text = content;
    message!.history.push(content);
    return record(answer(200, messageObject(message!, channelId), headers));
  };

  const server = await startFakeJsonServer(
    ({ method, path, headers, body }) => handle(method, path, headers.authorization, body),
    options,
  );
  return {
    apiBase: `${server.base}/api/v10`,
    /** Messages per channel, in the order they were created (deleted ones marked). */
    channels,
    /** Every request, in the order handled. */
    requests,
    counts,
    close: server.close,
  };
}

/** What a fake Discord API started by {@link startFakeDiscordApi} offers a spec. */
export type FakeDiscordApi = Awaited<ReturnType<typeof startFakeDiscordApi>>;

/** The body Discord answers a `content` over 2000 characters with (400). */
export const TOO_LONG = {
  code: 50035,
  errors: {
    content: {
      _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 2000 or fewer in length.' }],
    },
  },
  message: 'Invalid Form Body',
};

function globalLimited(seconds: number): FakeAnswer {
  return {
    status: 429,
    body: {
      message: 'You are being rate limited.',
      retry_after: Number(seconds.toFixed(3)),
      global: true,
    },
    headers: {
      'retry-after': String(Math.ceil(seconds)),
      'x-ratelimit-global': 'true',
      'x-ratelimit-scope': 'global',
    },
  };
}

function messageObject(message: FakeDiscordMessage, channelId: string) {
  return { id: message.id, channel_id: channelId, type: 0, content: message.text, embeds: [] };
}
