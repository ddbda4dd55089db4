import fc from 'fast-check';
import { TestScheduler } from 'rxjs/testing';
import { createMessageEditPlanner, splitToFit } from '../../src/channels/messageEditPlanner';
import { toMessageEdits } from '../../src/channels/toMessageEdits';
import type { MessageEdit } from '../../src/channels/messageEditPlanner';
import { LlmRxError } from '../../src/errors';
import type { StreamEvent } from '../../src/events';

const block = (text: string, seq = 0): StreamEvent => ({
  type: 'block',
  text,
  seq,
  reason: 'size',
});

function planAll(blocks: string[], maxMessageChars: number, separator = '\n\n'): MessageEdit[] {
  const planner = createMessageEditPlanner({ maxMessageChars, separator });
  return blocks.flatMap((text) => planner.push(text));
}

describe('createMessageEditPlanner', () => {
  it('sends the first block, then edits while the next block fits', () => {
    expect(planAll(['Hello', 'world'], 20)).toEqual([
      { op: 'send', message: 0, text: 'Hello' },
      { op: 'edit', message: 0, text: 'Hello\n\nworld' },
    ]);
  });

  it('starts a new message before the limit would be passed (separator counted)', () => {
    // 'aaaa' + '\n\n' + 'bbbb' = 10 characters: fits 10, not 9.
    expect(planAll(['aaaa', 'bbbb'], 10)).toEqual([
      { op: 'send', message: 0, text: 'aaaa' },
      { op: 'edit', message: 0, text: 'aaaa\n\nbbbb' },
    ]);
    expect(planAll(['aaaa', 'bbbb', 'cc'], 9)).toEqual([
      { op: 'send', message: 0, text: 'aaaa' },
      { op: 'send', message: 1, text: 'bbbb' },
      { op: 'edit', message: 1, text: 'bbbb\n\ncc' },
    ]);
  });

  it('splits a block only when it alone exceeds the limit, at whitespace', () => {
    expect(planAll(['ab', 'one two three four'], 9)).toEqual([
      { op: 'send', message: 0, text: 'ab' },
      { op: 'send', message: 1, text: 'one two' },
      { op: 'send', message: 2, text: 'three' },
      { op: 'send', message: 3, text: 'four' },
    ]);
  });

  it('hard-cuts a block with no whitespace, never inside a surrogate pair', () => {
    expect(splitToFit('abcdefgh', 3)).toEqual(['abc', 'def', 'gh']);
    expect(splitToFit('ab😀cd', 3)).toEqual(['ab', '😀c', 'd']);
  });

  it('prefers a line break in the second half of the window', () => {
    expect(splitToFit('first line\nsecond', 14)).toEqual(['first line', 'second']);
    expect(splitToFit('a\nbc def ghi', 8)).toEqual(['a\nbc def', 'ghi']);
  });

  it('ignores empty blocks', () => {
    expect(planAll(['', 'x', ''], 5)).toEqual([{ op: 'send', message: 0, text: 'x' }]);
  });

  const blockText = fc.string({
    unit: fc.constantFrom('a', 'b', ' ', '\n', '😀', 'é', '`'),
    maxLength: 60,
  });

  it('never yields a message over maxMessageChars; each message only grows (property)', () => {
    fc.assert(
      fc.property(
        fc.array(blockText, { maxLength: 30 }),
        fc.integer({ min: 2, max: 50 }),
        fc.constantFrom('\n\n', '\n', ''),
        (blocks, maxMessageChars, separator) => {
          const edits = planAll(blocks, maxMessageChars, separator);
          const lastText = new Map<number, string>();
          let highestMessage = -1;
          for (const edit of edits) {
            expect(edit.text.length).toBeLessThanOrEqual(maxMessageChars);
            expect(edit.text.length).toBeGreaterThan(0);
            if (edit.op === 'send') {
              // Messages are numbered 0, 1, 2… in the order they are sent.
              expect(edit.message).toBe(highestMessage + 1);
              highestMessage = edit.message;
            } else {
              const before = lastText.get(edit.message)!;
              expect(edit.message).toBe(highestMessage);
              expect(edit.text.startsWith(before)).toBe(true);
              expect(edit.text.length).toBeGreaterThan(before.length);
            }
            lastText.set(edit.message, edit.text);
          }
          // Nothing is lost: every non-whitespace character of the blocks is in some message.
          const strip = (text: string) => text.replace(/\s/g, '');
          const shown = [...lastText.values()].join('');
          expect(strip(shown)).toBe(strip(blocks.join('')));
        },
      ),
      { seed: 8, numRuns: 500 },
    );
  });
});

describe('toMessageEdits', () => {
  const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

  it('maps blocks to sends and edits, dropping every other event', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold<StreamEvent>('-r-a-d-b-c-(t|)', {
        r: { type: 'reasoning-delta', id: 'r', index: 0, delta: 'hmm', kind: 'text' },
        a: block('Hello', 0),
        d: { type: 'text-delta', id: 't', delta: 'Hello' },
        b: block('world', 1),
        c: block('again', 2),
        t: { type: 'completed', finishReason: 'stop' },
      });
      expectObservable(source.pipe(toMessageEdits({ maxMessageChars: 12 }))).toBe('---s---e-n-|', {
        s: { op: 'send', message: 0, text: 'Hello' },
        e: { op: 'edit', message: 0, text: 'Hello\n\nworld' },
        n: { op: 'send', message: 1, text: 'again' },
      });
      expectSubscriptions(source.subscriptions).toBe('^----------!');
    });
  });

  it('empty source: completes with nothing', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold<StreamEvent>('|');
      expectObservable(source.pipe(toMessageEdits({ maxMessageChars: 10 }))).toBe('|');
      expectSubscriptions(source.subscriptions).toBe('(^!)');
    });
  });

  it('never source: nothing, until unsubscribed', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold<StreamEvent>('-');
      expectObservable(source.pipe(toMessageEdits({ maxMessageChars: 10 })), '^----!').toBe('-');
      expectSubscriptions(source.subscriptions).toBe('^----!');
    });
  });

  it('passes an error on', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const error = new LlmRxError('stream-error', 'boom');
      const source = cold('-a-#', { a: block('Hi') }, error);
      expectObservable(source.pipe(toMessageEdits({ maxMessageChars: 10 }))).toBe(
        '-s-#',
        { s: { op: 'send', message: 0, text: 'Hi' } },
        error,
      );
      expectSubscriptions(source.subscriptions).toBe('^--!');
    });
  });

  it('early unsubscribe releases the source', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-----b-|', { a: block('Hi'), b: block('there') });
      expectObservable(source.pipe(toMessageEdits({ maxMessageChars: 10 })), '^ 4ms !').toBe('-s', {
        s: { op: 'send', message: 0, text: 'Hi' },
      });
      expectSubscriptions(source.subscriptions).toBe('^ 4ms !');
    });
  });

  it('rejects bad options at construction', () => {
    expect(() => toMessageEdits({ maxMessageChars: 0 })).toThrow(/maxMessageChars/);
    expect(() => toMessageEdits({ maxMessageChars: 2, separator: '\n\n' })).toThrow(
      /separator must be shorter/,
    );
  });
});
