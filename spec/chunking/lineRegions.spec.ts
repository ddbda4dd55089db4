// The spans the chunker keeps whole or cuts before (lineRegions.ts): a line still being written
// that may become a fence opener, a fence with no code yet, a table of one row, a heading longer
// than a block, and where a flush may stop.
import { createBlockChunker, type BlockChunkerOptions } from '../../src/chunking/blockChunker';
import { cutMessage } from '../../src/chunking/messageCut';

function textsOf(options: BlockChunkerOptions, text: string): string[] {
  const chunker = createBlockChunker(options);
  return [...chunker.append(text), ...chunker.end('end')].map((block) => block.text);
}

describe('createBlockChunker: the line still being written', () => {
  const options: BlockChunkerOptions = { minChars: 8, maxChars: 16 };

  it('cuts before a last line that may still open a fence', () => {
    const chunker = createBlockChunker(options);
    expect(chunker.append(`abc\n\`\`\`${'x'.repeat(30)}`)).toEqual([
      { text: 'abc', reason: 'size' },
      { text: '```xxxxxxxxxxxxx', reason: 'size' },
      { text: 'xxxxxxxxxxxxxxxx', reason: 'size' },
    ]);
  });

  it('cuts through a last line of plain text like any other', () => {
    const chunker = createBlockChunker(options);
    expect(chunker.append(`abc\n${'x'.repeat(30)}`)).toEqual([
      { text: 'abc\nxxxxxxxxxxxx', reason: 'size' },
      { text: 'xxxxxxxxxxxxxxxx', reason: 'size' },
    ]);
  });
});

describe('createBlockChunker: where a flush stops', () => {
  it('sends a short text whole', () => {
    const chunker = createBlockChunker({ minChars: 50, maxChars: 100 });
    chunker.append('a');
    expect(chunker.flush('idle')).toEqual([{ text: 'a', reason: 'idle' }]);
  });

  it('keeps back a fence whose first line after the opener may still close it', () => {
    const chunker = createBlockChunker({ minChars: 50, maxChars: 100 });
    chunker.append('Intro\n\n```js\n``');
    expect(chunker.flush('idle')).toEqual([{ text: 'Intro', reason: 'idle' }]);
    chunker.append('`\nText.');
    expect(chunker.end('end')).toEqual([{ text: '```js\n```\nText.', reason: 'end' }]);
  });
});

describe('createBlockChunker: spans longer than a block', () => {
  it('cuts a table of one row between two words, like text', () => {
    expect(
      textsOf({ minChars: 1, maxChars: 16, mode: 'end' }, '| alpha beta gamma delta |'),
    ).toEqual(['| alpha beta', 'gamma delta |']);
  });

  it('cuts a heading longer than a block between two of its words', () => {
    expect(
      textsOf({ minChars: 1, maxChars: 16, mode: 'end' }, '# alpha beta gamma delta epsilon'),
    ).toEqual(['# alpha beta', 'gamma delta', 'epsilon']);
  });
});

describe('cutMessage: a fence right at the limit', () => {
  it('cuts at the blank line before a fence that starts exactly maxChars in', () => {
    expect(cutMessage(`${'x'.repeat(14)}\n\n\`\`\`\ncode\n\`\`\``, 16, 16)).toEqual({
      text: 'x'.repeat(14),
      rest: '```\ncode\n```',
      inParagraph: false,
      inFence: false,
    });
  });
});
