import fc from 'fast-check';
import { from, Subject } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { createBlockChunker } from '../../src/chunking/blockChunker';
import { LlmRxError } from '../../src/errors';
import type { StreamEvent } from '../../src/events';
import { bufferChunk } from '../../src/operators/bufferChunk';
import { collect } from '../helpers/bytes';
import { deltaSizes, markdown, splitText } from '../chunking/markdownArbitrary';

const delta = (text: string): StreamEvent => ({ type: 'text-delta', id: 't', delta: text });

describe('bufferChunk options', () => {
  const messageOf = (options: unknown) => {
    try {
      bufferChunk(options as never);
    } catch (error) {
      expect(error).toBeInstanceOf(LlmRxError);
      expect(error).toMatchObject({ code: 'invalid-options' });
      return (error as Error).message;
    }
    throw new Error('expected bufferChunk to throw');
  };

  it('are checked at construction, naming the operator and the field', () => {
    expect(messageOf({ minChars: 50, maxChars: 40 })).toMatch(
      /^bufferChunk: invalid options\n[\s\S]*minChars must not exceed maxChars/,
    );
    expect(messageOf({ minChars: 1, maxChars: 8 })).toContain('maxChars must be at least 16');
    expect(messageOf({ minChars: 1, maxChars: 20, mode: 'batch' })).toContain('mode');
    expect(messageOf({ minChars: 1, maxChars: 20, idleMs: -1 })).toContain('idleMs');
    expect(messageOf({ maxChars: 20 })).toContain('minChars');
  });

  it('points a minChars above maxChars at minChars', () => {
    expect(messageOf({ minChars: 50, maxChars: 40 })).toBe(
      'bufferChunk: invalid options\n✖ minChars must not exceed maxChars\n  → at minChars',
    );
  });
});

describe('bufferChunk', () => {
  it('counts seq from 0 per subscription and keeps no state between subscriptions', async () => {
    const events = [delta('One.\n\nTwo '), delta('words')];
    const operator = bufferChunk({ minChars: 2, maxChars: 40 });
    const first = await collect(from(events).pipe(operator));
    const second = await collect(from(events).pipe(operator));
    expect(first).toEqual([
      { type: 'block', text: 'One.', seq: 0, reason: 'size' },
      { type: 'block', text: 'Two words', seq: 1, reason: 'end' },
    ]);
    expect(second).toEqual(first);
  });

  it('ends the markdown state at text-end: the next text part is not inside the old fence', async () => {
    const events: StreamEvent[] = [
      delta('```py\nx = 1'),
      { type: 'text-end', id: 't' },
      { type: 'text-start', id: 'u' },
      { type: 'text-delta', id: 'u', delta: 'Plain.' },
    ];
    expect(await collect(from(events).pipe(bufferChunk({ minChars: 50, maxChars: 100 })))).toEqual([
      { type: 'block', text: '```py\nx = 1\n```', seq: 0, reason: 'flush' },
      { type: 'text-end', id: 't' },
      { type: 'text-start', id: 'u' },
      { type: 'block', text: 'Plain.', seq: 1, reason: 'end' },
    ]);
  });

  it('leaves no idle timer behind after a flush, an unsubscribe or completion', () => {
    const scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    scheduler.run(() => {
      const source = new Subject<StreamEvent>();
      const received: StreamEvent[] = [];
      const subscription = source
        .pipe(bufferChunk({ minChars: 50, maxChars: 100, idleMs: 10, scheduler }))
        .subscribe((event) => received.push(event));
      source.next(delta('held'));
      expect(scheduler.actions.filter((action) => !action.closed)).toHaveLength(1);
      source.next({ type: 'tool-start', id: 'c', name: 'lookup' });
      expect(scheduler.actions.filter((action) => !action.closed)).toHaveLength(0);
      source.next(delta('more'));
      subscription.unsubscribe();
      expect(scheduler.actions.filter((action) => !action.closed)).toHaveLength(0);
      expect(received.map((event) => event.type)).toEqual(['block', 'tool-start']);
    });
  });

  it('mode end gives the blocks of the pure chunker, whatever the deltas (fast-check, fixed seed)', async () => {
    await fc.assert(
      fc.asyncProperty(markdown, deltaSizes, async (text, sizes) => {
        const options = { minChars: 40, maxChars: 120, mode: 'end' as const };
        const chunker = createBlockChunker(options);
        chunker.append(text);
        const expected = chunker.end('end').map((block) => block.text);
        const events = splitText(text, sizes).map(delta);
        const blocks = await collect(from(events).pipe(bufferChunk(options)));
        expect(blocks.map((event) => (event.type === 'block' ? event.text : event.type))).toEqual(
          expected,
        );
      }),
      { numRuns: 200, seed: 611 },
    );
  });
});
