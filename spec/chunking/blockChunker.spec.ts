import { createBlockChunker, type BlockChunkerOptions } from '../../src/chunking/blockChunker';
import { LlmRxError } from '../../src/errors';

/** The block texts of `deltas` (one delta per element) through a fresh chunker. */
function blocksOf(options: BlockChunkerOptions, deltas: string[]): string[] {
  const chunker = createBlockChunker(options);
  const texts = deltas.flatMap((delta) => chunker.append(delta).map((block) => block.text));
  return [...texts, ...chunker.end('end').map((block) => block.text)];
}
const characters = (text: string) => text.split('');

describe('createBlockChunker: the exact cases of issue 6', () => {
  const options: BlockChunkerOptions = {
    minChars: 5,
    maxChars: 25,
    breakPreference: 'paragraph',
    mode: 'end',
  };

  it('cuts two paragraphs at the paragraph break', () => {
    const text = 'First block line\n\nSecond block line';
    expect(blocksOf(options, [text])).toEqual(['First block line', 'Second block line']);
    expect(blocksOf(options, characters(text))).toEqual(['First block line', 'Second block line']);
  });

  it('keeps a fenced block whole between two paragraphs', () => {
    const text = 'Intro\n\n```bash\nline1\nline2\n```\n\nOutro';
    const expected = ['Intro', '```bash\nline1\nline2\n```', 'Outro'];
    expect(blocksOf(options, [text])).toEqual(expected);
    expect(blocksOf(options, characters(text))).toEqual(expected);
  });
});

describe('createBlockChunker: where a cut goes', () => {
  it('prefers a sentence end over whitespace, but not after "e.g."', () => {
    const text = 'See e.g. this one. And then more words here';
    expect(blocksOf({ minChars: 5, maxChars: 30 }, [text])).toEqual([
      'See e.g. this one.',
      'And then more words here',
    ]);
  });

  it('ends a sentence after a longer word that starts with an abbreviation', () => {
    // "approx" is an abbreviation; "approximately" is a word.
    const text = 'It took approximately. Then more words came';
    expect(blocksOf({ minChars: 5, maxChars: 30 }, [text])).toEqual([
      'It took approximately.',
      'Then more words came',
    ]);
    expect(blocksOf({ minChars: 5, maxChars: 30 }, characters(text))).toEqual([
      'It took approximately.',
      'Then more words came',
    ]);
  });

  it('keeps closing quotes and brackets with their sentence', () => {
    expect(blocksOf({ minChars: 5, maxChars: 20 }, ['He said "stop." Then it went on.'])).toEqual([
      'He said "stop."',
      'Then it went on.',
    ]);
    expect(blocksOf({ minChars: 5, maxChars: 20 }, ['(It was done.) And the rest'])).toEqual([
      '(It was done.)',
      'And the rest',
    ]);
  });

  it('does not read an ordered-list marker "1." as a sentence end', () => {
    expect(blocksOf({ minChars: 1, maxChars: 20 }, ['1. alpha beta gamma delta'])).toEqual([
      '1. alpha beta gamma',
      'delta',
    ]);
  });

  it('falls back to whitespace, then to a hard cut that keeps surrogate pairs whole', () => {
    expect(blocksOf({ minChars: 5, maxChars: 16 }, ['alpha beta gamma delta'])).toEqual([
      'alpha beta gamma',
      'delta',
    ]);
    const emoji = 'x' + '😀'.repeat(10);
    const blocks = blocksOf({ minChars: 5, maxChars: 16 }, characters(emoji));
    expect(blocks).toEqual(['x' + '😀'.repeat(7), '😀'.repeat(3)]);
  });

  it('cuts before a table that fits, even below minChars', () => {
    const row = '| 1 | 2 | 3 |';
    const text = `Intro:\n${[row, row, row, row].join('\n')}\nEnd of it.`;
    expect(blocksOf({ minChars: 20, maxChars: 60, mode: 'end' }, [text])).toEqual([
      'Intro:',
      [row, row, row, row].join('\n'),
      'End of it.',
    ]);
  });

  it('splits a table longer than maxChars between rows', () => {
    const rows = ['| a | b |', '| c | d |', '| e | f |', '| g | h |'];
    expect(blocksOf({ minChars: 5, maxChars: 20 }, [rows.join('\n')])).toEqual([
      `${rows[0]}\n${rows[1]}`,
      `${rows[2]}\n${rows[3]}`,
    ]);
  });

  it('closes and reopens a fence it must cut, every block within maxChars', () => {
    const code = Array.from({ length: 8 }, (_, index) => `const v${index} = ${index};`);
    const text = `Code:\n\`\`\`ts\n${code.join('\n')}\n\`\`\`\nafter`;
    const blocks = blocksOf({ minChars: 20, maxChars: 60, mode: 'end' }, [text]);
    expect(blocks).toEqual([
      'Code:',
      '```ts\nconst v0 = 0;\nconst v1 = 1;\nconst v2 = 2;\n```',
      '```ts\nconst v3 = 3;\nconst v4 = 4;\nconst v5 = 5;\n```',
      '```ts\nconst v6 = 6;\nconst v7 = 7;\n```\nafter',
    ]);
    for (const block of blocks) expect(block.length).toBeLessThanOrEqual(60);
  });

  it('never leaves the real closer alone in a block of its own', () => {
    const text = 'alpha\n\n```\nfoo()\n\n\n\n\n```';
    expect(blocksOf({ minChars: 0, maxChars: 16, mode: 'end' }, [text])).toEqual([
      'alpha',
      '```\nfoo()\n```',
    ]);
  });

  it('cuts at a break exactly minChars into the block, the only one in reach', () => {
    const word = 'abcdefghijklmno'; // 15 characters: each break is at minChars
    const text = `${word} ${word} ${word}`;
    expect(blocksOf({ minChars: 15, maxChars: 20, mode: 'end' }, [text])).toEqual([
      word,
      word,
      word,
    ]);
    const chunker = createBlockChunker({ minChars: 15, maxChars: 20 });
    const sent = characters(text).flatMap((char) => chunker.append(char));
    expect([...sent, ...chunker.end('end')]).toEqual([
      { text: word, reason: 'size' },
      { text: word, reason: 'size' },
      { text: word, reason: 'end' },
    ]);
  });

  it('cuts at a break exactly maxChars into the block, with more breaks after it', () => {
    expect(
      blocksOf({ minChars: 5, maxChars: 16, mode: 'end' }, ['sixteen chars ok and more']),
    ).toEqual(['sixteen chars ok', 'and more']);
  });

  it('cuts hard at maxChars rather than at a break below minChars', () => {
    const text = `a ${'b'.repeat(25)} c`;
    expect(blocksOf({ minChars: 5, maxChars: 16, mode: 'end' }, [text])).toEqual([
      `a ${'b'.repeat(14)}`,
      `${'b'.repeat(11)} c`,
    ]);
  });

  it('flushOnParagraph cuts at a paragraph break exactly minChars in, the first of two', () => {
    const chunker = createBlockChunker({ minChars: 5, maxChars: 40, flushOnParagraph: true });
    expect(chunker.append('Hello\n\nworld and more\n\nend')).toEqual([
      { text: 'Hello', reason: 'paragraph' },
      { text: 'world and more', reason: 'paragraph' },
    ]);
    expect(chunker.end('end')).toEqual([{ text: 'end', reason: 'end' }]);
  });

  it('cuts a long text the same way from its first block to its last', () => {
    // 2000 words: thousands of breaks are stored and let go of while the blocks are cut.
    const chunker = createBlockChunker({ minChars: 10, maxChars: 20, mode: 'end' });
    chunker.append('word '.repeat(2000));
    const blocks = chunker.end('end').map((block) => block.text);
    expect(blocks).toEqual(Array.from({ length: 500 }, () => 'word word word word'));
  });

  it('trims whitespace at cuts but keeps the indentation of a block’s first line', () => {
    expect(blocksOf({ minChars: 5, maxChars: 20 }, ['para text\n\n    indented code'])).toEqual([
      'para text',
      '    indented code',
    ]);
  });
});

describe('createBlockChunker: streaming', () => {
  it('cuts early only at breaks as fine as breakPreference', () => {
    const text = 'line one is here\nline two';
    expect(blocksOf({ minChars: 5, maxChars: 100 }, [text])).toEqual([text]);
    const chunker = createBlockChunker({ minChars: 5, maxChars: 100, breakPreference: 'newline' });
    expect(chunker.append(text)).toEqual([{ text: 'line one is here', reason: 'size' }]);
    expect(chunker.end('end')).toEqual([{ text: 'line two', reason: 'end' }]);
  });

  it('cuts early at no break below minChars', () => {
    const chunker = createBlockChunker({ minChars: 10, maxChars: 100 });
    expect(chunker.append('Hi.\n\nThere is more to say')).toEqual([]);
    expect(chunker.end('end')).toEqual([{ text: 'Hi.\n\nThere is more to say', reason: 'end' }]);
  });

  it('holds nothing in mode end until the end, even past maxChars', () => {
    const chunker = createBlockChunker({ minChars: 5, maxChars: 16, mode: 'end' });
    expect(chunker.append('alpha beta gamma delta epsilon')).toEqual([]);
    expect(chunker.holding).toBe(true);
    expect(chunker.end('flush').map((block) => block.reason)).toEqual(['flush', 'flush']);
    expect(chunker.holding).toBe(false);
  });

  it('flush keeps back a last line that could still open a fence', () => {
    const chunker = createBlockChunker({ minChars: 50, maxChars: 100 });
    chunker.append('Text\n\n``');
    expect(chunker.flush('idle')).toEqual([{ text: 'Text', reason: 'idle' }]);
    chunker.append('`js\ncode\n```');
    expect(chunker.end('end')).toEqual([{ text: '```js\ncode\n```', reason: 'end' }]);
  });

  it('flush keeps back a fence with no code yet, then closes and reopens one with code', () => {
    const chunker = createBlockChunker({ minChars: 50, maxChars: 100 });
    chunker.append('Intro\n\n```js\n');
    expect(chunker.flush('idle')).toEqual([{ text: 'Intro', reason: 'idle' }]);
    chunker.append('a();\n');
    expect(chunker.flush('idle')).toEqual([{ text: '```js\na();\n```', reason: 'idle' }]);
    chunker.append('b();\n```\nDone.');
    expect(chunker.end('end')).toEqual([{ text: '```js\nb();\n```\nDone.', reason: 'end' }]);
  });

  it('end() starts afresh: a fence left open does not leak into the next text', () => {
    const chunker = createBlockChunker({ minChars: 50, maxChars: 100 });
    chunker.append('```py\nx = 1');
    expect(chunker.end('flush')).toEqual([{ text: '```py\nx = 1\n```', reason: 'flush' }]);
    chunker.append('Plain text.');
    expect(chunker.end('end')).toEqual([{ text: 'Plain text.', reason: 'end' }]);
  });

  it('makes no block of whitespace', () => {
    const chunker = createBlockChunker({ minChars: 5, maxChars: 20 });
    expect(chunker.append('  \n\n \t')).toEqual([]);
    expect(chunker.holding).toBe(false);
    expect(chunker.flush('idle')).toEqual([]);
    expect(chunker.end('end')).toEqual([]);
  });
});

describe('createBlockChunker: options', () => {
  const invalid = (options: unknown) => {
    try {
      createBlockChunker(options as BlockChunkerOptions);
    } catch (error) {
      return error;
    }
    throw new Error('expected a throw');
  };

  it('rejects minChars above maxChars', () => {
    const error = invalid({ minChars: 30, maxChars: 20 });
    expect(error).toBeInstanceOf(LlmRxError);
    expect(error).toMatchObject({ code: 'invalid-options' });
    expect((error as Error).message).toContain('minChars must not exceed maxChars');
  });

  it('rejects a maxChars with no room for a reopened fence', () => {
    expect((invalid({ minChars: 1, maxChars: 10 }) as Error).message).toContain(
      'maxChars must be at least 16',
    );
  });

  it('names the function, the rule and the field of each bad option, exactly', () => {
    const messageOf = (options: unknown) => (invalid(options) as Error).message;
    const head = 'createBlockChunker: invalid options\n';
    expect(messageOf({ minChars: 30, maxChars: 20 })).toBe(
      `${head}✖ minChars must not exceed maxChars\n  → at minChars`,
    );
    expect(messageOf({ minChars: 1, maxChars: 15 })).toBe(
      `${head}✖ maxChars must be at least 16, to leave room for a fence closed at the end of a block and reopened in the next\n  → at maxChars`,
    );
    expect(messageOf({ minChars: 1, maxChars: 20, breakPreference: 'word' })).toBe(
      `${head}✖ Invalid option: expected one of "paragraph"|"newline"|"sentence"\n  → at breakPreference`,
    );
    expect(messageOf({ minChars: 1, maxChars: 20, mode: 'live' })).toBe(
      `${head}✖ Invalid option: expected one of "stream"|"end"\n  → at mode`,
    );
    expect(messageOf({ minChars: 1, maxChars: 20, flushOnParagraph: 'yes' })).toBe(
      `${head}✖ Invalid input: expected boolean, received string\n  → at flushOnParagraph`,
    );
  });

  it('accepts minChars equal to maxChars, and maxChars 16', () => {
    const chunker = createBlockChunker({ minChars: 16, maxChars: 16 });
    expect(chunker.append('sixteen chars ok and more')).toEqual([
      { text: 'sixteen chars ok', reason: 'size' },
    ]);
    expect(chunker.end('end')).toEqual([{ text: 'and more', reason: 'end' }]);
  });

  it('by default cuts early at the last paragraph break in reach, not the first', () => {
    const chunker = createBlockChunker({ minChars: 5, maxChars: 100 });
    expect(chunker.append('One para.\n\nTwo para.\n\nThree')).toEqual([
      { text: 'One para.\n\nTwo para.', reason: 'size' },
    ]);
    expect(chunker.end('end')).toEqual([{ text: 'Three', reason: 'end' }]);
  });

  it('rejects an unknown breakPreference', () => {
    expect(invalid({ minChars: 1, maxChars: 20, breakPreference: 'word' })).toMatchObject({
      code: 'invalid-options',
    });
  });
});
