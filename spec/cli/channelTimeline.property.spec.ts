import fc from 'fast-check';
import { Observable, VirtualTimeScheduler, type Subscription } from 'rxjs';
import { channel } from '../../src/channels/channel';
import { channelNames, type ChannelName } from '../../src/channels/presets';
import type { StreamEvent } from '../../src/events';
import { channelTimeline } from '../../src/cli/channelTimeline';
import type { TimedEvent } from '../../src/cli/decode';

// The replay used to queue every decoded event on a VirtualTimeScheduler (quadratic in the
// capture size). That version is the reference here: the linear one must send the same events
// at the same times, whatever the gaps (equal times included) and the channel.
function queuedTimeline(decoded: TimedEvent[], name: ChannelName): TimedEvent[] {
  const scheduler = new VirtualTimeScheduler();
  const source = new Observable<StreamEvent>((subscriber) => {
    const timers: Subscription[] = decoded.map(({ atMs, event }) =>
      scheduler.schedule(() => subscriber.next(event), atMs),
    );
    const endMs = decoded.length > 0 ? decoded[decoded.length - 1].atMs : 0;
    timers.push(scheduler.schedule(() => subscriber.complete(), endMs));
    return () => timers.forEach((timer) => timer.unsubscribe());
  });
  const output: TimedEvent[] = [];
  source.pipe(channel(name, { scheduler })).subscribe({
    next: (event) => output.push({ atMs: scheduler.now(), event }),
  });
  scheduler.flush();
  return output;
}

const piece = fc.constantFrom(
  'Hello. ',
  'word ',
  '\n\n',
  '\n',
  '```js\n',
  'code\n',
  '```\n',
  '<think>',
  '</think>',
  'NO_REPLY',
  'x'.repeat(300),
  '文。',
);
const event: fc.Arbitrary<StreamEvent> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc
      .array(piece, { maxLength: 3 })
      .map((pieces): StreamEvent => ({ type: 'text-delta', id: 't', delta: pieces.join('') })),
  },
  { weight: 1, arbitrary: fc.constant<StreamEvent>({ type: 'text-start', id: 't' }) },
  { weight: 1, arbitrary: fc.constant<StreamEvent>({ type: 'text-end', id: 't' }) },
  {
    weight: 2,
    arbitrary: fc.integer({ min: 0, max: 2 }).map((index): StreamEvent => ({
      type: 'reasoning-delta',
      id: `r${index}`,
      index,
      delta: 'hm',
      kind: 'text',
    })),
  },
  { weight: 1, arbitrary: fc.constant<StreamEvent>({ type: 'reasoning-end', id: 'r1', index: 1 }) },
  { weight: 1, arbitrary: fc.constant<StreamEvent>({ type: 'finish', reason: 'stop' }) },
);

describe('channelTimeline (the replay clock)', () => {
  it('sends what the fully queued virtual-time replay sent, at the same times', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...channelNames),
        fc.array(fc.tuple(fc.constantFrom(0, 0, 20, 20, 40, 1000, 2000), event), { maxLength: 40 }),
        fc.boolean(),
        (name, steps, terminal) => {
          let atMs = 0;
          const decoded: TimedEvent[] = steps.map(([gap, each]) => ({
            atMs: (atMs += gap),
            event: each,
          }));
          if (terminal) decoded.push({ atMs, event: { type: 'completed', finishReason: 'stop' } });
          expect(channelTimeline(decoded, name)).toEqual(queuedTimeline(decoded, name));
        },
      ),
      { numRuns: 300, seed: 20261203 },
    );
  });
});
