import { createBlockChunker, type BlockChunkerOptions } from '../../src/chunking/blockChunker';

// The reader-facing rules of issue 14 on exact cases; the properties (blockChunker.property)
// check them on random markdown, the marbles (marbles/buffer-chunk) through bufferChunk.

function blocksOf(options: BlockChunkerOptions, deltas: string[], flushAfter = -1): string[] {
  const chunker = createBlockChunker(options);
  const texts: string[] = [];
  deltas.forEach((delta, index) => {
    for (const block of chunker.append(delta)) texts.push(block.text);
    if (index === flushAfter)
      for (const block of chunker.flush('idle')) texts.push(`idle: ${block.text}`);
  });
  for (const block of chunker.end('end')) texts.push(block.text);
  return texts;
}
const characters = (text: string) => text.split('');

describe('createBlockChunker: tables', () => {
  const rows = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map(
    (cell, index) => `| ${cell} | ${index} |`,
  );
  const table = ['| k | v |', '|---|---|', ...rows].join('\n');

  it('starts every continuation block with the header and delimiter rows, inside maxChars', () => {
    const header = '| k | v |\n|---|---|';
    const expected = [
      `${header}\n${rows[0]}\n${rows[1]}`,
      `${header}\n${rows[2]}\n${rows[3]}`,
      `${header}\n${rows[4]}\n${rows[5]}`,
      `${header}\n${rows[6]}\n${rows[7]}`,
    ];
    for (const mode of ['end', 'stream'] as const) {
      const options = { minChars: 30, maxChars: 40, mode };
      expect(blocksOf(options, [table])).toEqual(expected);
      expect(blocksOf(options, characters(table))).toEqual(expected);
    }
  });

  it('repeats no header for rows without a delimiter row (not a GFM table)', () => {
    const bare = rows.slice(0, 5).join('\n');
    expect(blocksOf({ minChars: 30, maxChars: 40 }, [bare])).toEqual([
      rows.slice(0, 4).join('\n'),
      rows[4],
    ]);
  });

  it('after an idle flush inside a table, the rest starts with the header too', () => {
    const deltas = [table.slice(0, 40), table.slice(40)];
    expect(blocksOf({ minChars: 100, maxChars: 200 }, deltas, 0)).toEqual([
      `idle: | k | v |\n|---|---|\n${rows[0]}\n${rows[1]}`,
      `| k | v |\n|---|---|\n${rows.slice(2).join('\n')}`,
    ]);
  });
});

describe('createBlockChunker: headings and list markers', () => {
  it('an idle flush holds back a trailing heading, also after blank lines or before a fence', () => {
    const options = { minChars: 100, maxChars: 200 };
    expect(blocksOf(options, ['Intro.\n\n## Next\n\n', 'Body.'], 0)).toEqual([
      'idle: Intro.',
      '## Next\n\nBody.',
    ]);
    expect(blocksOf(options, ['Intro.\n## Code\n```js\n', 'x();\n```'], 0)).toEqual([
      'idle: Intro.',
      '## Code\n```js\nx();\n```',
    ]);
  });

  it('an idle flush holds back a list marker that has no item text yet', () => {
    expect(blocksOf({ minChars: 100, maxChars: 200 }, ['- one\n- ', 'two'], 0)).toEqual([
      'idle: - one',
      '- two',
    ]);
  });

  it('holds back no list-marker-like line in code: a flush never leaves an empty code block', () => {
    expect(blocksOf({ minChars: 100, maxChars: 200 }, ['```\n    1', ';\n```'], 0)).toEqual([
      'idle: ```\n    1\n```',
      '```\n;\n```',
    ]);
  });

  it('a heading that cannot share a block with the table after it goes alone', () => {
    const text = '# The results of it all\n| name | value |\n|---|---|\n| a | 1 |';
    expect(blocksOf({ minChars: 10, maxChars: 40 }, [text])).toEqual([
      '# The results of it all',
      '| name | value |\n|---|---|\n| a | 1 |',
    ]);
  });

  it('a heading longer than a block is cut between its words', () => {
    const text = '## A heading far too long for one small block\nBody text.';
    expect(blocksOf({ minChars: 10, maxChars: 30 }, [text])).toEqual([
      '## A heading far too long for',
      'one small block\nBody text.',
    ]);
  });
});

describe('createBlockChunker: CJK sentences', () => {
  it('keeps closing brackets with the fullwidth sentence end they follow', () => {
    const text = '他说：「今天天气很好。」然后我们就出门散步了。';
    expect(blocksOf({ minChars: 5, maxChars: 16 }, [text])).toEqual([
      '他说：「今天天气很好。」',
      '然后我们就出门散步了。',
    ]);
  });
});
