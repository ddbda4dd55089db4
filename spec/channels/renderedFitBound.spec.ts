// The rendered planner skips rendering a message whose markdown surely fits (Telegram counts the
// visible text: without a table or a tab, never more than 3× the markdown), and an edit of a
// message that is already shown renders only when something reads its `rendered`. What the
// chat gets must be what a rendering at every step would give.
import fc from 'fast-check';
import { from, lastValueFrom, toArray } from 'rxjs';
import { toMessageEdits } from '../../src/channels/toMessageEdits';
import type { MessageStep } from '../../src/channels/messageSteps';
import type { StreamEvent } from '../../src/events';
import { renderMessages } from '../../src/render/renderMarkdown';
import { markdown as chunkerMarkdown } from '../chunking/markdownArbitrary';
import { renderMarkdownArbitrary } from '../render/renderArbitrary';

const visibleLength = (text: string, format: 'telegram' | 'telegram-html') =>
  renderMessages(text, format, { maxLength: 1 << 20 }).reduce(
    (sum, { plain }) => sum + plain.length,
    0,
  );

describe('the bound the rendered planner fits by', () => {
  it('a markdown without a table or a tab never shows more than 3× its length on Telegram', () => {
    fc.assert(
      fc.property(
        fc.oneof(renderMarkdownArbitrary, chunkerMarkdown),
        fc.constantFrom('telegram' as const, 'telegram-html' as const),
        (text, format) => {
          fc.pre(!/[|\t]/.test(text));
          expect(visibleLength(text, format)).toBeLessThanOrEqual(3 * text.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the widest case known: an ordered list renumbered from nine digits, short items', () => {
    const text = `123456789. a\n${'1. a\n'.repeat(40)}`;
    const shown = visibleLength(text, 'telegram');
    expect(shown).toBeGreaterThan(2 * text.length);
    expect(shown).toBeLessThanOrEqual(3 * text.length);
  });
});

const blocks = (pieces: string[]): StreamEvent[] => [
  ...pieces.map((text, seq): StreamEvent => ({ type: 'block', text, seq, reason: 'size' })),
  { type: 'completed', finishReason: 'stop' },
];
const stepsOf = (pieces: string[]) =>
  lastValueFrom(
    from(blocks(pieces)).pipe(
      toMessageEdits({ maxMessageChars: 4096, separator: '', render: 'telegram' }),
      toArray(),
    ),
  );
const plainSteps = (steps: MessageStep[]) =>
  steps.map((step) => (step.op === 'end' ? step : { ...step })); // reads every `rendered`

describe('live edits rendered on demand', () => {
  it("an edit's rendering is the text's, read when asked for", async () => {
    const steps = await stepsOf(['Hello ', '**wor', 'ld** and ', 'more.']);
    const edits = plainSteps(steps).flatMap((step) => (step.op === 'end' ? [] : [step]));
    expect(edits.map((edit) => [edit.op, edit.text])).toEqual([
      ['send', 'Hello '],
      ['edit', 'Hello **wor'],
      ['edit', 'Hello **world** and '],
      ['edit', 'Hello **world** and more.'],
    ]);
    for (const edit of edits) {
      expect(edit.rendered).toEqual(
        renderMessages(edit.text, 'telegram', { maxLength: 4096 })[0].rendered,
      );
    }
  });

  it('a reference definition completed by a later piece shows nothing: no edit for it', async () => {
    const steps = await stepsOf(['[1]:', ' https://example.com/a']);
    // "[1]:" alone is a paragraph; with its URL it is a definition, which shows nothing. The
    // message shown stays as it was (a finish of nothing new makes no call).
    expect(plainSteps(steps).map((step) => (step.op === 'end' ? 'end' : step.text))).toEqual([
      '[1]:',
      'end',
    ]);
  });
});
