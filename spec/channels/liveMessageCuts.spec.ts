// DESIGN §20: in live mode the final messages obey the block rules. Markdown made of prose,
// headings, tables and fenced code goes through toMessageEdits' planner in live-sized pieces
// (no block origin, separator ''), cut at any points: every message is within the limit,
// never ends inside a table row, and a fence cut by a message boundary is closed at its end
// and reopened with its info string in the next message.
import fc from 'fast-check';
import { createMessageEditPlanner, type MessageEdit } from '../../src/channels/messageEditPlanner';

const word = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'x', 'longerword', 'a.', 'b!');
const words = (max: number) =>
  fc.array(word, { minLength: 1, maxLength: max }).map((list) => list.join(' '));
const paragraph = words(30);
const heading = words(4).map((text) => `## ${text}`);
const table = fc
  .array(fc.tuple(word, word), { minLength: 1, maxLength: 8 })
  .map((rows) => ['| a | b |', '|---|---|', ...rows.map(([x, y]) => `| ${x} | ${y} |`)].join('\n'));
const fence = fc
  .tuple(
    fc.constantFrom('go', 'ts', 'python', ''),
    fc.array(words(6), { minLength: 1, maxLength: 12 }),
  )
  .map(([info, lines]) => ['```' + info, ...lines, '```'].join('\n'));
const markdown = fc
  .array(fc.oneof(paragraph, heading, table, fence), { minLength: 1, maxLength: 12 })
  .map((parts) => parts.join('\n\n'));

/** The text in pieces at the given cut points (as live mode's blocks of whole words and pauses). */
function pieces(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const result: string[] = [];
  let from = 0;
  for (const point of [...points, text.length]) {
    if (point > from) result.push(text.slice(from, point));
    from = Math.max(from, point);
  }
  return result;
}

function finalTexts(blocks: string[], maxMessageChars: number): string[] {
  const planner = createMessageEditPlanner({ maxMessageChars, separator: '' });
  const edits: MessageEdit[] = [
    ...blocks.flatMap((block) => planner.push(block)),
    ...planner.close(),
  ];
  const finals: string[] = [];
  for (const edit of edits) finals[edit.message] = edit.text;
  return finals;
}

describe('live mode: message cuts by the block rules (property)', () => {
  it('within the limit, never inside a table row, a cut fence closed and reopened with its language, the same messages however the text is cut', () => {
    fc.assert(
      fc.property(
        markdown,
        fc.array(fc.nat(), { maxLength: 40 }),
        fc.integer({ min: 60, max: 300 }),
        (text, cuts, maxMessageChars) => {
          const finals = finalTexts(pieces(text, cuts), maxMessageChars);
          expect(finals).toEqual(finalTexts([text], maxMessageChars));
          const rows = new Set(text.split('\n').filter((line) => line.startsWith('|')));
          let openInfo: string | undefined;
          finals.forEach((message, index) => {
            expect(message.length).toBeLessThanOrEqual(maxMessageChars);
            const lines = message.split('\n');
            // A message that continues a fence reopens it with the same info string.
            if (openInfo !== undefined) expect(lines[0]).toBe('```' + openInfo);
            let inFence: string | undefined;
            for (const line of lines) {
              if (line.startsWith('```'))
                inFence = inFence === undefined ? line.slice(3) : undefined;
              // Every table line is a whole row of the model's text.
              else if (inFence === undefined && line.startsWith('|'))
                expect(rows.has(line)).toBe(true);
            }
            // Every message's fences are closed (the last one's too: the model closed it).
            expect(inFence).toBeUndefined();
            const last = lines.at(-1)!;
            const next = finals[index + 1];
            // A message that ends with a fence closer the model did not write is followed by its reopen.
            openInfo =
              next?.startsWith('```') && last === '```' ? next.split('\n')[0].slice(3) : undefined;
          });
        },
      ),
      { seed: 37, numRuns: 300 },
    );
  });
});
