/**
 * What {@link pipeToNodeResponse} needs of a Node `http.ServerResponse` (or an `http2`
 * compatibility response), declared here so that the core's types do not need `@types/node`.
 */
export interface NodeResponseLike {
  writeHead(status: number, headers: Record<string, string | string[]>): unknown;
  /** Node's `write`: false when its buffer is full (wait for `drain`). */
  write(chunk: Uint8Array): boolean;
  end(): unknown;
  destroy(error?: Error): unknown;
  flushHeaders?(): void;
  readonly destroyed: boolean;
  once(event: 'close' | 'drain', listener: () => void): unknown;
  off(event: 'close' | 'drain', listener: () => void): unknown;
}

/**
 * Sends a fetch `Response` (from `toSseResponse`, `toUIMessageStreamResponse`, or any fetch
 * handler) through a Node `http` `ServerResponse`: its status, its headers, then its body.
 * Resolves once the body was written whole, or the client went away.
 *
 * ```
 * body:    -a-b-c|            chunks of the Response's body
 * res:     H-a-b-c|           H = writeHead(status, headers) and flushed at once
 * client gone at 3:  -a-!     the body is cancelled (its follower unsubscribed, timers stopped)
 * ```
 *
 * - Headers go out at once (`flushHeaders`), so an SSE client sees the stream open before the
 *   first event. Several `set-cookie` headers stay several.
 * - Backpressure: when `res.write` says its buffer is full, the next chunk is read only after
 *   `drain`, so a slow client never makes the server buffer the whole body.
 * - The client going away (`close` before the end) cancels the body. A body that errors
 *   midway destroys the connection, so the client sees the answer cut, never a clean end.
 *
 * @example
 * ```ts
 * createServer((req, res) => {
 *   void pipeToNodeResponse(toSseResponse(followLog(log, responseId)), res);
 * }).listen(3000);
 * ```
 * @param response - the response to send
 * @param res - Node's `ServerResponse` for the request
 */
export async function pipeToNodeResponse(response: Response, res: NodeResponseLike): Promise<void> {
  res.writeHead(response.status, headersOf(response.headers));
  const body = response.body;
  if (!body || res.destroyed) {
    await body?.cancel().catch(() => undefined);
    if (!res.destroyed) res.end();
    return;
  }
  res.flushHeaders?.();
  const reader = body.getReader();
  let gone = false;
  const onClose = () => {
    gone = true;
    reader.cancel().catch(() => undefined);
  };
  res.once('close', onClose);
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (!gone) res.destroy(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      if (chunk.done || gone) break;
      if (!res.write(chunk.value)) await drained(res);
    }
    if (!gone) res.end();
  } finally {
    res.off('close', onClose);
  }
}

/** The headers as Node takes them; `set-cookie` as its list. */
function headersOf(headers: Headers): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  headers.forEach((value, name) => {
    if (name !== 'set-cookie') out[name] = value;
  });
  const cookies = headers.getSetCookie?.() ?? [];
  if (cookies.length > 0) out['set-cookie'] = cookies;
  return out;
}

/** Resolves on `drain`, or on `close` (the client went away while its buffer was full). */
function drained(res: NodeResponseLike): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}
