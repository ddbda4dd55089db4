// How the block chunker cuts the text it holds (heldText.ts): whitespace skipped at a block's
// start, blank cuts that make no block, a table's header repeated or not, the model text each
// block records (its origin, which toMessageEdits and cutMessage read), and all of it the same
// after the first thousand characters have gone out as before.
import { blockOriginOf, type BlockOrigin } from '../../src/chunking/blockOrigin';
import { createBlockChunker, type BlockChunkerOptions } from '../../src/chunking/blockChunker';
import type { ChunkBlock } from '../../src/chunking/chunkingOptions';
import { cutMessage } from '../../src/chunking/messageCut';

function blocksOf(options: BlockChunkerOptions, text: string): ChunkBlock[] {
  const chunker = createBlockChunker(options);
  return [...chunker.append(text), ...chunker.end('end')];
}
const textsOf = (options: BlockChunkerOptions, text: string) =>
  blocksOf(options, text).map((block) => block.text);
const originOf = (block: ChunkBlock): BlockOrigin => blockOriginOf(block)!;

/** The model text the blocks' origins stand for: each body, joined by the lead before it. */
function rejoined(blocks: ChunkBlock[]): string {
  return blocks.map((block) => originOf(block).lead + originOf(block).body).join('');
}

const tight: BlockChunkerOptions = { minChars: 1, maxChars: 16, mode: 'end' };

describe('createBlockChunker: whitespace at a block’s start', () => {
  it('skips a vertical tab, a form feed and a carriage return at a cut like a space', () => {
    const word = (letter: string) => letter.repeat(15);
    const text = `${word('a')}\v${word('b')}\f${word('c')}\r${word('d')}`;
    expect(textsOf(tight, text)).toEqual([word('a'), word('b'), word('c'), word('d')]);
  });

  it('skips the leading whitespace of the next text after end()', () => {
    const chunker = createBlockChunker({ minChars: 5, maxChars: 20 });
    chunker.append('one');
    expect(chunker.end('end')).toEqual([{ text: 'one', reason: 'end' }]);
    chunker.append('   two');
    expect(chunker.end('end')).toEqual([{ text: 'two', reason: 'end' }]);
  });

  it('makes no block of an indentation longer than a block, and records it as the lead', () => {
    const text = `a\n${' '.repeat(20)}x`;
    const blocks = blocksOf(tight, text);
    expect(blocks.map((block) => block.text)).toEqual(['a', 'x']);
    expect(originOf(blocks[1]).lead).toBe(`\n${' '.repeat(20)}`);
    expect(rejoined(blocks)).toBe(text);
  });

  it('skips the closer a reopened fence’s last block stood for, and the blank line after it', () => {
    const text = 'alpha\n\n```\nfoo()\n\n\n\n\n```\n\nafter';
    const blocks = blocksOf({ minChars: 0, maxChars: 16, mode: 'end' }, text);
    expect(blocks.map((block) => block.text)).toEqual(['alpha', '```\nfoo()\n```', 'after']);
    expect(originOf(blocks[2]).lead).toBe('\n\n\n\n\n```\n\n');
    expect(rejoined(blocks)).toBe(text);
  });
});

describe('createBlockChunker: the origin of each block', () => {
  it('the first block of a part continues nothing; the next ones continue it', () => {
    const chunker = createBlockChunker({ minChars: 5, maxChars: 20, mode: 'end' });
    for (const part of ['First part here.\n\nAnd more of it.', 'Second part.\n\nIts end.']) {
      chunker.append(part);
      const blocks = chunker.end('end');
      expect(blocks.map(originOf)).toEqual([
        {
          continues: false,
          lead: '',
          body: part.slice(0, part.indexOf('\n')),
          prefix: '',
          closer: '',
        },
        {
          continues: true,
          lead: '\n\n',
          body: part.slice(part.indexOf('\n') + 2),
          prefix: '',
          closer: '',
        },
      ]);
    }
  });

  it('gives back the model text, block by block, thousands of characters in', () => {
    const words = Array.from({ length: 900 }, (_, index) => `w${index % 97}`).join(' ');
    const text = `${words}\n\n\`\`\`js\n${'x();\n'.repeat(300)}\`\`\`\n\n${words}`;
    const blocks = blocksOf({ minChars: 10, maxChars: 40, mode: 'end' }, text);
    expect(blocks.length).toBeGreaterThan(200);
    expect(rejoined(blocks)).toBe(text);
  });
});

describe('createBlockChunker: cuts thousands of characters in', () => {
  // 70 blocks of 16 characters: over a thousand sent before each tail.
  const sent = 'abcdefghijklmnop\n\n'.repeat(70);
  const options: BlockChunkerOptions = { minChars: 16, maxChars: 16, mode: 'end' };

  it.each([
    [
      'a heading that would end a block, sent with its section',
      `ab\n## Heading\n\n\n${'x'.repeat(30)}`,
    ],
    ['a hard cut that would split a surrogate pair', `x${'😀'.repeat(10)}`],
    ['an indentation longer than a block', `a\n${' '.repeat(20)}x`],
  ])('cuts %s as at the start', (_, tail) => {
    const alone = blocksOf(options, tail);
    const after = blocksOf(options, sent + tail);
    expect(after.slice(0, 70).map((block) => block.text)).toEqual(
      Array.from({ length: 70 }, () => 'abcdefghijklmnop'),
    );
    expect(after.slice(70).map((block) => block.text)).toEqual(alone.map((block) => block.text));
    expect(after.slice(71).map(originOf)).toEqual(alone.slice(1).map(originOf));
    expect(rejoined(after)).toBe(sent + tail);
  });

  it('keeps the text after a cut that made no block, a thousand characters on', () => {
    const model = `a\n${' '.repeat(1100)}\n${' '.repeat(20)}tail`;
    const blocks = blocksOf({ minChars: 8, maxChars: 16, mode: 'end' }, model);
    expect(blocks.map((block) => block.text)).toEqual(['a', 'tail']);
    expect(rejoined(blocks)).toBe(model);
    expect(cutMessage(model, 16)).toMatchObject({ text: 'a', rest: 'tail', inFence: false });
  });
});

describe('createBlockChunker: the header rows a table’s continuation starts with', () => {
  const rows = ['a', 'b', 'c', 'd', 'e', 'f'].map((cell, index) => `| ${cell} | ${index} |`);
  const options: BlockChunkerOptions = { minChars: 30, maxChars: 40, mode: 'end' };
  const tableOf = (header: string, delimiter: string) => [header, delimiter, ...rows].join('\n');

  it('repeats the header row without its trailing spaces', () => {
    expect(textsOf(options, tableOf('| k | v |   ', '|---|---|'))).toEqual([
      `| k | v |   \n|---|---|\n${rows[0]}`,
      `| k | v |\n|---|---|\n${rows[1]}\n${rows[2]}`,
      `| k | v |\n|---|---|\n${rows[3]}\n${rows[4]}`,
      `| k | v |\n|---|---|\n${rows[5]}`,
    ]);
  });

  it('repeats a delimiter row without its closing pipe', () => {
    expect(textsOf(options, tableOf('| k | v |', '|---|---'))).toEqual([
      `| k | v |\n|---|---\n${rows[0]}\n${rows[1]}`,
      `| k | v |\n|---|---\n${rows[2]}\n${rows[3]}`,
      `| k | v |\n|---|---\n${rows[4]}\n${rows[5]}`,
    ]);
  });

  it.each(['| | --- |', '|---| |', '|---|:'])(
    'repeats no header when the second row %s is no delimiter row (a cell without a dash)',
    (delimiter) => {
      expect(textsOf(options, tableOf('| k | v |', delimiter))).toEqual([
        `| k | v |\n${delimiter}\n${rows[0]}\n${rows[1]}`,
        rows.slice(2).join('\n'),
      ]);
    },
  );

  it('gives no header to the text after a table that a flush sent whole', () => {
    const chunker = createBlockChunker({ minChars: 100, maxChars: 200 });
    expect(chunker.append('| k | v |\n|---|---|\n| a | 1 |\n')).toEqual([]);
    expect(chunker.flush('idle')).toEqual([
      { text: '| k | v |\n|---|---|\n| a | 1 |', reason: 'idle' },
    ]);
    expect(chunker.append('\nAfter.')).toEqual([]);
    expect(chunker.end('end')).toEqual([{ text: 'After.', reason: 'end' }]);
  });
});

describe('createBlockChunker: the text after a flushed fence', () => {
  it('starts clean when the fence’s closer line arrives after the flush closed it', () => {
    const chunker = createBlockChunker({ minChars: 0, maxChars: 40 });
    expect(chunker.append('```\n')).toEqual([]);
    expect(chunker.append('code\n```')).toEqual([]);
    expect(chunker.flush('idle')).toEqual([{ text: '```\ncode\n```', reason: 'idle' }]);
    expect(chunker.append('\n')).toEqual([]);
    expect(chunker.append('Next')).toEqual([]);
    expect(chunker.end('end')).toEqual([{ text: 'Next', reason: 'end' }]);
  });
});
