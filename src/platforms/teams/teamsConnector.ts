import * as z from 'zod/mini';
import { DeliveryError } from '../../delivery/errors';
import { postJson, retryAfterHeaderMs, scrub, type HttpAnswer } from '../../delivery/httpCall';
import { monotonicNow, waitFor } from '../../delivery/transportWait';

/** Bot Framework's error body: `{ error: { code, message } }` (some answers: `{ message }`). */
const ConnectorError = z.looseObject({
  error: z.optional(
    z.looseObject({ code: z.optional(z.string()), message: z.optional(z.string()) }),
  ),
  message: z.optional(z.string()),
});
const ResourceResponse = z.looseObject({ id: z.string() });

/** Settings of {@link createTeamsConnector}. */
export interface TeamsConnectorSettings {
  activitiesUrl: string;
  getToken: () => string | PromiseLike<string>;
  fetch: typeof fetch;
  /** Least time from one request's answer to the start of the next. */
  minIntervalMs: number;
}

/** A Bot Framework answer that failed, read once: its code, message and status. */
export interface ConnectorFailure {
  status: number;
  code?: string;
  message: string;
}

/**
 * The Bot Framework Connector calls of one conversation: `POST …/activities` and
 * `PUT …/activities/{id}`, one request at a time, each at least `minIntervalMs` after the
 * previous one was answered (so Teams, whatever the network's delays, never sees two closer
 * than that), each with a token fresh from `getToken()`.
 */
export function createTeamsConnector(settings: TeamsConnectorSettings) {
  let queue: Promise<unknown> = Promise.resolve();
  let lastAnswerAt = -Infinity;

  const run = async (
    method: 'POST' | 'PUT',
    activityId: string | undefined,
    activity: unknown,
    label: string,
    signal: AbortSignal,
  ): Promise<HttpAnswer & { token: string }> => {
    await waitFor(lastAnswerAt + settings.minIntervalMs - monotonicNow(), signal);
    let token: string;
    try {
      token = await settings.getToken();
    } catch {
      throw new DeliveryError(`${label}: getToken() failed; the request was not sent.`);
    }
    const url =
      activityId === undefined
        ? settings.activitiesUrl
        : `${settings.activitiesUrl}/${encodeURIComponent(activityId)}`;
    try {
      const answer = await postJson(url, activity, {
        fetch: settings.fetch,
        method,
        headers: { authorization: `Bearer ${token}` },
        signal,
        secret: token,
        label,
      });
      return { ...answer, token };
    } finally {
      lastAnswerAt = monotonicNow();
    }
  };

  return {
    /** Sends one activity; resolves to the answer whatever its status (read it with {@link readFailure}). */
    request(
      method: 'POST' | 'PUT',
      activityId: string | undefined,
      activity: unknown,
      label: string,
      signal: AbortSignal,
    ): Promise<HttpAnswer & { token: string }> {
      const next = queue.then(() => run(method, activityId, activity, label, signal));
      queue = next.catch(() => undefined);
      return next;
    },
  };
}

/** What went wrong in a non-2xx answer, `undefined` for a 2xx one. */
export function readFailure(answer: HttpAnswer, token: string): ConnectorFailure | undefined {
  if (answer.status >= 200 && answer.status < 300) {
    const parsed = ConnectorError.safeParse(answer.body);
    // Teams answers an out-of-order stream update with 202 and an error code: a failure.
    const code = parsed.success ? parsed.data.error?.code : undefined;
    if (code === undefined) return undefined;
    return {
      status: answer.status,
      code,
      message: scrub(parsed.data?.error?.message ?? code, token),
    };
  }
  const parsed = ConnectorError.safeParse(answer.body);
  const data = parsed.success ? parsed.data : {};
  const message = data.error?.message ?? data.message ?? 'an answer that is not the Bot Framework';
  return { status: answer.status, code: data.error?.code, message: scrub(message, token) };
}

/** The `id` of a ResourceResponse, or a permanent DeliveryError. */
export function activityIdOf(answer: HttpAnswer, label: string): string {
  const parsed = ResourceResponse.safeParse(answer.body);
  if (parsed.success) return parsed.data.id;
  throw new DeliveryError(`${label}: the answer has no activity id.`, { permanent: true });
}

/** Teams refuses to stream here (not a 1:1 chat, streaming off, the stream is over). */
export function isStreamRefusal(failure: ConnectorFailure): boolean {
  return (
    (failure.status === 403 && failure.code === 'ContentStreamNotAllowed') ||
    (failure.status === 400 && /streaming api is not enabled/i.test(failure.message))
  );
}

/**
 * The user pressed Stop on the streamed message: `403 ContentStreamNotAllowed` "Content stream
 * was cancelled by user." — a stop, not the 2-minute limit ("…exceeded streaming time.").
 */
export function isUserCancel(failure: ConnectorFailure): boolean {
  return isStreamRefusal(failure) && /cancel/i.test(failure.message);
}

/**
 * The failure as the DeliveryError `deliver` reads: 429 waits `Retry-After` when Teams sends
 * one (else backs off); 401, 403, 404 and other 4xx are permanent; 5xx and 408 are retried.
 */
export function connectorError(label: string, failure: ConnectorFailure, answer: HttpAnswer) {
  const what = `${label}: ${failure.status} ${failure.code ? `${failure.code} ` : ''}${failure.message}`;
  const { status } = failure;
  if (status === 429) {
    return new DeliveryError(what, { status, retryAfterMs: retryAfterHeaderMs(answer.headers) });
  }
  if (status >= 200 && status < 300) return new DeliveryError(what, { status });
  return new DeliveryError(what, { status, permanent: status < 500 && status !== 408 });
}
