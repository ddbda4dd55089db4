// The forced cuts of the incremental chunker (incrementalChunker.ts, `cutForced`) in the cases
// the other chunking specs leave alone: a repeated table header, a row after a flushed header,
// a heading before a fence that cannot be reopened, an indented line after a heading, and
// minChars counted with a reopened fence's opener line.
import { createBlockChunker, type BlockChunkerOptions } from '../../src/chunking/blockChunker';

function texts(options: BlockChunkerOptions, text: string): string[] {
  const chunker = createBlockChunker(options);
  return [...chunker.append(text), ...chunker.end('end')].map((block) => block.text);
}

describe('createBlockChunker: forced cuts in tables', () => {
  const rows = '| 1 | 2 |\n| 3 | 4 |\n| 5 | 6 |\n| 7 | 8 |\n| 9 | 0 |';
  const table = `| a | b |\n|---|---|\n${rows}`;

  it('repeats the header in each continuation block that has room for it and a row', () => {
    expect(texts({ minChars: 1, maxChars: 40, mode: 'end' }, table)).toEqual([
      '| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |',
      '| a | b |\n|---|---|\n| 5 | 6 |\n| 7 | 8 |',
      '| a | b |\n|---|---|\n| 9 | 0 |',
    ]);
  });

  it('sends a continuation without the header when the header and the next row do not fit', () => {
    expect(
      texts(
        { minChars: 1, maxChars: 30, mode: 'end' },
        `| a | b |\n|---|---|\n| 1 | 22 |\n| 3 | 4 |\n| 5 | 6 |`,
      ),
    ).toEqual(['| a | b |\n|---|---|\n| 1 | 22 |', '| 3 | 4 |\n| 5 | 6 |']);
  });
});

describe('createBlockChunker: a table after a flush', () => {
  it('keeps a row whole, without the header, when the two do not fit together', () => {
    const chunker = createBlockChunker({ minChars: 0, maxChars: 40 });
    expect(chunker.append('| a | b |\n|---|---|\n')).toEqual([]);
    expect(chunker.flush('idle')).toEqual([{ text: '| a | b |\n|---|---|', reason: 'idle' }]);
    expect(chunker.append('| 1 | a longer cell of text |')).toEqual([]);
    expect(chunker.end('end')).toEqual([{ text: '| 1 | a longer cell of text |', reason: 'end' }]);
  });
});

describe('createBlockChunker: forced cuts around headings', () => {
  it('sends a heading alone before a fence whose marker leaves no room to reopen it', () => {
    // Ten backticks fit twice in maxChars 20 only without code: the fence is cut as plain text,
    // the last resort, and the heading does not go down with it.
    const fence = '``````````\naaaa bbbb cccc\n``````````';
    expect(texts({ minChars: 1, maxChars: 20, mode: 'end' }, `## Title\n${fence}`)).toEqual([
      '## Title',
      '``````````\naaaa bbbb',
      'cccc\n``````````',
    ]);
  });

  it('keeps a heading with the indented line after it rather than cut between its marker and word', () => {
    const text = `text\n## T\n     ${'x'.repeat(20)}`;
    expect(texts({ minChars: 1, maxChars: 20, mode: 'end' }, text)).toEqual([
      'text',
      `## T\n     ${'x'.repeat(10)}`,
      'x'.repeat(10),
    ]);
  });
});

describe('createBlockChunker: forced cuts in fences', () => {
  it('counts a reopened fence’s opener line towards minChars', () => {
    const code = '```js\nconst a = 1;\nconst b = 2;\nconst c = 3;\n```';
    expect(texts({ minChars: 7, maxChars: 26, mode: 'end' }, code)).toEqual([
      '```js\nconst a = 1;\n```',
      '```js\nconst b = 2;\n```',
      '```js\nconst c = 3;\n```',
    ]);
  });
});
