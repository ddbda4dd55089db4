import fc from 'fast-check';
import { createMessageEditPlanner, splitToFit } from '../../src/channels/messageEditPlanner';
import { toMessageEdits } from '../../src/channels/toMessageEdits';
import type { MessageEdit } from '../../src/channels/messageEditPlanner';
import { renderMarkdown } from '../../src/render/renderMarkdown';
import type { RenderFormat } from '../../src/render/types';
import { markdownBlock } from '../render/renderArbitrary';
import { renderingProblems } from '../render/renderChecks';

/** Visible text without its whitespace (a cut may drop the whitespace around it). */
const squash = (text: string) => text.replace(/\s+/g, '');

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

  it('never yields a message over maxMessageChars; each message only grows, but for one trim back to its cut as it closes (property)', () => {
    fc.assert(
      fc.property(
        fc.array(blockText, { maxLength: 30 }),
        fc.integer({ min: 2, max: 50 }),
        fc.constantFrom('\n\n', '\n', ''),
        (blocks, maxMessageChars, separator) => {
          const edits = planAll(blocks, maxMessageChars, separator);
          const lastText = new Map<number, string>();
          let highestMessage = -1;
          edits.forEach((edit, index) => {
            expect(edit.text.length).toBeLessThanOrEqual(maxMessageChars);
            expect(edit.text.length).toBeGreaterThan(0);
            if (edit.op === 'send') {
              // Messages are numbered 0, 1, 2… in the order they are sent.
              expect(edit.message).toBe(highestMessage + 1);
              highestMessage = edit.message;
            } else {
              const before = lastText.get(edit.message)!;
              expect(edit.message).toBe(highestMessage);
              expect(edit.text).not.toBe(before);
              // A text that does not grow is the trim back to the message's cut: its last
              // edit, the next message sent right after it.
              if (!edit.text.startsWith(before)) {
                expect(edits[index + 1]).toMatchObject({ op: 'send', message: edit.message + 1 });
              }
            }
            lastText.set(edit.message, edit.text);
          });
          // Nothing is lost: every non-whitespace character of the blocks is in some message
          // (a fence closed and reopened at a cut adds backtick lines, hence without them).
          const strip = (text: string) => text.replace(/\s/g, '');
          const shown = [...lastText.values()].join('');
          if (!blocks.join('').includes('`')) expect(strip(shown)).toBe(strip(blocks.join('')));
        },
      ),
      { seed: 8, numRuns: 500 },
    );
  });
});

// The operator's timing (edits in their block's frame, empty, never, error, unsubscribe, render):
// marbles/to-message-edits/*.marble.
describe('toMessageEdits', () => {
  it('rejects bad options at construction', () => {
    expect(() => toMessageEdits({ maxMessageChars: 0 })).toThrow(/maxMessageChars/);
    expect(() => toMessageEdits({ maxMessageChars: 2, separator: '\n\n' })).toThrow(
      /separator must be shorter/,
    );
  });
});

describe('toMessageEdits({ render })', () => {
  const plan = (blocks: string[], maxMessageChars: number, render: RenderFormat) => {
    const planner = createMessageEditPlanner({ maxMessageChars, separator: '\n\n', render });
    return blocks.flatMap((text) => planner.push(text));
  };

  it('the limit counts the rendered length, not the markdown', () => {
    const first = 'x'.repeat(40);
    const second = `**${'y'.repeat(20)}**`; // 24 characters of markdown, 20 shown in Telegram
    // 40 + 2 + 20 = 62 rendered: one message of 64 in Telegram (the markdown would be 66).
    expect(plan([first, second], 64, 'telegram').map(({ op, message }) => [op, message])).toEqual([
      ['send', 0],
      ['edit', 0],
    ]);
    expect(planAll([first, second], 64).map(({ op, message }) => [op, message])).toEqual([
      ['send', 0],
      ['send', 1],
    ]);
    // Slack shows `*yyy*`: 40 + 2 + 22 = 64 still fits; Discord's `**yyy**` is 66: a new message.
    expect(plan([first, second], 64, 'slack').map(({ op }) => op)).toEqual(['send', 'edit']);
    expect(plan([first, second], 64, 'discord').map(({ op }) => op)).toEqual(['send', 'send']);
  });

  it('a block too long for one message goes out in the pieces renderMarkdown cuts', () => {
    const words = Array.from({ length: 24 }, (_, index) => `w${index}`).join(' ');
    expect(plan(['Intro.', `**${words}**`, 'Next.'], 64, 'telegram-html')).toEqual([
      {
        op: 'send',
        message: 0,
        text: 'Intro.',
        rendered: { text: 'Intro.', parseMode: 'HTML', format: 'telegram-html', plain: 'Intro.' },
      },
      {
        op: 'send',
        message: 1,
        text: 'w0 w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15 w16 w17',
        rendered: {
          text: '<b>w0 w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15 w16 w17</b>',
          parseMode: 'HTML',
          format: 'telegram-html',
          plain: 'w0 w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15 w16 w17',
        },
      },
      {
        op: 'send',
        message: 2,
        text: 'w18 w19 w20 w21 w22 w23',
        rendered: {
          text: '<b>w18 w19 w20 w21 w22 w23</b>',
          parseMode: 'HTML',
          format: 'telegram-html',
          plain: 'w18 w19 w20 w21 w22 w23',
        },
      },
      // A piece is never edited: the next block starts a message of its own.
      {
        op: 'send',
        message: 3,
        text: 'Next.',
        rendered: { text: 'Next.', parseMode: 'HTML', format: 'telegram-html', plain: 'Next.' },
      },
    ]);
  });

  it('a block with nothing visible changes nothing', () => {
    expect(plan(['  \n', 'a'], 100, 'plain')).toEqual([
      { op: 'send', message: 0, text: 'a', rendered: { text: 'a', format: 'plain', plain: 'a' } },
    ]);
  });

  it('every edit within the limit after rendering, each rendering valid, texts only grow but for the trim back to a cut (property)', () => {
    fc.assert(
      fc.property(
        fc.array(markdownBlock, { minLength: 1, maxLength: 6 }),
        fc.constantFrom<RenderFormat>('telegram', 'telegram-html', 'slack', 'discord', 'plain'),
        fc.integer({ min: 64, max: 500 }),
        (blocks, format, maxMessageChars) => {
          const edits = plan(blocks, maxMessageChars, format);
          const lastText = new Map<number, string>();
          const lastPlain = new Map<number, string>();
          const trimmed = new Set<number>();
          edits.forEach((edit, index) => {
            const problems = renderingProblems(
              edit.text,
              format,
              [edit.rendered!],
              maxMessageChars,
            );
            if (edit.op === 'edit') {
              // An edit's text is the message's markdown: every property, and the same rendering.
              expect(problems).toEqual([]);
              expect(edit.rendered).toEqual(
                renderMarkdown(edit.text, format, { maxLength: maxMessageChars })[0],
              );
              // A message is cut from its text: the one edit that does not grow it trims it
              // back to its cut (what it shows, up to whitespace), as the next message starts.
              expect(trimmed.has(edit.message)).toBe(false);
              if (!edit.text.startsWith(lastText.get(edit.message)!)) {
                trimmed.add(edit.message);
                expect(edits[index + 1]).toMatchObject({ op: 'send', message: edit.message + 1 });
                expect(
                  squash(lastPlain.get(edit.message)!).startsWith(squash(edit.rendered!.plain)),
                ).toBe(true);
              }
            } else {
              // A send may be a piece of a long block (its text then the visible text): its form.
              expect(
                problems.filter((problem) => !/visible text|code (block|part)/.test(problem)),
              ).toEqual([]);
            }
            lastText.set(edit.message, edit.text);
            lastPlain.set(edit.message, edit.rendered!.plain);
          });
        },
      ),
      { numRuns: 200, seed: 15 },
    );
  });

  it('rejects an unknown format, and a limit too small to render into', () => {
    expect(() => toMessageEdits({ maxMessageChars: 4096, render: 'sms' as RenderFormat })).toThrow(
      /render/,
    );
    expect(() => toMessageEdits({ maxMessageChars: 40, render: 'telegram' })).toThrow(
      /with render, maxMessageChars must be at least 64/,
    );
  });
});
