import { createMarkdownScanner } from '../../src/chunking/markdownScanner';

/** Every position of a queue, read through its public range queries. */
function positions(queue: { firstInRange(low: number, high: number): number }): number[] {
  const found: number[] = [];
  for (let at = queue.firstInRange(0, 1e9); at >= 0; at = queue.firstInRange(at + 1, 1e9)) {
    found.push(at);
  }
  return found;
}

function scanned(text: string, deltas = [text]) {
  const scanner = createMarkdownScanner(100);
  for (const delta of deltas) scanner.scan(delta);
  scanner.finish();
  const { breaks } = scanner;
  return {
    paragraph: positions(breaks.paragraph),
    newline: positions(breaks.newline),
    sentence: positions(breaks.sentence),
    whitespace: positions(breaks.whitespace),
    fenceNewline: positions(breaks.fenceNewline),
    fenceWhitespace: positions(breaks.fenceWhitespace),
    tableNewline: positions(breaks.tableNewline),
    headingWhitespace: positions(breaks.headingWhitespace),
    headingEnd: positions(breaks.headingEnd),
    listMarker: positions(breaks.listMarker),
  };
}

describe('createMarkdownScanner', () => {
  it('records each break kind at the end of the text before it, once text follows', () => {
    //            0123456789012345678901
    const text = 'One two.\n\nThree\nfour ';
    expect(scanned(text)).toEqual({
      paragraph: [8],
      newline: [15],
      sentence: [],
      whitespace: [3],
      fenceNewline: [],
      fenceWhitespace: [],
      tableNewline: [],
      headingWhitespace: [],
      headingEnd: [],
      listMarker: [],
    });
  });

  it('tells sentence ends from abbreviations and list markers', () => {
    // A number ends a sentence mid-line ("in 1999. Then"), not as a line's first word.
    expect(scanned('Yes. e.g. no! 1999. fine').sentence).toEqual([4, 13, 19]);
    expect(scanned('1. item one').sentence).toEqual([]);
  });

  it('puts breaks inside fences and tables in their own queues; the opener line has none', () => {
    // No break between a header row and its delimiter row: they go out together.
    const text = '```js x\na b\nc\n```\n| r |\n|---|\n| t |\nend';
    const result = scanned(text);
    expect(result.fenceWhitespace).toEqual([9]);
    expect(result.fenceNewline).toEqual([11, 13]);
    expect(result.tableNewline).toEqual([29]);
    expect(result.newline).toEqual([17, 35]);
    expect(result.whitespace).toEqual([]);
    // Without a delimiter row there is no header: the first two rows may part.
    expect(scanned('| r |\n| s |\n| t |').tableNewline).toEqual([5, 11]);
  });

  it('holds back the breaks of a heading line and the gap after a list marker', () => {
    //                      0123456 7890123456789 0123456789
    const heading = scanned('Intro.\n## Head line\nBody text');
    expect(heading.newline).toEqual([6]);
    expect(heading.headingWhitespace).toEqual([9, 14]);
    expect(heading.headingEnd).toEqual([19]);
    expect(heading.whitespace).toEqual([24]);
    expect(scanned('#hashtag here\n####### seven').whitespace).toEqual([8, 21]);
    const list = scanned('- item one\n2. two\n12 apples\n*em* x');
    expect(list.listMarker).toEqual([1, 13]);
    expect(list.whitespace).toEqual([6, 20, 32]);
  });

  it.each([
    'e.g',
    'i.e',
    'cf',
    'vs',
    'mr',
    'mrs',
    'ms',
    'dr',
    'prof',
    'sr',
    'jr',
    'st',
    'approx',
    'incl',
    'fig',
    'al',
    'ca',
    'resp',
    'z.b',
    'd.h',
    'u.a',
    'bzw',
  ])('reads "%s." (any case) as an abbreviation, not a sentence end', (abbreviation) => {
    const title = abbreviation[0].toUpperCase() + abbreviation.slice(1);
    for (const word of [abbreviation, title, abbreviation.toUpperCase()]) {
      const text = `Yes. ${word}. more`;
      expect(scanned(text)).toMatchObject({ sentence: [4], whitespace: [6 + word.length] });
    }
    // The same letters with one more before the dot are a word that ends a sentence.
    expect(scanned(`Yes. ${abbreviation}x. more`).sentence).toEqual([4, 7 + abbreviation.length]);
  });

  it('reads "?" as a sentence end, and a word with a sign inside as no abbreviation', () => {
    expect(scanned('Why? Then').sentence).toEqual([4]);
    // Signs next to the letters in the character table are no letters and no dots.
    expect(scanned('Yes e{g. e[g. e-g. e0g. x').sentence).toEqual([8, 13, 18, 23]);
  });

  it('reads a word longer than six letters as a word, whatever it starts with', () => {
    expect(scanned('About approximately. Then').sentence).toEqual([20]);
    expect(scanned('Done approxim. Then').sentence).toEqual([14]);
  });

  it('reads a fullwidth sentence end followed by text as a sentence break without a space', () => {
    expect(scanned('第一句。第二句！x').sentence).toEqual([4, 8]);
    expect(scanned('他说「好。」然后').sentence).toEqual([6]);
    expect(scanned('半角．全角？是').sentence).toEqual([3, 6]);
    expect(scanned('end.Next').sentence).toEqual([]);
  });

  it('does not read an indented ``` as a fence', () => {
    expect(scanned('    ```\nx y').whitespace).toEqual([9]);
  });

  it('finds the same breaks however the text is split', () => {
    const text =
      'Para one. Two e.g. three.\n\n```py\nx = 1\n\ny\n```\n| a |\n| b |\nend of it\n' +
      '## A head\n- item 1) x\n##nope\n第一句。第二句」x';
    const whole = scanned(text);
    for (let cut = 1; cut < text.length; cut++) {
      expect(scanned(text, [text.slice(0, cut), text.slice(cut)])).toEqual(whole);
    }
  });
});
