// Issue 37: with render, where a message is cut depends on the model's text alone. Random
// markdown with fenced code, prose and tables is streamed in random deltas through the bot path
// (channel('telegram') in blocks and live mode, toMessageEdits({ render: 'telegram' })) in
// virtual time, with pauses of 1.5 s (past idleMs and liveIntervalMs) after random deltas: the
// messages' final texts equal those of the same text in one delta without pauses.
import fc from 'fast-check';
import { concatMap, delay, from, of, VirtualTimeScheduler } from 'rxjs';
import { channel } from '../../src/channels/channel';
import { isMessageEdit, type MessageStep } from '../../src/channels/messageEditPlanner';
import { toMessageEdits } from '../../src/channels/toMessageEdits';
import type { StreamEvent } from '../../src/events';
import { renderMarkdown } from '../../src/render/renderMarkdown';

const PAUSE_MS = 1500;
const PACE_MS = 20;

const word = fc.constantFrom('alpha', 'beta', 'gamma', 'x', 'longerword', 'a.', 'b!', '**bold**');
const words = (max: number) =>
  fc.array(word, { minLength: 1, maxLength: max }).map((list) => list.join(' '));
const paragraph = words(25);
const table = fc
  .array(fc.tuple(word, word), { minLength: 1, maxLength: 5 })
  .map((rows) => ['| a | b |', '|---|---|', ...rows.map(([x, y]) => `| ${x} | ${y} |`)].join('\n'));
const codeLine = fc
  .array(fc.constantFrom('if', 'x', ':=', 'return', 'err', '{', '}', 'nil', 'f(x)'), {
    minLength: 1,
    maxLength: 8,
  })
  .map((tokens) => tokens.join(' '));
const fence = fc
  .tuple(
    fc.constantFrom('go', 'ts', 'python', ''),
    fc.array(codeLine, { minLength: 1, maxLength: 20 }),
  )
  .map(([info, lines]) => ['```' + info, ...lines, '```'].join('\n'));
const markdown = fc
  .array(fc.oneof(paragraph, fence, fence, table), { minLength: 1, maxLength: 8 })
  .map((parts) => parts.join('\n\n'));

/** The text as deltas cut at the given points. */
function deltasOf(text: string, cuts: number[]): StreamEvent[] {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const deltas: StreamEvent[] = [];
  let start = 0;
  for (const point of [...points, text.length]) {
    if (point > start)
      deltas.push({ type: 'text-delta', id: 't', delta: text.slice(start, point) });
    start = Math.max(start, point);
  }
  return deltas;
}

/** Each message's final text, the deltas replayed in virtual time with pauses after `pauses`. */
function finalTexts(
  deltas: StreamEvent[],
  pauses: Set<number>,
  live: boolean,
  maxMessageChars: number,
): string[] {
  const scheduler = new VirtualTimeScheduler();
  const events: StreamEvent[] = [
    { type: 'text-start', id: 't' },
    ...deltas,
    { type: 'text-end', id: 't' },
    { type: 'completed', finishReason: 'stop' },
  ];
  const steps: MessageStep[] = [];
  from(events)
    .pipe(
      concatMap((event, index) =>
        of(event).pipe(delay(pauses.has(index - 1) ? PAUSE_MS : PACE_MS, scheduler)),
      ),
      channel('telegram', { scheduler, ...(live && { live }) }),
      toMessageEdits({ maxMessageChars, separator: '', render: 'telegram' }),
    )
    .subscribe((step) => steps.push(step));
  scheduler.flush();
  expect(steps.at(-1)).toMatchObject({ op: 'end', terminal: { type: 'completed' } });
  const finals: string[] = [];
  for (const step of steps.filter(isMessageEdit)) finals[step.message] = step.text;
  return finals;
}

describe('toMessageEdits({ render }): messages cut from the text alone (property)', () => {
  it('pauses and other deltas give the same final texts, in blocks and live mode, each one message within the limit', () => {
    fc.assert(
      fc.property(
        markdown,
        fc.array(fc.nat(), { maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.integer({ min: 64, max: 400 }),
        fc.boolean(),
        (text, cuts, pauseAt, maxMessageChars, live) => {
          const steady = finalTexts(deltasOf(text, []), new Set(), false, maxMessageChars);
          const deltas = deltasOf(text, cuts);
          const pauses = new Set(pauseAt.map((at) => at % (deltas.length + 1)));
          expect(finalTexts(deltas, pauses, live, maxMessageChars)).toEqual(steady);
          for (const final of steady) {
            expect(renderMarkdown(final, 'telegram', { maxLength: maxMessageChars })).toHaveLength(
              1,
            );
          }
        },
      ),
      { seed: 37, numRuns: 150 },
    );
  });
});
