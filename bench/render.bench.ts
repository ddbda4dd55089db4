// µs per call of renderMarkdown on a 4 KB markdown block, in each format, beside
// telegramify-markdown (npm; remark/unified → Telegram MarkdownV2) on the same input as a peer.
// Run alone: `npx tsx bench/render.bench.ts`.
//
// The block: a heading, paragraphs with bold, italic, inline code and links, a list, a table with
// CJK and emoji, and a fenced code block — the shapes an LLM answer has — repeated to 4096
// characters and cut at a block boundary (so it is one Telegram message and no split happens).
// A second input, 16 KB of the same, measures the splitting (4–9 messages per format).
// Each round calls every contender CALLS times (rotating their order); 3 warm-up rounds, then
// the median of 9, with no forced GC between them (a full GC drops optimized code and would
// make every row pay for recompiling; each row's own garbage is collected in its time).
// Times are CPU time (user + system) of this process, as in the other benches:
// the machines are shared. The ratio column is this row over telegramify-markdown's, per round.

import MarkdownIt from 'markdown-it';
import telegramify from 'telegramify-markdown';
import { renderMarkdown } from '../src/render/renderMarkdown';
import type { RenderFormat } from '../src/render/types';

const SECTION = `## Results for *run* 7

The **stream of tokens** arrives in small pieces and a channel wants _readable_ blocks, e.g. \`bufferChunk({ minChars })\` or [the docs](https://example.com/docs/channels).
Each block goes out **once**, edited in place — see https://core.telegram.org/bots/api for limits.

- first item with \`code\`
- second item, *emphasis* and ~~strike~~
  - nested item

| Name | Qty | Note |
|:-----|----:|------|
| 漢字 | 2 | 😀 ok |
| alpha | 10 | long cell text |

\`\`\`ts
const edits = blocks.pipe(toMessageEdits({ maxMessageChars: 4096 }));
edits.subscribe((edit) => send(edit));
\`\`\`
`;

/** `size` characters of markdown, whole sections, cut at the last blank line within. */
function block(size: number): string {
  const repeated = SECTION.repeat(Math.ceil(size / SECTION.length) + 1).slice(0, size);
  return repeated.slice(0, repeated.lastIndexOf('\n\n'));
}

const CALLS = 10;
const WARMUP = 3;
const ROUNDS = 9;

interface Contender {
  name: string;
  run: (markdown: string) => unknown;
}

const FORMATS: RenderFormat[] = ['telegram', 'telegram-html', 'slack', 'discord', 'plain'];
// The parse renderMarkdown starts with (same options): the floor of every renderMarkdown row.
const parser = new MarkdownIt({ linkify: true });
parser.linkify.set({ fuzzyLink: false, fuzzyEmail: false });
const contenders: Contender[] = [
  { name: 'telegramify-markdown (MarkdownV2)', run: (markdown) => telegramify(markdown, 'escape') },
  ...FORMATS.map((format) => ({
    name: `renderMarkdown ${format}`,
    run: (markdown: string) => renderMarkdown(markdown, format),
  })),
  { name: 'markdown-it parse alone (floor)', run: (markdown) => parser.parse(markdown, {}) },
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

function measure(markdown: string): void {
  const perCall = contenders.map(() => [] as number[]);
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    for (let offset = 0; offset < contenders.length; offset++) {
      const index = (round + offset) % contenders.length;
      const started = process.cpuUsage();
      for (let call = 0; call < CALLS; call++) contenders[index].run(markdown);
      const cpu = process.cpuUsage(started);
      if (round >= WARMUP) perCall[index].push((cpu.user + cpu.system) / CALLS);
    }
  }
  const peer = perCall[0];
  console.log(`\n${markdown.length} characters of markdown:`);
  console.log('| contender | messages | µs per call (median) | × telegramify (median, range) |');
  console.log('|---|---:|---:|---|');
  contenders.forEach((contender, index) => {
    const ratios = perCall[index].map((us, round) => us / peer[round]);
    const messages = contender.name.startsWith('renderMarkdown')
      ? String((contender.run(markdown) as unknown[]).length)
      : '–';
    const range = `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`;
    console.log(
      `| ${contender.name} | ${messages} | ${median(perCall[index]).toFixed(0)} | ${median(ratios).toFixed(2)} (${range}) |`,
    );
  });
}

measure(block(4096));
measure(block(16_384));
