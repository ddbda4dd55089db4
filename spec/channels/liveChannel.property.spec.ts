import fc from 'fast-check';
import { TestScheduler } from 'rxjs/testing';
import { Observable } from 'rxjs';
import { channel } from '../../src/channels/channel';
import { LlmRxError } from '../../src/errors';
import type { StreamEvent } from '../../src/events';
import { createLiveText } from '../../src/chunking/liveText';

// No word starts like a silent token (NO_REPLY, ANNOUNCE_SKIP, REPLY_SKIP): suppressSilent would hold it.
const words = fc.constantFrom('Hello', 'world', 'I', 'Extraordinary', 'table', 'bold,', 'x');
const gaps = fc.constantFrom(' ', '\n', '  ', '\n\n');
const pieces = fc.array(fc.oneof(words, gaps), { minLength: 1, maxLength: 30 });

/** The text as deltas at given frames, cut at arbitrary places. */
const timedDeltas = pieces.chain((parts) => {
  const text = parts.join('');
  return fc
    .array(
      fc.tuple(
        fc.integer({ min: 1, max: Math.max(1, text.length) }),
        fc.integer({ min: 1, max: 12 }),
      ),
      {
        maxLength: 12,
      },
    )
    .map((cuts) => {
      const positions = [...new Set(cuts.map(([at]) => at))].sort((a, b) => a - b);
      const deltas: Array<{ at: number; delta: string }> = [];
      let start = 0;
      let at = 0;
      positions.forEach((position, index) => {
        if (position <= start || position >= text.length) return;
        at += cuts[index][1];
        deltas.push({ at, delta: text.slice(start, position) });
        start = position;
      });
      deltas.push({ at: at + 1 + (cuts[0]?.[1] ?? 0), delta: text.slice(start) });
      return { text, deltas };
    });
});

function runLive(deltas: Array<{ at: number; delta: string }>, liveIntervalMs: number) {
  const scheduler = new TestScheduler(() => undefined);
  const blocks: Array<{ at: number; text: string; reason: string }> = [];
  scheduler.run(() => {
    const source = new Observable<StreamEvent>((subscriber) => {
      for (const { at, delta } of deltas) {
        scheduler.schedule(() => subscriber.next({ type: 'text-delta', id: 't', delta }), at);
      }
      scheduler.schedule(() => subscriber.complete(), deltas[deltas.length - 1].at + 100);
    });
    source
      .pipe(channel('telegram', { live: true, liveIntervalMs, scheduler }))
      .subscribe((event) => {
        if (event.type === 'block')
          blocks.push({ at: scheduler.now(), text: event.text, reason: event.reason });
      });
  });
  return blocks;
}

describe('channel(…, { live: true })', () => {
  it('blocks joined with no separator are exactly the text, and no block but the last ends mid-word', () => {
    fc.assert(
      fc.property(timedDeltas, fc.integer({ min: 1, max: 20 }), ({ text, deltas }, interval) => {
        const blocks = runLive(deltas, interval);
        expect(blocks.map((block) => block.text).join('')).toBe(text);
        for (const block of blocks) {
          // A block cut while text still comes (size) ends at whitespace: never half a word.
          if (block.reason === 'size') expect(block.text).toMatch(/\s$/);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('no character goes out before its delta, and every visible one is out one interval after the last delta', () => {
    fc.assert(
      fc.property(timedDeltas, fc.integer({ min: 1, max: 20 }), ({ text, deltas }, interval) => {
        const blocks = runLive(deltas, interval);
        let emitted = 0;
        let cursor = 0;
        const emittedAt: number[] = [];
        for (const block of blocks) {
          for (let i = 0; i < block.text.length; i++) emittedAt[emitted++] = block.at;
        }
        for (const { at, delta } of deltas) {
          for (let i = 0; i < delta.length; i++, cursor++) {
            // Only what arrived: no character goes out before its delta.
            expect(emittedAt[cursor]).toBeGreaterThanOrEqual(at);
          }
        }
        // Every visible character is out by the quiet deadline after the last delta (trailing
        // whitespace and emphasis markers may wait: suppressSilent holds them while a token may follow).
        const last = deltas[deltas.length - 1].at;
        const visible = emittedAt.filter((_, index) => /\S/.test(text[index]));
        expect(Math.max(0, ...visible)).toBeLessThanOrEqual(last + interval);
      }),
      { numRuns: 200 },
    );
  });

  it('is refused for channels whose messages are not edited or streamed', () => {
    expect(() => channel('sms', { live: true })).toThrow(LlmRxError);
    expect(() => channel('web', { live: true })).toThrow(
      'channel("web"): live mode is for channels whose messages are edited or streamed (telegram, slack, discord, msteams, googlechat).',
    );
    expect(() => channel('telegram', { liveIntervalMs: 0, live: true })).toThrow(LlmRxError);
  });
});

describe('createLiveText', () => {
  it('takes whole words, then the tail', () => {
    const held = createLiveText();
    held.append('Hello wor');
    expect(held.hasWords).toBe(true);
    expect(held.takeWords()).toBe('Hello ');
    expect(held.takeWords()).toBe('');
    held.append('ld');
    expect(held.holding).toBe(true);
    expect(held.takeAll()).toBe('world');
    expect(held.holding).toBe(false);
  });
});
