// What every transport's HTTP call does with a chat API's answer and with a request that got
// none: the request sent, the answer read, the secret kept out of every message.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeliveryError } from '../../src/delivery/errors';
import { postJson, postWithBearer, retryAfterHeaderMs, scrub } from '../../src/delivery/httpCall';
import { startFakeJsonServer, type FakeRequest, type FakeServer } from '../helpers/fakeJsonServer';

const secret = '4242:SECRET-TOKEN';
const signal = new AbortController().signal;

/** A fetch that rejects with `error`, as undici's does when no answer came. */
const failingFetch =
  (error: unknown): typeof fetch =>
  () =>
    Promise.reject(error);

/** What postJson rejected with for a fetch that rejected with `error`. */
async function rejectionOf(error: unknown, label = 'Chat sendMessage'): Promise<unknown> {
  return postJson(
    `http://127.0.0.1/bot${secret}/send`,
    { a: 1 },
    {
      fetch: failingFetch(error),
      signal,
      secret,
      label,
    },
  ).then(
    () => 'resolved',
    (thrown: unknown) => thrown,
  );
}

const withCause = (message: string, cause: unknown) => Object.assign(new Error(message), { cause });

describe('postJson against a chat API on 127.0.0.1', () => {
  let api: FakeServer;
  const seen: FakeRequest[] = [];
  beforeAll(async () => {
    api = await startFakeJsonServer((request) => {
      seen.push(request);
      return {
        status: 201,
        headers: { 'retry-after': '7' },
        body: { ok: true, got: request.body },
      };
    });
  });
  afterAll(() => api.close());
  beforeEach(() => (seen.length = 0));

  it('POSTs the payload as JSON with its content type and the given headers, and reads the answer', async () => {
    const answer = await postJson(
      `${api.base}/send`,
      { text: 'héllo', n: [1, 2] },
      {
        fetch,
        signal,
        secret,
        label: 'Chat send',
        headers: { 'x-extra': 'yes' },
      },
    );
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ ok: true, got: { text: 'héllo', n: [1, 2] } });
    expect(answer.headers.get('retry-after')).toBe('7');
    expect(seen).toHaveLength(1);
    expect(seen[0].method).toBe('POST');
    expect(seen[0].path).toBe('/send');
    expect(seen[0].headers['content-type']).toBe('application/json; charset=utf-8');
    expect(seen[0].headers['x-extra']).toBe('yes');
  });

  it('sends no body and no content type for an undefined payload, with the method asked for', async () => {
    const answer = await postJson(`${api.base}/message/9`, undefined, {
      fetch,
      signal,
      secret,
      label: 'Chat delete',
      method: 'DELETE',
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ ok: true });
    expect(seen[0].method).toBe('DELETE');
    expect(seen[0].headers['content-type']).toBeUndefined();
    expect(seen[0].headers['content-length']).toBeUndefined();
    expect(seen[0].body).toBeUndefined();
  });

  it('postWithBearer sends `Authorization: Bearer <token>` and keeps the token out of its failures', async () => {
    await postWithBearer(
      `${api.base}/chat`,
      { x: 1 },
      { fetch, signal, token: secret, label: 'Chat post' },
    );
    expect(seen[0].headers.authorization).toBe(`Bearer ${secret}`);
    expect(seen[0].headers['content-type']).toBe('application/json; charset=utf-8');

    const failure = await postWithBearer(
      `http://127.0.0.1/${secret}`,
      { x: 1 },
      {
        fetch: failingFetch(new Error(`reset while sending ${secret}`)),
        signal,
        token: secret,
        label: 'Chat post',
      },
    ).catch((thrown: unknown) => thrown);
    expect((failure as Error).message).toBe(
      'Chat post: the request failed (reset while sending ***)',
    );
  });
});

describe('postJson with an answer that is not JSON', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>Bad Gateway</html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('resolves with its status and an undefined body', async () => {
    const answer = await postJson(
      `${base}/x`,
      { a: 1 },
      { fetch, signal, secret, label: 'Chat x' },
    );
    expect(answer.status).toBe(502);
    expect(answer.body).toBeUndefined();
    expect(answer.headers.get('content-type')).toBe('text/html');
  });
});

describe('postJson when no answer came', () => {
  it('a refused connection: a retryable, not ambiguous DeliveryError naming the cause chain', async () => {
    // A port that was free a moment ago: nothing listens there now.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    const thrown = await postJson(
      `http://127.0.0.1:${port}/bot${secret}/send`,
      { a: 1 },
      {
        fetch,
        signal,
        secret,
        label: 'Chat sendMessage',
      },
    ).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(DeliveryError);
    const error = thrown as DeliveryError;
    expect(error.message).toMatch(
      /^Chat sendMessage: the request failed \(fetch failed: .*ECONNREFUSED/,
    );
    expect(error.message).not.toContain(secret);
    expect(error.ambiguous).toBe(false);
    expect(error.permanent).toBe(false);
    expect(error.retryable).toBe(true);
    expect(error.code).toBe('delivery-failed');
  });

  it.each([
    ['ECONNREFUSED', false],
    ['ENOTFOUND', false],
    ['EAI_AGAIN', false],
    ['ECONNRESET', true],
    ['ETIMEDOUT', true],
  ])('a cause %s: ambiguous %s', async (code, ambiguous) => {
    const thrown = await rejectionOf(
      withCause('fetch failed', new Error(`connect ${code} 127.0.0.1:1`)),
    );
    expect(thrown).toBeInstanceOf(DeliveryError);
    expect((thrown as DeliveryError).message).toBe(
      `Chat sendMessage: the request failed (fetch failed: connect ${code} 127.0.0.1:1)`,
    );
    expect((thrown as DeliveryError).ambiguous).toBe(ambiguous);
  });

  it('names at most three causes, joined by ": ", in at most 300 characters', async () => {
    const deep = withCause('one', withCause('two', withCause('three', new Error('four'))));
    expect(((await rejectionOf(deep)) as Error).message).toBe(
      'Chat sendMessage: the request failed (one: two: three)',
    );
    const long = withCause('x'.repeat(250), new Error('y'.repeat(100)));
    expect(((await rejectionOf(long)) as Error).message).toBe(
      `Chat sendMessage: the request failed (${'x'.repeat(250)}: ${'y'.repeat(48)})`,
    );
    // A cause of null ends the chain as undefined does.
    const nullCause = withCause('only', null);
    expect(((await rejectionOf(nullCause)) as Error).message).toBe(
      'Chat sendMessage: the request failed (only)',
    );
  });

  it('removes the secret from the message, wherever the cause chain shows it', async () => {
    const thrown = await rejectionOf(
      withCause(`GET /bot${secret}/send failed`, new Error(`${secret} and ${secret}`)),
      `Chat ${secret}`,
    );
    expect((thrown as Error).message).toBe(
      'Chat ***: the request failed (GET /bot***/send failed: *** and ***)',
    );
  });

  it('rethrows what fetch threw, untouched, once the signal aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const abortError = new DOMException('The operation was aborted.', 'AbortError');
    const thrown = await postJson(
      'http://127.0.0.1/x',
      { a: 1 },
      {
        fetch: failingFetch(abortError),
        signal: controller.signal,
        secret,
        label: 'Chat x',
      },
    ).catch((error: unknown) => error);
    expect(thrown).toBe(abortError);
  });
});

describe('scrub', () => {
  it('replaces every occurrence of the secret with ***, and leaves the text alone for an empty secret', () => {
    expect(scrub('a SECRET b SECRET', 'SECRET')).toBe('a *** b ***');
    expect(scrub('a SECRET b', '')).toBe('a SECRET b');
    expect(scrub('nothing here', 'SECRET')).toBe('nothing here');
  });
});

describe('retryAfterHeaderMs', () => {
  const of = (value?: string) =>
    retryAfterHeaderMs(new Headers(value === undefined ? {} : { 'retry-after': value }));

  it('reads seconds as milliseconds', () => {
    expect(of('3')).toBe(3000);
    expect(of('0')).toBe(0);
    expect(of('1.5')).toBe(1500);
    expect(of(' 2 ')).toBe(2000);
  });

  it('is undefined for no header, a blank one, a negative or a non-number', () => {
    expect(of()).toBeUndefined();
    expect(of('')).toBeUndefined();
    expect(of('   ')).toBeUndefined();
    expect(of('-1')).toBeUndefined();
    expect(of('soon')).toBeUndefined();
    expect(of('Infinity')).toBeUndefined();
  });
});
