// Issue 37: within one chat message the text is the model's. A long markdown answer (a fixture
// of the project's own, and the long Anthropic captures when LLMRX_CORPUS_DIR is set) is
// replayed at model pace in virtual time, once without pauses and once with pauses of 1.5 s
// (past every preset's idleMs and liveIntervalMs) mid-word, mid-fence and mid-table, in blocks
// mode and in live mode: the messages' final texts are the same every time (a boundary is cut
// from the text alone), and equal the model's text where it fits in one message.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { concatMap, delay, from, lastValueFrom, of, toArray, VirtualTimeScheduler } from 'rxjs';
import { channel } from '../../src/channels/channel';
import { isMessageEdit, type MessageStep } from '../../src/channels/messageEditPlanner';
import { toMessageEdits } from '../../src/channels/toMessageEdits';
import type { StreamEvent } from '../../src/events';
import { renderMarkdown } from '../../src/render/renderMarkdown';
import { streamEvents } from '../../src/streamEvents';
import { describeCorpus } from '../helpers/corpus';
import { seededRandom } from '../helpers/seededRandom';

const MODEL_PACE_MS = 25;
const PAUSE_MS = 1500;

/** Message limits as each transport gives them (Slack and Teams streams hold long messages). */
const platforms = [
  { name: 'telegram', maxMessageChars: 4096 },
  { name: 'slack', maxMessageChars: 12000 },
  { name: 'discord', maxMessageChars: 2000 },
  { name: 'msteams', maxMessageChars: 28000 },
] as const;

const modelText = (events: StreamEvent[]) =>
  events.map((e) => (e.type === 'text-delta' ? e.delta : '')).join('');

/** Delta positions (indices of the delta after which to pause): mid-word, mid-fence, mid-table. */
function pausePoints(events: StreamEvent[], seed: number): Set<number> {
  const random = seededRandom(seed);
  const kinds = { word: [] as number[], fence: [] as number[], table: [] as number[] };
  let text = '';
  events.forEach((event, index) => {
    if (event.type !== 'text-delta') return;
    text += event.delta;
    const fences = text.split('\n').filter((line) => line.startsWith('```')).length;
    const line = text.slice(text.lastIndexOf('\n') + 1);
    if (/\w$/.test(text)) kinds.word.push(index);
    if (fences % 2 === 1 && /\w$/.test(text)) kinds.fence.push(index);
    if (line.startsWith('|') && !line.endsWith('|')) kinds.table.push(index);
  });
  const points = new Set<number>();
  for (const list of Object.values(kinds)) {
    for (let i = 0; i < 2 && list.length > 0; i++) {
      points.add(list[Math.floor(random() * list.length)]);
    }
  }
  return points;
}

/** Each message's final text, with the events replayed in virtual time. */
function finalTexts(
  events: StreamEvent[],
  platform: (typeof platforms)[number],
  pauses: Set<number>,
  live = false,
): string[] {
  const scheduler = new VirtualTimeScheduler();
  const steps: MessageStep[] = [];
  from(events)
    .pipe(
      concatMap((event, index) =>
        of(event).pipe(delay(pauses.has(index - 1) ? PAUSE_MS : MODEL_PACE_MS, scheduler)),
      ),
      channel(platform.name, live ? { scheduler, live } : { scheduler }),
      toMessageEdits({ maxMessageChars: platform.maxMessageChars, ...(live && { separator: '' }) }),
    )
    .subscribe((step) => steps.push(step));
  scheduler.flush();
  const finals: string[] = [];
  for (const step of steps.filter(isMessageEdit)) finals[step.message] = step.text;
  expect(steps.at(-1)).toMatchObject({ op: 'end', terminal: { type: 'completed' } });
  return finals;
}

/**
 * What a reader reads across several messages: the characters, whitespace aside, without the
 * lines a message boundary adds (a fence closed and reopened, a table's header rows repeated).
 */
const readText = (text: string) => {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) continue;
    if (line.startsWith('|')) {
      if (seen.has(line)) continue;
      seen.add(line);
    }
    kept.push(line);
  }
  return kept.join('').replace(/\s+/g, '');
};

/** One case per platform and mode; `loaded()` gives the events (read in a beforeAll). */
function expectModelText(name: string, loaded: () => StreamEvent[]) {
  for (const platform of platforms) {
    it(`${name} → ${platform.name}: the same final texts with pauses, in blocks and live mode, the model's text in each message`, () => {
      const events = loaded();
      const model = modelText(events);
      const steady = finalTexts(events, platform, new Set());
      // Live mode cuts by the same rules: the same messages as blocks mode.
      expect(finalTexts(events, platform, new Set(), true)).toEqual(steady);
      for (const seed of [1, 2, 3]) {
        const pauses = pausePoints(events, seed);
        expect(finalTexts(events, platform, pauses)).toEqual(steady);
        expect(finalTexts(events, platform, pauses, true)).toEqual(steady);
      }
      if (model.length <= platform.maxMessageChars) {
        expect(steady).toEqual([model.trim()]);
      } else {
        // Several messages: nothing is lost, repeated or added, but for the lines a message
        // boundary adds; each within the limit.
        expect(steady.length).toBeGreaterThan(1);
        expect(readText(steady.join('\n'))).toBe(readText(model));
        for (const text of steady)
          expect(text.length).toBeLessThanOrEqual(platform.maxMessageChars);
      }
    });
  }
}

async function eventsOf(sse: string): Promise<StreamEvent[]> {
  return lastValueFrom(streamEvents(new Response(sse)).pipe(toArray()));
}

describe('the model text in each chat message (own fixture)', () => {
  const sse = readFileSync(
    join(__dirname, '../../fixtures/anthropic/long-markdown-go-fence-table.sse'),
    'utf8',
  );
  let events: StreamEvent[] = [];
  beforeAll(async () => {
    events = await eventsOf(sse);
  });
  it('has a fence longer than any chunk, a table and prose', () => {
    expect(modelText(events)).toMatch(/```go\n[\s\S]{5000,}?\n```/);
  });
  expectModelText('long-markdown-go-fence-table.sse', () => events);

  it('the Go block through the telegram preset: one pre entity per code block in each message (the block cut only where a message ends)', () => {
    const finals = finalTexts(events, { name: 'telegram', maxMessageChars: 4096 }, new Set());
    expect(finals.length).toBeGreaterThan(2);
    for (const text of finals) {
      // (A table is a `pre` too, without a language.)
      const goBlocks = text.split('\n').filter((line) => line === '```go').length;
      const [rendered] = renderMarkdown(text, 'telegram');
      const pres = (rendered.entities ?? []).filter((entity) => entity.type === 'pre');
      expect(pres.filter((entity) => entity.language === 'go').length).toBe(goBlocks);
    }
  });
});

describeCorpus(
  'the model text in each chat message (long Anthropic captures)',
  (captures) => {
    const long = captures.filter((c) => c.name.includes('long-markdown'));
    it('finds the long captures', () => expect(long.length).toBeGreaterThanOrEqual(2));
    for (const capture of long) {
      let events: StreamEvent[] = [];
      beforeAll(async () => {
        events = await eventsOf(capture.sse);
      });
      expectModelText(capture.name, () => events);
    }
  },
  ['anthropic'],
);
