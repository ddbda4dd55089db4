import { fromAISdk } from '../../src/interop/fromAISdk';
import type { StreamEvent } from '../../src/events';
import { collect } from '../helpers/bytes';

// fromAISdk over hand-written parts: the edges the mock models do not reach.

async function* partsOf(parts: Array<{ type: string; [key: string]: unknown }>) {
  yield* parts;
}

const finish = (finishReason: string) => ({
  type: 'finish',
  finishReason,
  rawFinishReason: undefined,
  totalUsage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
});

describe('fromAISdk over hand-written parts', () => {
  it('length → incomplete; sources are citations; unknown parts warn once per type; structural parts carry nothing', async () => {
    const events = await collect(
      fromAISdk(
        partsOf([
          { type: 'start' },
          { type: 'start-step', request: {}, warnings: [] },
          { type: 'source', sourceType: 'url', id: 's', url: 'https://example.com' },
          { type: 'source', sourceType: 'url', id: 's2', url: 'https://example.org' },
          {
            type: 'source',
            sourceType: 'document',
            id: 'd',
            mediaType: 'text/plain',
            title: 'Notes',
          },
          { type: 'file', file: {} },
          { type: 'file', file: {} },
          { type: 'raw', rawValue: {} },
          { type: 'text-delta', id: 't', text: 'cut' },
          { type: 'finish-step', finishReason: 'length', rawFinishReason: 'max_tokens' },
          finish('length'),
        ]),
      ),
    );
    expect(events).toEqual([
      { type: 'citation', id: 's', url: 'https://example.com' },
      { type: 'citation', id: 's2', url: 'https://example.org' },
      { type: 'citation', id: 'd', title: 'Notes' },
      {
        type: 'warning',
        code: 'unknown-event',
        message: 'fromAISdk: the AI SDK part type "file" has no llm-rx event; skipped.',
      },
      { type: 'text-delta', id: 't', delta: 'cut' },
      { type: 'finish', reason: 'length', raw: 'max_tokens' },
      { type: 'usage', inputTokens: 1, outputTokens: 2, totalTokens: 3 },
      {
        type: 'incomplete',
        reason: 'length',
        message: 'The model stopped at its output token limit.',
      },
    ]);
  });

  it("ai 7's interrupted: failed stream-closed, retryable, the text kept", async () => {
    const events = await collect(
      fromAISdk(partsOf([{ type: 'text-delta', id: 't', text: 'Hel' }, finish('interrupted')])),
    );
    expect(events.slice(0, 1)).toEqual([{ type: 'text-delta', id: 't', delta: 'Hel' }]);
    expect(events[events.length - 1]).toEqual({
      type: 'failed',
      error: {
        code: 'stream-closed',
        message: expect.stringContaining('without a completion signal'),
        retryable: true,
      },
    });
  });

  it('parts that end without finish: failed stream-closed; after a finish-step, its terminal', async () => {
    expect(await collect(fromAISdk(partsOf([{ type: 'text-delta', id: 't', text: 'x' }])))).toEqual(
      [
        { type: 'text-delta', id: 't', delta: 'x' },
        {
          type: 'failed',
          error: {
            code: 'stream-closed',
            message: 'The AI SDK stream ended without a finish part.',
            retryable: true,
          },
        },
      ],
    );
    const afterStep = await collect(
      fromAISdk(partsOf([{ type: 'finish-step', finishReason: 'stop', rawFinishReason: 'stop' }])),
    );
    expect(afterStep).toEqual([
      { type: 'finish', reason: 'stop', raw: 'stop' },
      { type: 'completed', finishReason: 'stop' },
    ]);
  });

  it('an open reasoning part is ended before the terminal; an error without Error is its text', async () => {
    const events = await collect(
      fromAISdk(
        partsOf([
          { type: 'reasoning-start', id: 'r' },
          { type: 'reasoning-delta', id: 'r', text: 'hm' },
          { type: 'error', error: { message: 'rate limited', statusCode: 429, isRetryable: true } },
        ]),
      ),
    );
    expect(events).toEqual([
      { type: 'reasoning-start', id: 'r', index: 0 },
      { type: 'reasoning-delta', id: 'r', index: 0, delta: 'hm', kind: 'text' },
      { type: 'reasoning-end', id: 'r', index: 0 },
      {
        type: 'failed',
        error: { code: 'provider-error', message: 'rate limited', status: 429, retryable: true },
      },
    ]);
  });

  it('provider-executed tools are tool-start / tool-end providerExecuted, never client tool calls', async () => {
    const events = await collect(
      fromAISdk(
        partsOf([
          { type: 'tool-input-start', id: 'ws', toolName: 'web_search', providerExecuted: true },
          { type: 'tool-input-delta', id: 'ws', delta: '{}' },
          {
            type: 'tool-call',
            toolCallId: 'ws',
            toolName: 'web_search',
            input: {},
            providerExecuted: true,
          },
          {
            type: 'tool-result',
            toolCallId: 'ws',
            toolName: 'web_search',
            output: [],
            providerExecuted: true,
          },
          {
            type: 'tool-call',
            toolCallId: 'cx',
            toolName: 'code_execution',
            input: { code: '1/0' },
            providerExecuted: true,
          },
          {
            type: 'tool-error',
            toolCallId: 'cx',
            toolName: 'code_execution',
            error: new Error('division by zero'),
            providerExecuted: true,
          },
          finish('stop'),
        ]),
      ),
    );
    expect(events.slice(0, 4)).toEqual([
      { type: 'tool-start', id: 'ws', name: 'web_search', args: {}, providerExecuted: true },
      { type: 'tool-end', id: 'ws', name: 'web_search', result: [], providerExecuted: true },
      {
        type: 'tool-start',
        id: 'cx',
        name: 'code_execution',
        args: { code: '1/0' },
        providerExecuted: true,
      },
      {
        type: 'tool-end',
        id: 'cx',
        name: 'code_execution',
        result: 'division by zero',
        isError: true,
        providerExecuted: true,
      },
    ]);
    expect(events.slice(4).map((event) => event.type)).toEqual(['usage', 'finish', 'completed']);
  });

  it('reasoning signatures and encrypted reasoning from providerMetadata reach reasoning-end', async () => {
    const events = await collect(
      fromAISdk(
        partsOf([
          { type: 'reasoning-start', id: 'a' },
          { type: 'reasoning-delta', id: 'a', text: 'Think.' },
          {
            type: 'reasoning-delta',
            id: 'a',
            text: '',
            providerMetadata: { anthropic: { signature: 'EqQ=' } },
          },
          { type: 'reasoning-end', id: 'a' },
          {
            type: 'reasoning-start',
            id: 'b',
            providerMetadata: { anthropic: { redactedData: 'EmwK' } },
          },
          { type: 'reasoning-end', id: 'b' },
          {
            type: 'reasoning-start',
            id: 'rs_1:0',
            providerMetadata: { openai: { itemId: 'rs_1', reasoningEncryptedContent: null } },
          },
          {
            type: 'reasoning-end',
            id: 'rs_1:0',
            providerMetadata: { openai: { itemId: 'rs_1', reasoningEncryptedContent: 'gAAA' } },
          },
          {
            type: 'reasoning-start',
            id: 'g',
            providerMetadata: { google: { thoughtSignature: 'CiQB' } },
          },
          finish('stop'),
        ]),
      ),
    );
    expect(events.filter((e) => e.type === 'reasoning-end')).toEqual([
      { type: 'reasoning-end', id: 'a', index: 0, signature: 'EqQ=' },
      { type: 'reasoning-end', id: 'b', index: 1, redacted: ['EmwK'] },
      { type: 'reasoning-end', id: 'rs_1:0', index: 2, redacted: ['gAAA'] },
      { type: 'reasoning-end', id: 'g', index: 3, signature: 'CiQB' },
    ]);
  });

  it('a part without its fields: one invalid-event warning, the stream goes on', async () => {
    const events = await collect(
      fromAISdk(
        partsOf([
          { type: 'text-delta', id: 't' },
          { type: 'text-delta', id: 't', text: 'ok' },
          finish('stop'),
        ]),
      ),
    );
    expect(events.slice(0, 2)).toEqual([
      {
        type: 'warning',
        code: 'invalid-event',
        message: 'fromAISdk: a "text-delta" part without the fields it needs; skipped.',
      },
      { type: 'text-delta', id: 't', delta: 'ok' },
    ]);
  });

  it('a throwing iterable: failed stream-error with its message; an AbortError: incomplete aborted', async () => {
    async function* throwing(error: unknown) {
      yield { type: 'text-delta', id: 't', text: 'x' };
      throw error;
    }
    const failed = await collect(fromAISdk(throwing(new TypeError('terminated'))));
    expect(failed[failed.length - 1]).toEqual({
      type: 'failed',
      error: { code: 'stream-error', message: 'terminated', retryable: true },
    });
    const abort = Object.assign(new Error('This operation was aborted'), { name: 'AbortError' });
    const aborted = await collect(fromAISdk(throwing(abort)));
    expect(aborted[aborted.length - 1]).toEqual({
      type: 'incomplete',
      reason: 'aborted',
      message: 'This operation was aborted',
    });
  });

  it('a ReadableStream without async iteration is read through its reader; unsubscribing cancels it', async () => {
    let cancelled = false;
    const stream = new ReadableStream<{ type: string; id: string; text: string }>({
      start(controller) {
        controller.enqueue({ type: 'text-delta', id: 't', text: 'a' });
      },
      cancel() {
        cancelled = true;
      },
    });
    const bare = { getReader: () => stream.getReader() } as unknown as ReadableStream<{
      type: string;
    }>;
    const seen: StreamEvent[] = [];
    await new Promise<void>((done) => {
      const subscription = fromAISdk(bare).subscribe((event) => {
        seen.push(event);
        subscription?.unsubscribe();
        done();
      });
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([{ type: 'text-delta', id: 't', delta: 'a' }]);
    expect(cancelled).toBe(true);
  });

  it('rejects what is not a stream of parts, and unknown options, at once', () => {
    expect(() => fromAISdk(undefined as never)).toThrow(
      /result\.fullStream in ai 6, result\.stream in ai 7/,
    );
    expect(() => fromAISdk(partsOf([]), { sginal: undefined } as never)).toThrow(
      /fromAISdk: invalid options/,
    );
  });
});
