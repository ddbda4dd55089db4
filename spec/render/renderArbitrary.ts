// Random markdown for the render properties, built from the pieces the exact specs use: bold,
// nested emphasis, inline code with `*_<&`, links, bare URLs, strikethrough, HTML tags, headings,
// lists, blockquotes, fences with a language and blank lines (the last one sometimes unclosed),
// tables with CJK and emoji, unclosed `**`, long words, lone surrogates.

import fc from 'fast-check';

const word = fc.constantFrom(
  'alpha',
  'beta',
  'gamma',
  'the',
  'a',
  'end.',
  'Wow!',
  '😀',
  '👍🏽',
  '漢字',
  'テキスト',
  'a&b',
  '<b>tag</b>',
  '1 < 2',
  'x > y',
  '&amp;',
  'snake_case',
  '2*3',
  'C#',
  '\ud800',
  'https://example.com/a_b?q=1',
);
const longWord = fc.string({
  unit: fc.constantFrom('a', 'x', '漢', '😀', '-', '_'),
  minLength: 30,
  maxLength: 400,
});
const words = (max: number) =>
  fc
    .array(fc.oneof({ weight: 15, arbitrary: word }, { weight: 1, arbitrary: longWord }), {
      minLength: 1,
      maxLength: max,
    })
    .map((list) => list.join(' '));

const span: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: words(6) },
  { weight: 1, arbitrary: words(4).map((text) => `**${text}**`) },
  { weight: 1, arbitrary: words(4).map((text) => `*${text}*`) },
  { weight: 1, arbitrary: fc.tuple(words(3), words(2)).map(([a, b]) => `**${a} *${b}* ${a}**`) },
  { weight: 1, arbitrary: words(3).map((text) => `~~${text}~~`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('`a*_<&`', '`x`', '``a`b``', '`` ` ``', '`漢😀`', '`if (a < b) {}`'),
  },
  { weight: 1, arbitrary: words(3).map((text) => `[${text}](https://example.com/p_(1))`) },
  { weight: 1, arbitrary: words(2).map((text) => `[**${text}**](https://t.me/x)`) },
  { weight: 1, arbitrary: fc.constantFrom('[rel](foo/bar)', '![alt 😀](https://i.example/a.png)') },
  { weight: 1, arbitrary: fc.constantFrom('**unclosed', '_open', '<div>', '\\*not em\\*') },
);
const line = fc.array(span, { minLength: 1, maxLength: 5 }).map((spans) => spans.join(' '));
const paragraph = fc.array(line, { minLength: 1, maxLength: 4 }).map((lines) => lines.join('\n'));
const heading = fc
  .tuple(fc.integer({ min: 1, max: 6 }), line)
  .map(([level, text]) => `${'#'.repeat(level)} ${text}`);

const list = fc
  .tuple(
    fc.boolean(),
    fc.array(fc.tuple(line, fc.option(fc.array(line, { minLength: 1, maxLength: 3 }))), {
      minLength: 1,
      maxLength: 5,
    }),
  )
  .map(([ordered, items]) =>
    items
      .map(([item, nested], index) => {
        const head = (ordered ? `${index + 1}. ` : '- ') + item;
        const indent = ordered ? '   ' : '  ';
        return nested ? [head, ...nested.map((sub) => `${indent}- ${sub}`)].join('\n') : head;
      })
      .join('\n'),
  );

const quote = fc
  .array(fc.oneof(line, list), { minLength: 1, maxLength: 3 })
  .map((parts) => parts.join('\n\n').replace(/^/gm, '> '));

const codeLine = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('', '  ', '    '),
      fc.array(
        fc.constantFrom('let', 'x', '=', '1;', 'a < b', '&&', '**', '_', '```', '`', '😀', '漢字'),
        { minLength: 1, maxLength: 8 },
      ),
    )
    .map(([indent, tokens]) => indent + tokens.join(' ')),
  fc.constant(''),
  longWord,
);
const fence = fc
  .record({
    marker: fc.constantFrom('```', '````', '~~~'),
    language: fc.constantFrom('js', 'bash', 'typescript', 'python'),
    first: codeLine.filter((code) => code.trim() !== '' && !code.includes('```')),
    lines: fc.array(codeLine, { maxLength: 30 }),
  })
  .map(({ marker, language, first, lines }) => ({
    open: `${marker}${language}\n${[first, ...lines].filter((l) => !l.includes(marker)).join('\n')}`,
    close: `\n${marker}`,
  }));

const cell = fc.constantFrom(
  'a',
  'bb',
  '1',
  '漢字',
  '😀',
  '👍🏽 ok',
  'long cell text',
  '**b**',
  '`c`',
);
const table = fc
  .tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 8 }))
  .chain(([columns, rows]) =>
    fc.tuple(
      fc.array(cell, { minLength: columns, maxLength: columns }),
      fc.array(fc.constantFrom('---', ':--', '--:', ':-:'), {
        minLength: columns,
        maxLength: columns,
      }),
      fc.array(fc.array(cell, { minLength: columns, maxLength: columns }), { maxLength: rows }),
    ),
  )
  .map(([header, rule, rows]) =>
    [header, rule, ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n'),
  );

/** One markdown block (as `channel()` would cut): a paragraph, heading, list, quote, fence, table or rule. */
export const markdownBlock = fc.oneof(
  { weight: 5, arbitrary: paragraph },
  { weight: 1, arbitrary: heading },
  { weight: 2, arbitrary: list },
  { weight: 1, arbitrary: quote },
  { weight: 2, arbitrary: fence.map(({ open, close }) => open + close) },
  { weight: 1, arbitrary: table },
  { weight: 1, arbitrary: fc.constant('---') },
);

/** A markdown document; one in four ends inside a fence that is never closed. */
export const renderMarkdownArbitrary = fc
  .tuple(fc.array(markdownBlock, { minLength: 1, maxLength: 12 }), fc.option(fence, { freq: 3 }))
  .map(([blocks, unclosed]) => blocks.join('\n\n') + (unclosed ? '\n\n' + unclosed.open : ''));
