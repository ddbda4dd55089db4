import { take } from 'rxjs';
import { fromNdjson } from '../../src/source/fromNdjson';
import type { SourceWarning } from '../../src/source/fromSse';
import {
  chunksOf,
  collect,
  everySingleSplit,
  randomSplits,
  trackedStream,
  utf8,
} from '../helpers/bytes';
import {
  abortListeners,
  countingChunks,
  endlessGenerator,
  settle,
  stallingStream,
} from './sourceProbes';

/** Every value, the warnings, and the error (if any) of one run. */
async function parse(
  chunks: Array<Uint8Array | string>,
  maxBufferSize?: number,
): Promise<{ values: unknown[]; warnings: SourceWarning[]; error?: unknown }> {
  const values: unknown[] = [];
  const warnings: SourceWarning[] = [];
  const source = fromNdjson(chunksOf(chunks), {
    maxBufferSize,
    onWarning: (warning) => warnings.push(warning),
  });
  return new Promise((resolve) => {
    source.subscribe({
      next: (value) => values.push(value),
      error: (error) => resolve({ values, warnings, error }),
      complete: () => resolve({ values, warnings }),
    });
  });
}

interface NdjsonCase {
  name: string;
  body: string;
  values: unknown[];
  truncatedLine?: number;
}

const cases: NdjsonCase[] = [
  {
    name: 'one value per LF-terminated line',
    body: '{"a":1}\n{"b":[2,3]}\n"text"\n42\nnull\n',
    values: [{ a: 1 }, { b: [2, 3] }, 'text', 42, null],
  },
  { name: 'CRLF line ends', body: '{"a":1}\r\n{"b":2}\r\n', values: [{ a: 1 }, { b: 2 }] },
  {
    name: 'blank and whitespace-only lines are skipped',
    body: '\n{"a":1}\n\n  \n\r\n\t\n{"b":2}\n\n',
    values: [{ a: 1 }, { b: 2 }],
  },
  {
    name: 'a final line without newline that is complete JSON is delivered',
    body: '{"a":1}\n{"done":true}',
    values: [{ a: 1 }, { done: true }],
  },
  {
    name: 'a final line without newline cut inside JSON is dropped and reported',
    body: '{"a":1}\n\n{"message":{"content":"hel',
    values: [{ a: 1 }],
    truncatedLine: 3,
  },
  {
    name: 'multi-byte UTF-8 (Ollama thinking in any language)',
    body: '{"message":{"content":"héllo 👋 日本語"}}\n',
    values: [{ message: { content: 'héllo 👋 日本語' } }],
  },
  { name: 'an empty body yields nothing', body: '', values: [] },
];

describe('fromNdjson: lines', () => {
  describe.each(cases)('$name', ({ body, values, truncatedLine }) => {
    const bytes = utf8(body);
    const check = (result: Awaited<ReturnType<typeof parse>>) => {
      expect(result.error).toBeUndefined();
      expect(result.values).toEqual(values);
      expect(result.warnings.map((w) => w.code)).toEqual(truncatedLine ? ['truncated-event'] : []);
      if (truncatedLine) {
        expect(result.warnings[0].message).toContain(`line ${truncatedLine}`);
        expect(result.warnings[0].message).not.toContain('hel');
      }
    };

    it('whole, byte by byte, at every offset and in 200 random splits', async () => {
      check(await parse([bytes]));
      for (const split of everySingleSplit(bytes)) check(await parse(split));
      for (const split of randomSplits(bytes, 200, 7)) check(await parse(split));
    });
  });
});

describe('fromNdjson: malformed lines', () => {
  // V8 quotes the first characters of the text in some JSON.parse messages (`Unexpected token
  // 'S', "SECRET-PAY"... is not valid JSON`), in others only a position: neither may leak.
  const bodies = [
    '{"a":1}\n\nSECRET-PAYLOAD {"k":1}\n{"b":2}\n',
    '{"a":1}\n\n{"secret":"SECRET-PAYLOAD" oops}\n{"b":2}\n',
  ];

  it.each(bodies)(
    'errors with malformed-event, its line number, and never the payload: %j',
    async (body) => {
      for (const split of [[utf8(body)], ...randomSplits(utf8(body), 50, 3)]) {
        const result = await parse(split);
        expect(result.values).toEqual([{ a: 1 }]);
        expect(result.error).toMatchObject({
          name: 'LlmRxError',
          code: 'malformed-event',
          line: 3,
        });
        const message = (result.error as Error).message;
        const length = body.split('\n')[2].length;
        expect(message).toBe(
          `Line 3 of the NDJSON stream is not valid JSON (${length} characters); the line is not shown.`,
        );
      }
    },
  );

  it('stops reading and releases the input at the malformed line', async () => {
    const body = countingChunks(['{"a":1}\n', 'nope\n', '{"b":2}\n', '{"c":3}\n']);
    const result = await new Promise<unknown>((resolve) =>
      fromNdjson(body.input).subscribe({ error: resolve }),
    );
    await settle();
    expect(result).toMatchObject({ code: 'malformed-event', line: 2 });
    expect(body.reads()).toBe(2);
    expect(body.released()).toBe(true);
  });
});

describe('fromNdjson: maxBufferSize', () => {
  it('errors in the chunk that overflowed and reads no further chunk', async () => {
    const body = countingChunks(['{"a":1}\n{"long":"', ...Array(10).fill('x'.repeat(30))]);
    const values: unknown[] = [];
    const error = await new Promise<unknown>((resolve) =>
      fromNdjson(body.input, { maxBufferSize: 100 }).subscribe({
        next: (value) => values.push(value),
        error: resolve,
      }),
    );
    await settle();
    // 10 characters held after the first chunk; 10 + 30 × 3 = 100 fits, the fifth chunk overflows.
    expect(error).toMatchObject({ code: 'max-buffer-size-exceeded' });
    expect(values).toEqual([{ a: 1 }]);
    expect(body.reads()).toBe(5);
    expect(body.released()).toBe(true);
  });

  it('rejects a line longer than maxBufferSize however it is chunked', async () => {
    const line = utf8(`{"k":"${'z'.repeat(100)}"}\n{"b":2}\n`);
    for (const split of [[line], ...randomSplits(line, 50, 11)]) {
      const result = await parse(split, 100);
      expect(result.values).toEqual([]);
      expect(result.error).toMatchObject({ code: 'max-buffer-size-exceeded' });
    }
  });

  it('accepts a line of exactly maxBufferSize characters, CRLF or not', async () => {
    const value = `{"k":"${'z'.repeat(92)}"}`; // 100 characters
    for (const body of [`${value}\n`, `${value}\r\n`, value]) {
      for (const split of [[utf8(body)], ...randomSplits(utf8(body), 50, 5)]) {
        expect(await parse(split, 100)).toEqual({ values: [{ k: 'z'.repeat(92) }], warnings: [] });
      }
    }
  });
});

describe('fromNdjson: abort and unsubscribe', () => {
  it('aborting mid-stream errors with `aborted`, cancels the reader, removes the listener', async () => {
    const controller = new AbortController();
    const { stream, cancelled } = stallingStream(['{"a":1}\n']);
    const values: unknown[] = [];
    const errors: unknown[] = [];
    fromNdjson(stream, { signal: controller.signal }).subscribe({
      next: (value) => values.push(value),
      error: (error) => errors.push(error),
    });
    await settle();
    expect(abortListeners(controller.signal)).toBe(1);
    controller.abort();
    await settle();
    expect(values).toEqual([{ a: 1 }]);
    expect(errors).toMatchObject([{ code: 'aborted' }]);
    expect(cancelled()).toBe(true);
    expect(abortListeners(controller.signal)).toBe(0);
  });

  it('unsubscribing cancels a ReadableStream and removes the abort listener', async () => {
    const controller = new AbortController();
    const { stream, cancelled } = trackedStream(
      Array.from({ length: 50 }, () => utf8('{"n":1}\n')),
    );
    const values = await collect(fromNdjson(stream, { signal: controller.signal }).pipe(take(2)));
    await settle();
    expect(values).toEqual([{ n: 1 }, { n: 1 }]);
    expect(cancelled()).toBe(true);
    expect(abortListeners(controller.signal)).toBe(0);
  });

  it("unsubscribing runs an async generator's finally", async () => {
    const body = endlessGenerator('{"n":1}\n');
    expect(await collect(fromNdjson(body.input).pipe(take(3)))).toHaveLength(3);
    await settle();
    expect(body.finallyRan()).toBe(true);
  });

  it('a failing body errors with stream-error after the values before it', async () => {
    let pulls = 0;
    const failing = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (pulls++ === 0) controller.enqueue(utf8('{"a":1}\n{"b":'));
          else controller.error(new Error('socket hang up'));
        },
      },
      { highWaterMark: 0 },
    );
    const result = await new Promise<{ values: unknown[]; error: unknown }>((resolve) => {
      const values: unknown[] = [];
      fromNdjson(failing).subscribe({
        next: (value) => values.push(value),
        error: (error) => resolve({ values, error }),
      });
    });
    expect(result.values).toEqual([{ a: 1 }]);
    expect(result.error).toMatchObject({ code: 'stream-error', retryable: true });
  });
});
