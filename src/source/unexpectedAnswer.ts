import { isRetryableHttpStatus } from '../errors';
import { failedEvent, type FailedEvent } from '../events';
import { excerpt } from './excerpt';

/**
 * Answers that are not a stream of events: a non-2xx status, or an HTML page served with 200
 * (a proxy's login or error page). Each becomes one `failed` carrying a short excerpt of the
 * body, read without reading all of it.
 */

/** True when the Response is not a stream of events at all, before its body is read. */
export function isUnexpectedAnswer(response: Response): boolean {
  return !response.ok || /^text\/html\b/i.test(response.headers.get('content-type') ?? '');
}

/** Reads a short excerpt of the body and builds the `failed`; `cancel` releases the body early. */
export function failureForAnswer(response: Response): {
  failure: Promise<FailedEvent>;
  cancel(): void;
} {
  const reader = response.body?.getReader();
  const failure = readExcerpt(reader).then((body) => {
    if (!response.ok) {
      const statusText = response.statusText ? ` ${response.statusText}` : '';
      const event = failedEvent(
        'http-error',
        `The provider answered HTTP ${response.status}${statusText}: ${body}`,
        isRetryableHttpStatus(response.status),
      );
      event.error.status = response.status;
      return event;
    }
    return unexpectedBody(
      `The provider answered HTTP ${response.status} with an HTML page, not an event stream: ${body}`,
    );
  });
  return { failure, cancel: () => void reader?.cancel().catch(() => undefined) };
}

/** The `failed` for a body that parsed as no event at all; `what` says what it was instead. */
export function unexpectedBody(what: string): FailedEvent {
  return failedEvent(
    'unexpected-body',
    `${what}. Check the URL, the API key and that the request asked for a stream.`,
    false,
  );
}

async function readExcerpt(
  reader: ReadableStreamDefaultReader<Uint8Array> | undefined,
  maxBytes = 2048,
): Promise<string> {
  if (!reader) return '(no body)';
  const decoder = new TextDecoder();
  let text = '';
  let length = 0;
  try {
    while (length < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      length += value.length;
    }
  } catch {
    // A body that fails (or is cancelled) while we read the excerpt still yields what arrived.
  } finally {
    reader.cancel().catch(() => undefined);
  }
  text = text.trim();
  return text === '' ? '(empty body)' : excerpt(text, 200);
}
