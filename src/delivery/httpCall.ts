import { errorMessage } from '../errors';
import { DeliveryError } from './errors';

/** A chat API's answer: status, headers and the parsed JSON body (undefined when not JSON). */
export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: unknown;
}

/** Settings of one {@link postJson} call. */
export interface PostJsonOptions {
  fetch: typeof fetch;
  headers?: Record<string, string>;
  signal: AbortSignal;
  /** Removed from every message this call builds (the bot token). */
  secret: string;
  /** Names the call in messages, e.g. `Telegram sendMessage`. */
  label: string;
  /** The HTTP method; a payload of `undefined` sends no body. @defaultValue `'POST'` */
  method?: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
}

/**
 * POSTs `payload` as JSON (or sends it with `options.method`) and reads the answer. A request
 * that never got an answer (connection refused, reset, DNS) rejects with a retryable
 * {@link DeliveryError}, `ambiguous` unless the connection was never made (refused, name not
 * found); its message never holds the secret, even when the URL does.
 */
export async function postJson(
  url: string,
  payload: unknown,
  options: PostJsonOptions,
): Promise<HttpAnswer> {
  let response: Response;
  try {
    const hasBody = payload !== undefined;
    response = await options.fetch(url, {
      method: options.method ?? 'POST',
      headers: {
        ...(hasBody ? { 'content-type': 'application/json; charset=utf-8' } : {}),
        ...options.headers,
      },
      body: hasBody ? JSON.stringify(payload) : undefined,
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal.aborted) throw error;
    const why = causeChain(error);
    const failure = scrub(`${options.label}: the request failed (${why})`, options.secret);
    throw new DeliveryError(failure, { ambiguous: !/ECONNREFUSED|ENOTFOUND|EAI_AGAIN/.test(why) });
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body };
}

/**
 * {@link postJson} with `Authorization: Bearer <token>`, the token kept out of every message it
 * builds: the call of the chat APIs that take an OAuth or system-user token.
 */
export function postWithBearer(
  url: string,
  payload: unknown,
  options: Omit<PostJsonOptions, 'headers' | 'secret'> & { token: string },
): Promise<HttpAnswer> {
  const { token, ...rest } = options;
  return postJson(url, payload, {
    ...rest,
    headers: { authorization: `Bearer ${token}` },
    secret: token,
  });
}

/** `text` with every occurrence of `secret` replaced by `***`. */
export function scrub(text: string, secret: string): string {
  return secret === '' ? text : text.split(secret).join('***');
}

/** A `Retry-After` header in milliseconds (seconds, as Slack sends it), else undefined. */
export function retryAfterHeaderMs(headers: Headers): number | undefined {
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

// fetch rejects with "fetch failed" and hides the reason in `cause`.
function causeChain(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 3 && current !== undefined && current !== null; depth++) {
    parts.push(errorMessage(current));
    current = (current as { cause?: unknown }).cause;
  }
  return parts.join(': ').slice(0, 300);
}
