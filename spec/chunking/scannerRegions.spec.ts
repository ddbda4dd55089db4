// The regions the markdown scanner reports (lineRegions.ts, through MarkdownScanner): a region
// contains `position` when start ≤ position < end, a last line that may still open a fence is a
// region from its first character, and blank lines before the first text make no break.
import { createBlockChunker } from '../../src/chunking/blockChunker';
import { createMarkdownScanner } from '../../src/chunking/markdownScanner';

/** [kind, start, end] of the region containing each position, or null. */
function regionsAt(text: string, positions: number[], finish = true) {
  const scanner = createMarkdownScanner(100);
  scanner.scan(text);
  if (finish) scanner.finish();
  return positions.map((position) => {
    const region = scanner.regionContaining(position, 0);
    return region ? [region.kind, region.start, region.end] : null;
  });
}

describe('createMarkdownScanner: regionContaining', () => {
  it('contains a fence from its opener’s first character to its closer’s last', () => {
    // The line break before the opener at 5, the closer's last backtick at 19, its line break 20.
    const text = 'Intro\n```js\ncode\n```\nafter';
    expect(regionsAt(text, [5, 6, 19, 20])).toEqual([
      null,
      ['fence', 6, 20],
      ['fence', 6, 20],
      null,
    ]);
  });

  it('makes a last line that may still open a fence a region from its first character', () => {
    expect(regionsAt('abc\n```js', [3, 4, 8], false)).toEqual([
      null,
      ['marker-line', 4, Infinity],
      ['marker-line', 4, Infinity],
    ]);
  });

  it('ends a table at its last row’s end, with or without a line break after it', () => {
    const table = '| a | b |\n|---|---|\n| 1 | 2 |';
    expect(regionsAt(table, [28, 29])).toEqual([['table', 0, 29], null]);
    expect(regionsAt(`${table}\n`, [28, 29])).toEqual([['table', 0, 29], null]);
  });

  it('gives a heading after leading blank lines no line break before it', () => {
    const scanner = createMarkdownScanner(100);
    scanner.scan('    \n    \n\n## Head words');
    scanner.finish();
    expect(scanner.breaks.paragraph.firstInRange(0, 100)).toBe(-1);
    expect(scanner.regionContaining(12, 0)).toMatchObject({
      kind: 'heading',
      start: 11,
      breakBefore: -1,
    });
  });
});

describe('createBlockChunker: a table of one row at the end', () => {
  it('ends after the row and a blank line, in one delta or two', () => {
    const whole = createBlockChunker({ minChars: 0, maxChars: 16, mode: 'end' });
    expect([...whole.append('| a |\n\n'), ...whole.end('end')]).toEqual([
      { text: '| a |', reason: 'end' },
    ]);
    const streamed = createBlockChunker({ minChars: 0, maxChars: 16 });
    expect([
      ...streamed.append('| a |\n'),
      ...streamed.append('\n'),
      ...streamed.end('end'),
    ]).toEqual([{ text: '| a |', reason: 'size' }]);
  });
});
