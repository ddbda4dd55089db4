// Random markdown for the chunker properties: paragraphs, lists, headings, fences (blank lines
// inside, sometimes unclosed), tables (with and without a header), indented code, long words,
// emoji and CJK (sentences with and without spaces); and random deltas.

import fc from 'fast-check';

const plainWord = fc.constantFrom(
  'alpha',
  'beta',
  'gamma',
  'delta',
  'word',
  'the',
  'a',
  'e.g.',
  'i.e.',
  'Mr.',
  'end.',
  'Wow!',
  'Why?',
  '(done.)',
  '"quoted."',
  '1.',
  '😀',
  '👍🏽',
  '漢字',
  'テキスト',
  '中文句子。',
  '`code`',
  '*em*',
);
const longWord = fc.string({
  unit: fc.constantFrom('a', 'b', 'x', '漢', '😀', '-'),
  minLength: 20,
  maxLength: 90,
});
const word = fc.oneof({ weight: 12, arbitrary: plainWord }, { weight: 1, arbitrary: longWord });

const line = fc.array(word, { minLength: 1, maxLength: 14 }).map((words) => words.join(' '));

const paragraph = fc.array(line, { minLength: 1, maxLength: 4 }).map((lines) => lines.join('\n'));

const list = fc
  .tuple(fc.boolean(), fc.array(line, { minLength: 1, maxLength: 5 }))
  .map(([ordered, items]) =>
    items.map((item, index) => (ordered ? `${index + 1}. ` : '- ') + item).join('\n'),
  );

const codeLine = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('', '  ', '    '),
      fc.array(fc.constantFrom('let', 'x', '=', '1;', 'foo()', 'return', '😀', '漢字', '{', '}'), {
        minLength: 1,
        maxLength: 8,
      }),
    )
    .map(([indent, tokens]) => indent + tokens.join(' ')),
  fc.constant(''),
);

const fence = fc
  .record({
    marker: fc.constantFrom('```', '````', '~~~'),
    info: fc.constantFrom('', 'js', 'bash', 'typescript', ' python'),
    // The first code line is never blank: an input's own empty code block is not what is tested.
    first: codeLine.filter((code) => code.trim() !== ''),
    lines: fc.array(codeLine, { maxLength: 13 }),
  })
  .map(({ marker, info, first, lines }) => ({
    open: `${marker}${info}\n${[first, ...lines].join('\n')}`,
    closer: `\n${marker}`,
  }));

const table = fc
  .array(
    fc
      .array(fc.constantFrom('a', 'bb', '1', '漢', '😀', 'long cell text'), {
        minLength: 1,
        maxLength: 4,
      })
      .map((cells) => `| ${cells.join(' | ')} |`),
    { minLength: 1, maxLength: 6 },
  )
  .map((rows) => rows.join('\n'));

const cells = fc
  .array(fc.constantFrom('a', 'bb', '1', '漢', '😀', 'long cell text'), {
    minLength: 1,
    maxLength: 4,
  })
  .map((items) => `| ${items.join(' | ')} |`);

/** A GFM table: header row, delimiter row, body rows. */
const gfmTable = fc
  .tuple(
    fc.integer({ min: 1, max: 4 }),
    fc.constantFrom('---', ':--', '--:', ':-:', '-'),
    fc.array(cells, { minLength: 1, maxLength: 12 }),
  )
  .map(([columns, dashes, rows]) =>
    [`| ${'h | '.repeat(columns)}`.trimEnd(), `|${` ${dashes} |`.repeat(columns)}`, ...rows].join(
      '\n',
    ),
  );

/** An ATX heading (short: it always fits a block) with its section after it. */
const heading = fc
  .tuple(
    fc.integer({ min: 1, max: 6 }),
    fc.array(plainWord, { minLength: 1, maxLength: 3 }),
    fc.constantFrom('\n', '\n\n'),
  )
  .map(([level, words, gap]) => `${'#'.repeat(level)} ${words.join(' ')}${gap}`);

/** Chinese sentences without spaces between them. */
const cjkParagraph = fc
  .array(
    fc.tuple(
      fc.constantFrom('这是一个句子', '流式输出', '文本', '会被切成小块发送给用户'),
      fc.constantFrom('。', '！', '？', '．', '。」'),
    ),
    { minLength: 1, maxLength: 12 },
  )
  .map((sentences) => sentences.map(([text, end]) => text + end).join(''));

const indentedCode = fc
  .array(codeLine, { minLength: 1, maxLength: 4 })
  .map((lines) => lines.map((code) => `    ${code}`).join('\n'));

const part = fc.oneof(
  { weight: 5, arbitrary: paragraph },
  { weight: 2, arbitrary: list },
  { weight: 3, arbitrary: fence.map(({ open, closer }) => open + closer) },
  { weight: 2, arbitrary: table },
  { weight: 1, arbitrary: indentedCode },
  { weight: 2, arbitrary: gfmTable },
  { weight: 1, arbitrary: cjkParagraph },
);
/** A part, after a heading sometimes. */
const section = fc
  .tuple(fc.option(heading, { freq: 3 }), part)
  .map(([title, body]) => (title ?? '') + body);
const gap = fc.constantFrom('\n\n', '\n\n', '\n', '\n\n\n', ' \n\n', '\n \n');

/** A markdown document; one in four ends inside a fence that is never closed. */
export const markdown = fc
  .tuple(
    section,
    fc.array(fc.tuple(gap, section), { maxLength: 10 }),
    fc.option(fc.tuple(gap, fence), { freq: 3 }),
  )
  .map(
    ([first, rest, unclosed]) =>
      first +
      rest.map(([between, next]) => between + next).join('') +
      (unclosed ? unclosed[0] + unclosed[1].open : ''),
  );

/** Delta sizes; `splitText` cycles through them. */
export const deltaSizes = fc.array(fc.integer({ min: 1, max: 12 }), {
  minLength: 1,
  maxLength: 16,
});

/** `text` cut into deltas of the given sizes, in turn (a surrogate pair may be split). */
export function splitText(text: string, sizes: number[]): string[] {
  const deltas: string[] = [];
  for (let at = 0, turn = 0; at < text.length; turn++) {
    const size = sizes[turn % sizes.length];
    deltas.push(text.slice(at, at + size));
    at += size;
  }
  return deltas;
}

/** Chunking options with minChars ≤ maxChars, maxChars in [smallest, largest]. */
export const chunkingOptions = (smallest: number, largest: number) =>
  fc
    .record({
      maxChars: fc.integer({ min: smallest, max: largest }),
      minShare: fc.double({ min: 0, max: 1, noNaN: true }),
      breakPreference: fc.constantFrom('paragraph', 'newline', 'sentence') as fc.Arbitrary<
        'paragraph' | 'newline' | 'sentence'
      >,
      flushOnParagraph: fc.boolean(),
    })
    .map(({ maxChars, minShare, ...rest }) => ({
      ...rest,
      maxChars,
      minChars: Math.floor(maxChars * minShare),
    }));
