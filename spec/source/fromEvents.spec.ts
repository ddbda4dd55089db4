import { streamText, type TextStreamPart, type ToolSet } from 'ai';
import { MockLanguageModelV3, simulateReadableStream } from 'ai/test';
import { fromEvents } from '../../src/source/fromEvents';
import { ensureTerminal } from '../../src/operators/ensureTerminal';
import type { StreamEvent } from '../../src/events';
import { collect } from '../helpers/bytes';

// The README's AI SDK recipe, verbatim: keep the two in step.
async function* aiSdkEvents(fullStream: AsyncIterable<TextStreamPart<ToolSet>>) {
  const reasoningIndex = new Map<string, number>();
  let toolIndex = 0;
  for await (const part of fullStream) {
    switch (part.type) {
      case 'text-start':
      case 'text-end':
        yield { type: part.type, id: part.id };
        break;
      case 'text-delta':
        yield { type: 'text-delta', id: part.id, delta: part.text };
        break;
      case 'reasoning-start':
        reasoningIndex.set(part.id, reasoningIndex.size);
        yield { type: 'reasoning-start', id: part.id, index: reasoningIndex.get(part.id) };
        break;
      case 'reasoning-delta':
        yield {
          type: 'reasoning-delta',
          id: part.id,
          index: reasoningIndex.get(part.id),
          delta: part.text,
          kind: 'text',
        };
        break;
      case 'reasoning-end':
        yield { type: 'reasoning-end', id: part.id, index: reasoningIndex.get(part.id) };
        break;
      case 'tool-input-start':
        yield { type: 'tool-input-start', id: part.id, name: part.toolName, index: toolIndex++ };
        break;
      case 'tool-input-delta':
        yield { type: 'tool-input-delta', id: part.id, delta: part.delta };
        break;
      case 'tool-call':
        yield {
          type: 'tool-call',
          id: part.toolCallId,
          name: part.toolName,
          input: part.input,
          inputText: JSON.stringify(part.input),
        };
        break;
      case 'finish':
        yield {
          type: 'usage',
          inputTokens: part.totalUsage.inputTokens,
          outputTokens: part.totalUsage.outputTokens,
          totalTokens: part.totalUsage.totalTokens,
        };
        yield { type: 'finish', reason: part.finishReason, raw: part.rawFinishReason };
        break;
      case 'error':
        yield {
          type: 'failed',
          error: { code: 'provider-error', message: String(part.error), retryable: false },
        };
        break;
      case 'abort':
        yield { type: 'incomplete', reason: 'aborted', message: 'The AI SDK stream was aborted.' };
        break;
    }
  }
}

describe('fromEvents', () => {
  it('passes valid events from an Iterable, in order, and completes', async () => {
    const events: StreamEvent[] = [
      { type: 'text-delta', id: 't', delta: 'Hi' },
      { type: 'finish', reason: 'stop' },
      { type: 'completed', finishReason: 'stop' },
    ];
    expect(await collect(fromEvents(events))).toEqual(events);
  });

  it('skips an invalid event with one invalid-event warning, never crashing', async () => {
    const result = await collect(
      fromEvents([
        { type: 'text-delta', id: 't', delta: 'a' },
        { type: 'text-delta', id: 't', text: 'AI SDK field name' },
        42,
        { type: 'text-delta', id: 't', delta: 'b', extra: 'dropped' },
      ]),
    );
    expect(result).toEqual([
      { type: 'text-delta', id: 't', delta: 'a' },
      {
        type: 'warning',
        code: 'invalid-event',
        message: expect.stringMatching(
          /^fromEvents: skipped event #1 \(type "text-delta"\).*delta/,
        ),
        detail: { position: 1, type: 'text-delta', problems: [expect.stringMatching(/^delta: /)] },
      },
      {
        type: 'warning',
        code: 'invalid-event',
        message: expect.stringMatching(/^fromEvents: skipped event #2, not a StreamEvent/),
        detail: { position: 2, type: undefined, problems: expect.any(Array) },
      },
      { type: 'text-delta', id: 't', delta: 'b' },
    ]);
    // The payload itself is never copied into the warning.
    expect(JSON.stringify(result[1])).not.toContain('AI SDK field name');
  });

  it('reads an AsyncIterable one value at a time', async () => {
    async function* events() {
      yield { type: 'text-delta', id: 't', delta: 'x' };
      yield { type: 'nope' };
    }
    const result = await collect(fromEvents(events()));
    expect(result.map((event) => event.type)).toEqual(['text-delta', 'warning']);
  });

  it('an iterable that throws errors the Observable; ensureTerminal makes it failed', async () => {
    async function* events() {
      yield { type: 'text-delta', id: 't', delta: 'x' };
      throw new Error('socket hang up');
    }
    const result = await collect(fromEvents(events()).pipe(ensureTerminal()));
    expect(result).toEqual([
      { type: 'text-delta', id: 't', delta: 'x' },
      {
        type: 'failed',
        error: { code: 'stream-error', message: 'socket hang up', retryable: true },
      },
    ]);
  });

  it('unsubscribing calls the iterator return(): a generator runs its finally', async () => {
    let released = false;
    let resume: () => void = () => undefined;
    async function* events() {
      try {
        yield { type: 'text-delta', id: 't', delta: 'x' };
        await new Promise<void>((resolve) => (resume = resolve));
        yield { type: 'text-delta', id: 't', delta: 'never seen' };
      } finally {
        released = true;
      }
    }
    const seen: StreamEvent[] = [];
    await new Promise<void>((done) => {
      const subscription = fromEvents(events()).subscribe((event) => {
        seen.push(event);
        subscription?.unsubscribe();
        done();
      });
    });
    resume();
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([{ type: 'text-delta', id: 't', delta: 'x' }]);
    expect(released).toBe(true);
  });

  it('rejects what is not iterable at once', () => {
    expect(() => fromEvents(undefined as never)).toThrow(/AsyncIterable or an Iterable/);
  });

  it('README recipe: an AI SDK streamText fullStream becomes valid StreamEvents', async () => {
    const model = new MockLanguageModelV3({
      doStream: {
        stream: simulateReadableStream({
          chunks: [
            { type: 'stream-start', warnings: [] },
            { type: 'reasoning-start', id: 'r1' },
            { type: 'reasoning-delta', id: 'r1', delta: 'Think.' },
            { type: 'reasoning-end', id: 'r1' },
            { type: 'text-start', id: 't1' },
            { type: 'text-delta', id: 't1', delta: 'Hello' },
            { type: 'text-delta', id: 't1', delta: ' world' },
            { type: 'text-end', id: 't1' },
            {
              type: 'finish',
              finishReason: { unified: 'stop', raw: 'stop' },
              usage: {
                inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 },
                outputTokens: { total: 5, text: 4, reasoning: 1 },
              },
            },
          ],
        }),
      },
    });
    const result = streamText({ model, prompt: 'Hi' });
    const events = await collect(fromEvents(aiSdkEvents(result.fullStream)).pipe(ensureTerminal()));
    expect(events.filter((event) => event.type === 'warning')).toEqual([]);
    expect(events).toEqual([
      { type: 'reasoning-start', id: 'r1', index: 0 },
      { type: 'reasoning-delta', id: 'r1', index: 0, delta: 'Think.', kind: 'text' },
      { type: 'reasoning-end', id: 'r1', index: 0 },
      { type: 'text-start', id: 't1' },
      { type: 'text-delta', id: 't1', delta: 'Hello' },
      { type: 'text-delta', id: 't1', delta: ' world' },
      { type: 'text-end', id: 't1' },
      { type: 'usage', inputTokens: 3, outputTokens: 5, totalTokens: 8 },
      { type: 'finish', reason: 'stop', raw: 'stop' },
      {
        type: 'completed',
        finishReason: 'stop',
        usage: { inputTokens: 3, outputTokens: 5, totalTokens: 8 },
      },
    ]);
  });
});
