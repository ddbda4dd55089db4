// cutMessage: where a chat message that passes its limit ends, from its text alone, by the
// block rules (paragraph > line > sentence > whitespace in the second half of the limit; a cut
// fence closed and reopened; a table's header rows repeated when they take at most half).
import { cutMessage } from '../../src/chunking/messageCut';

describe('cutMessage', () => {
  it('is undefined when the text fits (trailing whitespace not counted) or the limit is below 16', () => {
    expect(cutMessage('short', 24)).toBeUndefined();
    expect(cutMessage('Hello there.\n\n', 12)).toBeUndefined();
    expect(cutMessage('x'.repeat(16), 16)).toBeUndefined();
    expect(cutMessage('x'.repeat(30), 15)).toBeUndefined();
  });

  it('is undefined when only the leading whitespace, which no block keeps, passes the limit', () => {
    expect(cutMessage(`   ${'x'.repeat(15)}`, 16)).toBeUndefined();
    expect(cutMessage(`\n\n${'x'.repeat(15)}`, 16)).toBeUndefined();
  });

  it('cuts at a paragraph break first, the blank line in neither part', () => {
    expect(cutMessage('First paragraph.\n\nSecond one, which is longer.', 24)).toEqual({
      text: 'First paragraph.',
      rest: 'Second one, which is longer.',
      inParagraph: false,
      inFence: false,
    });
    // A blank line holding spaces or a tab is a paragraph break too.
    for (const blank of ['  ', '\t'])
      expect(cutMessage(`First paragraph.\n${blank}\nSecond one, which is longer.`, 24)).toEqual({
        text: 'First paragraph.',
        rest: 'Second one, which is longer.',
        inParagraph: false,
        inFence: false,
      });
    expect(cutMessage('A.\n\nB is a longer paragraph here', 16, 0)).toEqual({
      text: 'A.',
      rest: 'B is a longer paragraph here',
      inParagraph: false,
      inFence: false,
    });
  });

  it('reads a cut inside a blank line longer than the limit as a paragraph break', () => {
    // Below minChars the paragraph break is no cut: the hard cut falls in the blank line's spaces.
    expect(cutMessage(`a\n${' '.repeat(30)}\nbcd`, 16)).toEqual({
      text: 'a',
      rest: 'bcd',
      inParagraph: false,
      inFence: false,
    });
  });

  it('then at a line break, a sentence end, a space: each inside a paragraph', () => {
    expect(cutMessage('One line here\nTwo line here and more', 20)).toEqual({
      text: 'One line here',
      rest: 'Two line here and more',
      inParagraph: true,
      inFence: false,
    });
    expect(cutMessage('Sentence one. Sentence two goes on', 20)).toEqual({
      text: 'Sentence one.',
      rest: 'Sentence two goes on',
      inParagraph: true,
      inFence: false,
    });
    expect(cutMessage('words words words words words', 20)).toEqual({
      text: 'words words words',
      rest: 'words words',
      inParagraph: true,
      inFence: false,
    });
    // A blank line inside the message does not make the cut after it a paragraph break.
    expect(cutMessage('A.\n\nB is here and\nmore text goes on', 20)).toEqual({
      text: 'A.\n\nB is here and',
      rest: 'more text goes on',
      inParagraph: true,
      inFence: false,
    });
    expect(cutMessage('**bold text here** and more words to go', 20)).toEqual({
      text: '**bold text here**',
      rest: 'and more words to go',
      inParagraph: true,
      inFence: false,
    });
  });

  it('cuts a word with no break at the limit, keeping every character', () => {
    expect(cutMessage('x'.repeat(17), 16)).toEqual({
      text: 'x'.repeat(16),
      rest: 'x',
      inParagraph: true,
      inFence: false,
    });
    expect(cutMessage(`${'x'.repeat(16)} y`, 16)).toEqual({
      text: 'x'.repeat(16),
      rest: 'y',
      inParagraph: true,
      inFence: false,
    });
  });

  it('minChars sets where the window starts: the last break of the best kind at or after it', () => {
    // Half of 24 (the default) takes the paragraph break at 16; 20 leaves only spaces after it.
    expect(cutMessage('First paragraph.\n\nSecond one, which is longer.', 24, 20)).toEqual({
      text: 'First paragraph.\n\nSecond',
      rest: 'one, which is longer.',
      inParagraph: true,
      inFence: false,
    });
    // A minChars past maxChars is maxChars: the last space that fits.
    expect(cutMessage('abc def ghi jkl mno', 16, 100)).toEqual({
      text: 'abc def ghi jkl',
      rest: 'mno',
      inParagraph: true,
      inFence: false,
    });
    expect(cutMessage('aaaa bbbb. cccc dddd eeee ffff gggg', 20, 2)).toEqual({
      text: 'aaaa bbbb.',
      rest: 'cccc dddd eeee ffff gggg',
      inParagraph: true,
      inFence: false,
    });
  });

  it('closes a cut fence in text and reopens it, info string and all, in rest', () => {
    expect(cutMessage('```ts\nconst a = 1;\nconst b = 2;\nconst c = 3;\n```\nafter', 30)).toEqual({
      text: '```ts\nconst a = 1;\n```',
      rest: '```ts\nconst b = 2;\nconst c = 3;\n```\nafter',
      inParagraph: false,
      inFence: true,
    });
    // A code block that would be cut goes whole to the next message when a paragraph break
    // comes before it.
    const code = '```py\nprint(1)\nprint(2)\nprint(3)\nprint(4)\n```';
    expect(cutMessage(`Intro line.\n\n${code}`, 40)).toEqual({
      text: 'Intro line.',
      rest: code,
      inParagraph: false,
      inFence: false,
    });
  });

  it("repeats a table's header rows in rest when they take at most half the limit", () => {
    const rows = Array.from({ length: 6 }, (_, i) => `| row ${i} | value ${i} |`);
    const header = '| a | b |\n| - | - |\n';
    expect(cutMessage(`${header}${rows.join('\n')}\n`, 60)).toEqual({
      text: `${header}${rows.slice(0, 2).join('\n')}`,
      rest: `${header}${rows.slice(2).join('\n')}\n`,
      inParagraph: true,
      inFence: false,
    });
    // 20 characters of header in a limit of 30: not repeated.
    expect(cutMessage(`${header}| 1 | 2 |\n| 3 | 4 |\n| 5 | 6 |\n`, 30)).toEqual({
      text: `${header}| 1 | 2 |`,
      rest: '| 3 | 4 |\n| 5 | 6 |\n',
      inParagraph: true,
      inFence: false,
    });
  });

  it('leaves leading blank lines out of text and keeps the first line’s indentation', () => {
    expect(cutMessage('\n\n  Lead para.\n\nAnother paragraph follows.', 20)).toEqual({
      text: '  Lead para.',
      rest: 'Another paragraph follows.',
      inParagraph: false,
      inFence: false,
    });
    expect(cutMessage('  \n  indented start and then some more words', 20)).toEqual({
      text: '  indented start and',
      rest: 'then some more words',
      inParagraph: true,
      inFence: false,
    });
    expect(cutMessage('Hello there friend   ', 16)).toEqual({
      text: 'Hello there',
      rest: 'friend   ',
      inParagraph: true,
      inFence: false,
    });
  });
});
