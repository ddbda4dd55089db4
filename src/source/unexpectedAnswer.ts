import { isRetryableHttpStatus } from '../errors';
import { type FailedEvent } from '../events';
import { failedEvent } from '../terminalEvents';
import { openResponseReader, type ChunkReader } from './byteSource';
import { bodyExcerpt } from './excerpt';
import { providerMessageOf, retryAfterMsOf } from './httpError';

/**
 * Answers that are not a stream of events: a non-2xx status, or an HTML page served with 200
 * (a proxy's login or error page). Each becomes one `failed` carrying a short excerpt of the
 * body, read without reading all of it; an HTML page is named by its title or stripped text,
 * never passed on as markup (the message reaches browsers and chats).
 */

/** What is read of a Response before its body, once: the status check and the format use it. */
export interface ResponseHead {
  response: Response;
  ok: boolean;
  headers: Headers;
  contentType: string | null;
}

/** Reads the head of `response`: `ok`, `headers` and the Content-Type, each once. */
export function responseHead(response: Response): ResponseHead {
  const headers = response.headers;
  return { response, ok: response.ok, headers, contentType: headers.get('content-type') };
}

/** True when the Response is not a stream of events at all, before its body is read. */
export function isUnexpectedAnswer({ ok, contentType }: ResponseHead): boolean {
  return !ok || /^text\/html\b/i.test(contentType ?? '');
}

/**
 * Reads the start of the body and builds the `failed`; `cancel` releases the body early. A
 * non-2xx is `http-error` with `status`, the provider's own message when its body is JSON
 * (else a short excerpt), and `retryAfterMs` from `Retry-After` / `retry-after-ms`.
 */
export function failureForAnswer({ response, ok, headers }: ResponseHead): {
  failure: Promise<FailedEvent>;
  cancel(): void;
} {
  // Throws `body-used` for a body already read, as the stream sources do.
  const reader = openResponseReader(response);
  const { status, statusText } = response;
  const failure = readStart(reader).then((body) => {
    const shown = body === '' ? '(empty body)' : bodyExcerpt(body, 200);
    if (!ok) {
      const shownStatusText = statusText ? ` ${statusText}` : '';
      return failedEvent(
        'http-error',
        `The provider answered HTTP ${status}${shownStatusText}: ${providerMessageOf(body) ?? shown}`,
        isRetryableHttpStatus(status),
        { status, retryAfterMs: retryAfterMsOf(headers) },
      );
    }
    return unexpectedBody(
      `The provider answered HTTP ${status} with ${shown}, not an event stream`,
    );
  });
  return { failure, cancel: () => reader.cancel() };
}

/** The `failed` for a body that parsed as no event at all; `what` says what it was instead. */
export function unexpectedBody(what: string): FailedEvent {
  return failedEvent(
    'unexpected-body',
    `${what}. Check the URL, the API key and that the request asked for a stream.`,
    false,
  );
}

/** The first `maxBytes` (or so) of the body as trimmed text: enough for a JSON error object. */
/**
 * The `failed` for a body that held no event at all (0 bytes, or only blank lines and SSE
 * comments): the same fault whether or not `provider` was given, and worth a retry.
 */
export function emptyBody(): FailedEvent {
  return failedEvent(
    'stream-closed',
    'The response body was empty: the provider closed the stream before sending any event. ' +
      'Retrying may help; if it keeps happening, check the model name and that the request asked for a stream.',
    true,
  );
}

async function readStart(reader: ChunkReader, maxBytes = 16384): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  let length = 0;
  try {
    while (length < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value as Uint8Array, { stream: true });
      length += value.length;
    }
  } catch {
    // A body that fails (or is cancelled) while we read the excerpt still yields what arrived.
  } finally {
    reader.cancel();
  }
  return text.trim();
}
