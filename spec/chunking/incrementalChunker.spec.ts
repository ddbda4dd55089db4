// Where the chunker cuts a block that does not fit (incrementalChunker.ts): before a heading or
// a bare list marker that would end it, at a table's first row end, headings alone, a table's
// header repeated or left out, minChars counted with a reopened fence's opener line, a reopened
// fence's block sent with the character that fills it, an opener's info kept on its line; and
// the early cuts of each breakPreference and of flushOnParagraph.
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

  it('cuts before a heading whose end is the only break in reach, not inside the word after it', () => {
    const text = 'Intro words.\n\nSecond para words.\n\n## Head\n\nBody text';
    expect(textsOf({ minChars: 38, maxChars: 44, mode: 'end' }, text)).toEqual([
      'Intro words.\n\nSecond para words.',
      '## Head\n\nBody text',
    ]);
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

  it('never cuts a tilde opener between its marker and its info, whatever breaks follow', () => {
    const blocks = textsOf({ minChars: 0, maxChars: 16, mode: 'end' }, '~~~ let\n\n\n~~~#####');
    expect(blocks.map((block) => block.split('\n')[0])).toEqual(['~~~ let', '~~~']);
  });

  it('sends a reopened fence’s block with the character that fills it, never in the middle of a word', () => {
    // minChars close to maxChars: the held code is still below minChars when the reopen line,
    // the code and the closer no longer fit, so the cut is due before any early cut could be.
    const code = Array.from({ length: 12 }, (_, index) => `x${index} = ${index * 7}`).join('\n');
    const text = `Intro.\n\n\`\`\`python\n${code}\n\`\`\`\n\nAfter.`;
    const chunker = createBlockChunker({ minChars: 28, maxChars: 30 });
    const sent = [...text].flatMap((char, index) =>
      chunker.append(char).map((block) => [index, block.text]),
    );
    expect([...sent, ...chunker.end('end').map((block) => ['end', block.text])]).toEqual([
      [26, 'Intro.'],
      [35, '```python\nx0 = 0\nx1 = 7\n```'],
      [48, '```python\nx2 = 14\nx3 =\n```'],
      [61, '```python\n21\nx4 = 28\nx5\n```'],
      [75, '```python\n= 35\nx6 = 42\n```'],
      [88, '```python\nx7 = 49\nx8 =\n```'],
      [102, '```python\n56\nx9 = 63\nx10\n```'],
      [116, '```python\n= 70\nx11 = 77\n```'],
      ['end', 'After.'],
    ]);
  });
});
