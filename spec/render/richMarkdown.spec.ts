import fc from 'fast-check';
import { platformLimits } from '../../src/platforms';
import { renderMarkdown } from '../../src/render/renderMarkdown';
import { comparable, markdownVisible } from './renderChecks';

const table = '| Name | Qty |\n|:--|--:|\n| apple | 2 |\n| pear | 10 |';

describe("renderMarkdown 'telegram-rich'", () => {
  it('keeps the markdown as Rich Messages read it: headings, lists, tables, code', () => {
    const markdown = `# Fruit\n\nWe have **two**:\n\n${table}\n\n1. fresh\n2. cheap\n\n\`\`\`js\nsell();\n\`\`\``;
    expect(renderMarkdown(markdown, 'telegram-rich')).toEqual([
      {
        text: markdown,
        format: 'telegram-rich',
        plain:
          'Fruit\n\nWe have two:\n\nName  | Qty\n------|----\napple |   2\npear  |  10\n\n1. fresh\n2. cheap\n\nsell();',
      },
    ]);
  });

  it('defaults to the platform limit, 32,768', () => {
    const paragraph = 'word '.repeat(1000).trim();
    const markdown = Array.from({ length: 10 }, () => paragraph).join('\n\n');
    const messages = renderMarkdown(markdown, 'telegram-rich');
    expect(platformLimits['telegram-rich'].maxMessageChars).toBe(32768);
    // Paragraphs of 4,999 characters, two line breaks apart: 6 fit in 32,768, 4 are left.
    expect(messages.map((m) => m.text.length)).toEqual([6 * 4999 + 5 * 2, 4 * 4999 + 3 * 2]);
  });

  it('splits between blocks, a long table between rows with its header, a fence between lines', () => {
    const rows = Array.from({ length: 12 }, (_, i) => `| item ${i} | ${i} |`).join('\n');
    const code = Array.from({ length: 12 }, (_, i) => `line(${i});`).join('\n');
    const messages = renderMarkdown(
      `| Name | Qty |\n|---|---|\n${rows}\n\n\`\`\`ts\n${code}\n\`\`\``,
      'telegram-rich',
      { maxLength: 100 },
    );
    for (const message of messages) expect(message.text.length).toBeLessThanOrEqual(100);
    const tables = messages.filter((m) => m.text.startsWith('| Name | Qty |\n|---|---|\n'));
    const fences = messages.filter((m) => /^```ts\n[\s\S]*\n```$/.test(m.text));
    expect(tables.length + fences.length).toBe(messages.length);
    expect(tables.length).toBeGreaterThan(1);
    expect(fences.length).toBeGreaterThan(1);
  });

  it('turns a table wider than 20 columns into a code block (Telegram refuses it)', () => {
    const header = `| ${Array.from({ length: 21 }, (_, i) => `c${i}`).join(' | ')} |`;
    const rule = `|${'---|'.repeat(21)}`;
    const [message] = renderMarkdown(`${header}\n${rule}\n| ${'x | '.repeat(21)}`, 'telegram-rich');
    expect(message.text).toMatch(/^```\nc0 \| c1 \|/);
    expect(message.text.endsWith('\n```')).toBe(true);
  });

  it('property: every message fits, and the visible text is the markdown’s', () => {
    const word = fc.stringMatching(/^[a-z]{1,8}$/);
    const line = fc.array(word, { minLength: 1, maxLength: 12 }).map((w) => w.join(' '));
    const block = fc.oneof(
      line,
      line.map((l) => `## ${l}`),
      fc
        .array(line, { minLength: 1, maxLength: 5 })
        .map((ls) => ls.map((l) => `- ${l}`).join('\n')),
      fc
        .array(fc.tuple(word, word), { minLength: 1, maxLength: 8 })
        .map((rs) => `| a | b |\n|---|---|\n${rs.map(([x, y]) => `| ${x} | ${y} |`).join('\n')}`),
      fc
        .array(line, { minLength: 1, maxLength: 8 })
        .map((ls) => '```py\n' + ls.join('\n') + '\n```'),
    );
    fc.assert(
      fc.property(
        fc.array(block, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 64, max: 400 }),
        (blocks, maxLength) => {
          const markdown = blocks.join('\n\n');
          const messages = renderMarkdown(markdown, 'telegram-rich', { maxLength });
          for (const message of messages)
            expect(message.text.length).toBeLessThanOrEqual(maxLength);
          const visible = messages.map((m) => m.plain).join('\n');
          const expected = markdownVisible(markdown);
          // Split tables repeat their header and split fences their markers: compare the rest.
          const strip = (text: string) => comparable(text.replace(/\b[ab]\b/g, ''), 'plain');
          expect(strip(visible)).toBe(strip(expected));
        },
      ),
      { numRuns: 150 },
    );
  });
});
