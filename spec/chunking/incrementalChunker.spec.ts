// Where the chunker cuts a block that does not fit (incrementalChunker.ts): before a heading or
// a bare list marker that would end it, at a table's first row end, headings alone, a table's
// header repeated or left out, minChars counted with a reopened fence's opener line; and the
// early cuts of each breakPreference and of flushOnParagraph.
import { createBlockChunker, type BlockChunkerOptions } from '../../src/chunking/blockChunker';

function textsOf(options: BlockChunkerOptions, text: string): string[] {
  const chunker = createBlockChunker(options);
  return [...chunker.append(text), ...chunker.end('end')].map((block) => block.text);
}

describe('createBlockChunker: forced cuts', () => {
  const options: BlockChunkerOptions = { minChars: 12, maxChars: 24, mode: 'end' };
  const word = 'x'.repeat(30);

  it.each([
    [
      'a heading',
      `Intro text\n## Head\n${word}`,
      ['Intro text', `## Head\n${'x'.repeat(16)}`, 'x'.repeat(14)],
    ],
    [
      'a list marker',
      `Intro text\n- ${word}`,
      ['Intro text', `- ${'x'.repeat(22)}`, 'x'.repeat(8)],
    ],
    [
      'two words of a heading',
      `Intro text\n## Head line${word}`,
      ['Intro text', `## Head line${'x'.repeat(12)}`, 'x'.repeat(18)],
    ],
  ])('cuts at the line break before %s in reach, even below minChars', (_, text, expected) => {
    expect(textsOf(options, text)).toEqual(expected);
  });

  it('keeps a heading below minChars inside a block cut hard after its section starts', () => {
    expect(
      textsOf({ minChars: 16, maxChars: 16, mode: 'end' }, `ab\n## H\n${'x'.repeat(30)}`),
    ).toEqual(['ab\n## H\nxxxxxxxx', 'x'.repeat(16), 'x'.repeat(6)]);
  });

  it('sends the first of two headings alone when only blank lines follow them in reach', () => {
    const text = `# A\n## B${'\n'.repeat(8)}${'x'.repeat(30)}`;
    expect(textsOf({ minChars: 16, maxChars: 16, mode: 'end' }, text)).toEqual([
      '# A',
      `## B${'\n'.repeat(8)}xxxx`,
      'x'.repeat(16),
      'x'.repeat(10),
    ]);
  });

  it('cuts a table between its header and delimiter rows when the first ends exactly at maxChars', () => {
    const text = '| abcdefghijkl |\n|--------------|\n| a | b |';
    expect(textsOf({ minChars: 1, maxChars: 16, mode: 'end' }, text)).toEqual([
      '| abcdefghijkl |',
      '|--------------|',
      '| a | b |',
    ]);
  });

  it('makes no cut in a text exactly maxChars long', () => {
    expect(textsOf({ minChars: 5, maxChars: 16 }, 'sixteen chars ok')).toEqual([
      'sixteen chars ok',
    ]);
    expect(textsOf({ minChars: 5, maxChars: 16, mode: 'end' }, 'sixteen chars ok')).toEqual([
      'sixteen chars ok',
    ]);
  });
});

describe('createBlockChunker: early cuts', () => {
  it('breakPreference sentence cuts early at a sentence end; newline does not', () => {
    const text = 'One sentence here. And more';
    const sentence = createBlockChunker({
      minChars: 5,
      maxChars: 100,
      breakPreference: 'sentence',
    });
    expect(sentence.append(text)).toEqual([{ text: 'One sentence here.', reason: 'size' }]);
    const newline = createBlockChunker({ minChars: 5, maxChars: 100, breakPreference: 'newline' });
    expect(newline.append(text)).toEqual([]);
    expect(newline.end('end')).toEqual([{ text, reason: 'end' }]);
  });

  it('makes every early cut a delta allows at once, not one a delta', () => {
    const chunker = createBlockChunker({
      minChars: 0,
      maxChars: 16,
      breakPreference: 'sentence',
      flushOnParagraph: true,
    });
    expect(chunker.append('Yes.\nNo? Maybe')).toEqual([
      { text: 'Yes.', reason: 'size' },
      { text: 'No?', reason: 'size' },
    ]);
    expect(chunker.end('end')).toEqual([{ text: 'Maybe', reason: 'end' }]);
  });

  it('flushOnParagraph in mode end cuts at every paragraph break at the end', () => {
    const options = { minChars: 5, maxChars: 40, flushOnParagraph: true, mode: 'end' } as const;
    expect(textsOf(options, 'Hello\n\nworld and more\n\nend')).toEqual([
      'Hello',
      'world and more',
      'end',
    ]);
  });
});

describe('createBlockChunker: forced cuts in tables', () => {
  const rows = '| 1 | 2 |\n| 3 | 4 |\n| 5 | 6 |\n| 7 | 8 |\n| 9 | 0 |';
  const table = `| a | b |\n|---|---|\n${rows}`;

  it('repeats the header in each continuation block that has room for it and a row', () => {
    expect(textsOf({ minChars: 1, maxChars: 40, mode: 'end' }, table)).toEqual([
      '| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |',
      '| a | b |\n|---|---|\n| 5 | 6 |\n| 7 | 8 |',
      '| a | b |\n|---|---|\n| 9 | 0 |',
    ]);
  });

  it('sends a continuation without the header when the header and the next row do not fit', () => {
    expect(
      textsOf(
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
    expect(textsOf({ minChars: 1, maxChars: 20, mode: 'end' }, `## Title\n${fence}`)).toEqual([
      '## Title',
      '``````````\naaaa bbbb',
      'cccc\n``````````',
    ]);
  });

  it('keeps a heading with the indented line after it rather than cut between its marker and word', () => {
    const text = `text\n## T\n     ${'x'.repeat(20)}`;
    expect(textsOf({ minChars: 1, maxChars: 20, mode: 'end' }, text)).toEqual([
      'text',
      `## T\n     ${'x'.repeat(10)}`,
      'x'.repeat(10),
    ]);
  });
});

describe('createBlockChunker: forced cuts in fences', () => {
  it('counts a reopened fence’s opener line towards minChars', () => {
    const code = '```js\nconst a = 1;\nconst b = 2;\nconst c = 3;\n```';
    expect(textsOf({ minChars: 7, maxChars: 26, mode: 'end' }, code)).toEqual([
      '```js\nconst a = 1;\n```',
      '```js\nconst b = 2;\n```',
      '```js\nconst c = 3;\n```',
    ]);
  });
});
