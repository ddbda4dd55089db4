import * as z from 'zod/mini';
import type { HttpAnswer } from '../../delivery/httpCall';
import { monotonicNow, waitFor } from '../../delivery/transportWait';

/** Discord's 429 body: `retry_after` in seconds (a float), `global` for the bot-wide limit. */
const RateLimitBody = z.looseObject({
  message: z.optional(z.string()),
  retry_after: z.optional(z.number()),
  global: z.optional(z.boolean()),
  code: z.optional(z.number()),
});

/** What a 429 said: how long to wait and whether every route must wait. */
export interface DiscordRateLimited {
  retryAfterMs: number;
  global: boolean;
  message: string;
}

interface BucketState {
  remaining: number;
  /** Monotonic ms at which the bucket refills. */
  resetAt: number;
}

/**
 * Discord's rate limits as the response headers describe them, for one bot token (its
 * channels' buckets apart: a route names its channel, `POST /channels/1100/messages`).
 * Nothing is hard-coded: a route's bucket is learned from `X-RateLimit-Bucket`, its
 * state from `X-RateLimit-Remaining` and `X-RateLimit-Reset-After` (seconds, with decimals), and
 * a request on a bucket with nothing remaining waits until it resets. A 429 holds its bucket (or,
 * with `global`, every route) for its float `retry_after`.
 */
export function createDiscordRateLimits(now: () => number = monotonicNow) {
  const bucketOfRoute = new Map<string, string>();
  const buckets = new Map<string, BucketState>();
  let globalUntil = -Infinity;

  // A bucket is its hash per top-level resource (`/channels/{id}`): one bot, many channels.
  const bucketKey = (route: string) => {
    const bucket = bucketOfRoute.get(route);
    return bucket === undefined ? route : `${bucket} ${/\/channels\/[^/]+/.exec(route)?.[0] ?? ''}`;
  };

  return {
    /** Waits until `route` may be called: its bucket refilled and no global limit holds. */
    async beforeRequest(route: string, signal: AbortSignal): Promise<void> {
      // A wait ends at the reset, when the bucket counts as full again: two rounds at most.
      for (let round = 0; round < 2; round++) {
        const at = now();
        const bucket = buckets.get(bucketKey(route));
        const bucketWait = bucket && bucket.remaining <= 0 ? bucket.resetAt - at : 0;
        const waitMs = Math.max(globalUntil - at, bucketWait, 0);
        if (waitMs <= 0) break;
        await waitFor(waitMs, signal);
      }
      const bucket = buckets.get(bucketKey(route));
      if (bucket && bucket.remaining > 0) bucket.remaining--;
      else if (bucket && now() >= bucket.resetAt) buckets.delete(bucketKey(route));
    },

    /** Reads an answer's headers (and a 429's body); returns what a 429 said, else undefined. */
    afterAnswer(route: string, answer: HttpAnswer): DiscordRateLimited | undefined {
      const at = now();
      const { headers } = answer;
      const bucketId = headers.get('x-ratelimit-bucket');
      if (bucketId) bucketOfRoute.set(route, bucketId);
      const key = bucketKey(route);
      const remaining = numberHeader(headers, 'x-ratelimit-remaining');
      const resetAfter = numberHeader(headers, 'x-ratelimit-reset-after');
      if (remaining !== undefined && resetAfter !== undefined) {
        buckets.set(key, { remaining, resetAt: at + resetAfter * 1000 });
      }
      if (answer.status !== 429) return undefined;
      const parsed = RateLimitBody.safeParse(answer.body);
      const body = parsed.success ? parsed.data : {};
      const seconds = body.retry_after ?? numberHeader(headers, 'retry-after') ?? 1;
      const retryAfterMs = Math.max(0, seconds * 1000);
      const global = body.global === true || headers.get('x-ratelimit-global') === 'true';
      if (global) globalUntil = Math.max(globalUntil, at + retryAfterMs);
      else {
        const held = buckets.get(key);
        buckets.set(key, {
          remaining: 0,
          resetAt: Math.max(held?.resetAt ?? -Infinity, at + retryAfterMs),
        });
      }
      return { retryAfterMs, global, message: body.message ?? 'rate limited' };
    },
  };
}

function numberHeader(headers: Headers, name: string): number | undefined {
  const value = headers.get(name);
  if (value === null || value.trim() === '') return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}
