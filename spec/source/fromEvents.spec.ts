import { fromEvents } from '../../src/source/fromEvents';
import { ensureTerminal } from '../../src/operators/ensureTerminal';
import type { StreamEvent } from '../../src/events';
import { collect } from '../helpers/bytes';

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
});
