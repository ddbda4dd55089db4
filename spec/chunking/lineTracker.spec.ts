// The breaks the markdown scanner records by line kind (markdownScanner.ts, lineTracker.ts):
// which characters separate words, what indentation makes code, which marker lines open a
// fence, and where a flush stops before a line that may still become one.
import { createBlockChunker } from '../../src/chunking/blockChunker';
import { createMarkdownScanner } from '../../src/chunking/markdownScanner';

/** The non-empty break queues of `text`, read through their public range queries. */
function breaksOf(text: string): Record<string, number[]> {
  const scanner = createMarkdownScanner(100);
  scanner.scan(text);
  scanner.finish();
  const found: Record<string, number[]> = {};
  for (const [kind, queue] of Object.entries(scanner.breaks)) {
    const positions: number[] = [];
    for (let at = queue.firstInRange(0, 1e9); at >= 0; at = queue.firstInRange(at + 1, 1e9)) {
      positions.push(at);
    }
    if (positions.length > 0) found[kind] = positions;
  }
  return found;
}

/** Everything `append(text)` and then an idle flush send, the flushed texts marked. */
function flushed(text: string): string[] {
  const chunker = createBlockChunker({ minChars: 50, maxChars: 100 });
  const sent = chunker.append(text).map((block) => block.text);
  return [...sent, ...chunker.flush('idle').map((block) => `idle: ${block.text}`)];
}

describe('createMarkdownScanner: words and sentences', () => {
  it('separates words at a vertical tab, a form feed and a carriage return, one break a gap', () => {
    expect(breaksOf('a\vb\fc\rd e')).toEqual({ whitespace: [1, 3, 5, 7] });
    expect(breaksOf('a  b')).toEqual({ whitespace: [1] });
  });

  it('ends a sentence at a lone dot, not after ten digits first on a line', () => {
    expect(breaksOf('. Next')).toEqual({ sentence: [1] });
    expect(breaksOf('1234567890. a b')).toEqual({ whitespace: [11, 13] });
  });

  it('ends no sentence at a lone quote or a dot inside a word; "!" after an abbreviation does', () => {
    expect(breaksOf('Yes " no')).toEqual({ whitespace: [3, 5] });
    expect(breaksOf('v1.2 x')).toEqual({ whitespace: [4] });
    expect(breaksOf('Yes vs! Then')).toEqual({ sentence: [7], whitespace: [3] });
  });
});

describe('createMarkdownScanner: line kinds', () => {
  it('counts a tab as four columns of indentation: no fence behind it, one behind two spaces', () => {
    expect(breaksOf('\t```\nx y')).toEqual({ newline: [4], whitespace: [6] });
    expect(breaksOf('  ```\nx y\n```')).toEqual({ fenceNewline: [9], fenceWhitespace: [7] });
  });

  it('keeps the words of an opener line out of every queue, the next heading’s included', () => {
    expect(breaksOf('```js x\ncode\n```\n## Head\nbody')).toEqual({
      newline: [16],
      fenceNewline: [12],
      headingWhitespace: [19],
      headingEnd: [24],
    });
  });

  it('reads a short marker line inside a fence as code, not as its closer', () => {
    expect(breaksOf('```\ncode\n``\nmore\n```\nend')).toEqual({
      newline: [20],
      fenceNewline: [8, 11, 16],
    });
    expect(breaksOf('``\nb c')).toEqual({ newline: [2], whitespace: [4] });
  });

  it('reads a list marker inside a fence as code', () => {
    expect(breaksOf('```\n- x\n```')).toEqual({ fenceNewline: [7], fenceWhitespace: [5] });
  });

  it('records no break at a line end the text ends with', () => {
    expect(breaksOf('```\na\nb\n')).toEqual({ fenceNewline: [5] });
    expect(breaksOf('a b\n')).toEqual({ whitespace: [1] });
  });

  it('keeps the words before a backtick in a backtick info string as text', () => {
    expect(breaksOf('``` a. b`c d')).toEqual({ sentence: [6], whitespace: [3, 10] });
  });

  it('reads ## alone as an empty heading', () => {
    expect(breaksOf('a\n##\nb')).toEqual({ newline: [1], headingEnd: [4] });
  });
});

describe('createBlockChunker: a flush and the last line', () => {
  it('sends a last line of words, and marker lines that cannot open a fence', () => {
    expect(flushed('Text\n\nmore')).toEqual(['idle: Text\n\nmore']);
    expect(flushed('Text\n\n``x')).toEqual(['idle: Text\n\n``x']);
    expect(flushed('Text\n\n```js`x')).toEqual(['idle: Text\n\n```js`x']);
  });

  it('reopens a tilde fence and an info string with a space as they were written', () => {
    const code = 'ab cd ef gh ij kl mn';
    const blocksOf = (text: string, maxChars: number) => {
      const chunker = createBlockChunker({ minChars: 1, maxChars, mode: 'end' });
      chunker.append(text);
      return chunker.end('end').map((block) => block.text);
    };
    expect(blocksOf(`~~~js\n${code}\n~~~`, 16)).toEqual([
      '~~~js\nab cd\n~~~',
      '~~~\nef gh ij\n~~~',
      '~~~\nkl mn\n~~~',
    ]);
    expect(blocksOf(`\`\`\`js x\n${code}\n\`\`\``, 20)).toEqual([
      '```js x\nab cd ef\n```',
      '```js x\ngh ij kl\n```',
      '```js x\nmn\n```',
    ]);
  });
});
