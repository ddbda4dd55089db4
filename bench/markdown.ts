// Generated markdown for the chunker benchmark: paragraphs, lists, indented and fenced code,
// reproducible from a seed (no Math.random), cut into 3–10 character deltas.

/** A small seeded PRNG (mulberry32): the same seed gives the same text on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'the',
  'stream',
  'of',
  'tokens',
  'arrives',
  'in',
  'small',
  'pieces',
  'and',
  'a',
  'channel',
  'wants',
  'readable',
  'blocks',
  'e.g.',
  'paragraphs',
  'lists',
  'code',
  'which',
  'is',
  'why',
  'we',
  'cut',
  'carefully',
  'before',
  'sending',
  'to',
  'users',
  'on',
  'Telegram',
  'or',
  'Slack',
];
const CODE = [
  'const',
  'value',
  '=',
  'await',
  'fetch(url);',
  'return',
  'x',
  '+',
  '1;',
  'if',
  '(ok)',
  '{',
  '}',
];

const CJK = [
  '流式',
  '输出',
  '的',
  '文本',
  '会',
  '被',
  '切成',
  '小块',
  '发送',
  '给',
  '用户',
  '频道',
];

/**
 * About `size` characters of markdown. With `rich`, one part in four is instead an ATX heading
 * before its section, a GFM table (header, delimiter row, 2–40 rows) or a paragraph of Chinese
 * sentences with no spaces (for `npm run bench:quality`); without it the text is what the
 * chunker benchmark has always measured.
 */
export function generateMarkdown(size: number, seed = 7, rich = false): string {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const sentence = () => {
    const words = Array.from({ length: 5 + Math.floor(random() * 14) }, () => pick(WORDS));
    words[0] = words[0][0].toUpperCase() + words[0].slice(1);
    return `${words.join(' ')}${pick(['.', '.', '.', '!', '?'])}`;
  };
  const codeLine = () =>
    Array.from({ length: 2 + Math.floor(random() * 6) }, () => pick(CODE)).join(' ');
  const parts: string[] = [];
  let length = 0;
  const cjkSentence = () =>
    Array.from({ length: 4 + Math.floor(random() * 12) }, () => pick(CJK)).join('') +
    pick(['。', '。', '！', '？']);
  const tableRow = (cells: number) =>
    `| ${Array.from({ length: cells }, () => pick(WORDS)).join(' | ')} |`;
  while (length < size) {
    const kind = random();
    let part: string;
    const richKind = rich ? random() : 1;
    if (richKind < 0.1) {
      const section = Array.from({ length: 1 + Math.floor(random() * 4) }, sentence).join(' ');
      part = `${'#'.repeat(1 + Math.floor(random() * 3))} ${sentence().slice(0, -1)}\n\n${section}`;
    } else if (richKind < 0.18) {
      const cells = 2 + Math.floor(random() * 4);
      const rows = Array.from({ length: 2 + Math.floor(random() * 39) }, () => tableRow(cells));
      part = [tableRow(cells), `|${'---|'.repeat(cells)}`, ...rows].join('\n');
    } else if (richKind < 0.25) {
      part = Array.from({ length: 3 + Math.floor(random() * 10) }, cjkSentence).join('');
    } else if (kind < 0.5) {
      part = Array.from({ length: 1 + Math.floor(random() * 5) }, sentence).join(' ');
    } else if (kind < 0.7) {
      part = Array.from({ length: 2 + Math.floor(random() * 5) }, () => `- ${sentence()}`).join(
        '\n',
      );
    } else if (kind < 0.8) {
      part = Array.from({ length: 2 + Math.floor(random() * 6) }, () => `    ${codeLine()}`).join(
        '\n',
      );
    } else {
      const lines = Array.from({ length: 3 + Math.floor(random() * 30) }, () =>
        random() < 0.1 ? '' : `${pick(['', '  ', '    '])}${codeLine()}`,
      );
      part = `\`\`\`${pick(['ts', 'bash', ''])}\n${lines.join('\n')}\n\`\`\``;
    }
    parts.push(part);
    length += part.length + 2;
  }
  return parts.join('\n\n').slice(0, size);
}

/** `text` cut into deltas of 3–10 characters (seeded). */
export function toDeltas(text: string, seed = 11): string[] {
  const random = seededRandom(seed);
  const deltas: string[] = [];
  for (let at = 0; at < text.length;) {
    const size = 3 + Math.floor(random() * 8);
    deltas.push(text.slice(at, at + size));
    at += size;
  }
  return deltas;
}
