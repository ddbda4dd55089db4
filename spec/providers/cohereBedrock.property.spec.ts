import fc from 'fast-check';
import type { StreamEvent } from '../../src/events';
import { streamEvents } from '../../src/streamEvents';
import { isTerminal } from '../../src/terminalEvents';
import { chunksOf, collect, splitAt, utf8 } from '../helpers/bytes';
import { bedrockBody } from '../helpers/eventStreamFrames';

// Invariants of both decoders over generated streams: the text and reasoning delivered are the
// pieces sent, joined; there is exactly one terminal, last; any cutting of the bytes agrees.

const pieces = fc.array(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }), {
  minLength: 1,
  maxLength: 12,
});
const cuts = fc.array(fc.integer({ min: 1, max: 4000 }), { maxLength: 20 });

const joined = (events: StreamEvent[], type: 'text-delta' | 'reasoning-delta') =>
  events.map((e) => (e.type === type ? e.delta : '')).join('');

function cohereBody(thinking: string[], text: string[]): Uint8Array {
  const content = (index: number, kind: 'thinking' | 'text', parts: string[]) => [
    { type: 'content-start', index, delta: { message: { content: { type: kind, [kind]: '' } } } },
    ...parts.map((part) => ({
      type: 'content-delta',
      index,
      delta: { message: { content: { [kind]: part } } },
    })),
    { type: 'content-end', index },
  ];
  const events = [
    { id: 'p', type: 'message-start', delta: { message: { role: 'assistant' } } },
    ...content(0, 'thinking', thinking),
    ...content(1, 'text', text),
    { type: 'message-end', delta: { finish_reason: 'COMPLETE' } },
  ];
  return utf8(events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join(''));
}

function bedrockEvents(thinking: string[], text: string[]) {
  return bedrockBody([
    { messageStart: { role: 'assistant' } },
    ...thinking.map((part) => ({
      contentBlockDelta: { contentBlockIndex: 0, delta: { reasoningContent: { text: part } } },
    })),
    { contentBlockStop: { contentBlockIndex: 0 } },
    ...text.map((part) => ({ contentBlockDelta: { contentBlockIndex: 1, delta: { text: part } } })),
    { contentBlockStop: { contentBlockIndex: 1 } },
    { messageStop: { stopReason: 'end_turn' } },
    { metadata: { usage: { inputTokens: 1, outputTokens: 1 } } },
  ]);
}

describe.each([
  ['cohere', cohereBody, 'text/event-stream'],
  ['bedrock', bedrockEvents, 'application/vnd.amazon.eventstream'],
] as const)('%s: generated streams', (provider, bodyOf, contentType) => {
  it('deliver every piece of text and reasoning, joined, and one terminal, however the bytes are cut', async () => {
    await fc.assert(
      fc.asyncProperty(pieces, pieces, cuts, async (thinking, text, offsets) => {
        const body = bodyOf(thinking, text);
        const response = new Response(Uint8Array.from(body), {
          headers: { 'content-type': contentType },
        });
        const whole = await collect(streamEvents(response));
        expect(joined(whole, 'text-delta')).toBe(text.join(''));
        expect(joined(whole, 'reasoning-delta')).toBe(thinking.join(''));
        expect(whole.filter(isTerminal)).toEqual([expect.objectContaining({ type: 'completed' })]);
        expect(isTerminal(whole[whole.length - 1])).toBe(true);
        const cut = await collect(streamEvents(chunksOf(splitAt(body, offsets)), { provider }));
        expect(cut).toEqual(whole);
      }),
      { numRuns: 60 },
    );
  });
});
