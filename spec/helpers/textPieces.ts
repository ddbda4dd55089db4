import fc from 'fast-check';

/** Markdown-ish pieces: fences, inline code, indentation, tags, emphasis, multi-byte. */
export const MARKDOWN_PIECES = [
  'a',
  'word',
  ' ',
  '   ',
  '    ',
  '\n',
  '\t',
  '`',
  '``',
  '```',
  '~',
  '~~~',
  '<',
  '>',
  '/',
  '<think>',
  '</think>',
  '<final>',
  '<thi',
  '<Thought x="1">',
  'x`y',
  'é',
  '🙂',
];

/** Pieces around silent tokens: parts of tokens, emphasis, whitespace, multi-byte. */
export const SILENT_PIECES = [
  'a',
  'word',
  'no',
  'No_',
  'reply',
  'NO_REPLY',
  'skip',
  '_',
  '*',
  '**',
  '~',
  ' ',
  '\n',
  '.',
  'announce',
  'REPLY_SKIP',
  'é',
  '🙂',
  '\u00a0',
];

/** Random text from `pieces`, cut into deltas anywhere (empty deltas included). */
export function textDeltas(pieces: string[], maxWords = 40, maxCuts = 30): fc.Arbitrary<string[]> {
  return fc
    .tuple(
      fc.array(fc.constantFrom(...pieces), { maxLength: maxWords }),
      fc.array(fc.nat(), { maxLength: maxCuts }),
    )
    .map(([words, cuts]) => {
      const text = words.join('');
      const offsets = cuts.map((cut) => cut % (text.length + 1)).sort((a, b) => a - b);
      return offsets.concat(text.length).map((end, i) => text.slice(offsets[i - 1] ?? 0, end));
    });
}
