import fc from 'fast-check';
import { lastValueFrom, toArray } from 'rxjs';
import { channel } from '../../src/channels/channel';
import { type StreamEvent } from '../../src/events';
import { isTerminal } from '../../src/terminalEvents';
import { streamEvents } from '../../src/streamEvents';
import { joinMismatch } from '../helpers/markdownChecks';
import { deltaSizes, markdown, splitText } from '../chunking/markdownArbitrary';
import { chunksOf, utf8 } from '../helpers/bytes';

// The whole telegram pipeline conserves text: an OpenAI-compatible stream whose content holds
// a <think> block, markdown and sometimes a trailing NO_REPLY, decoded by streamEvents and
// passed through channel('telegram'), yields blocks that join (synthetic fence lines removed,
// whitespace at the cuts aside) to the content minus the think block and the silent token.

function openAIChatBody(deltas: string[]): string {
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return (
    deltas.map((content) => chunk({ content })).join('') + chunk({}, 'stop') + 'data: [DONE]\n\n'
  );
}

const reply = fc.record({
  thought: fc.option(
    fc.string({ minLength: 1, maxLength: 60 }).map((s) => s.replace(/[<>]/g, '')),
    { nil: undefined },
  ),
  visible: markdown,
  silentTail: fc.boolean(),
  sizes: deltaSizes,
});

describe.each([
  ['telegram presets', {}],
  ['telegram with small blocks (minChars 40, maxChars 120)', { minChars: 40, maxChars: 120 }],
])('channel %s conserves text', (_title, overrides) => {
  it('blocks joined equal the decoded text minus think tags and silent tokens', async () => {
    await fc.assert(
      fc.asyncProperty(reply, async ({ thought, visible, silentTail, sizes }) => {
        fc.pre(
          visible.trim() !== '' &&
            !/NO_REPLY|ANNOUNCE_SKIP|REPLY_SKIP|<\/?(think|thinking|thought|antthinking|final)\b/i.test(
              visible,
            ),
        );
        const content =
          (thought === undefined ? '' : `<think>${thought}</think>`) +
          visible +
          (silentTail ? '\n\nNO_REPLY' : '');
        const body = openAIChatBody(splitText(content, sizes));
        const events: StreamEvent[] = await lastValueFrom(
          streamEvents(chunksOf([utf8(body)]), { provider: 'openai-chat' }).pipe(
            channel('telegram', overrides),
            toArray(),
          ),
        );
        expect(events.filter(isTerminal)).toEqual([{ type: 'completed', finishReason: 'stop' }]);
        expect(events.some((event) => event.type.startsWith('reasoning'))).toBe(false);
        const blocks = events.flatMap((event) => (event.type === 'block' ? [event.text] : []));
        expect(joinMismatch(visible, blocks)).toBeNull();
      }),
      { numRuns: 200, seed: 31 },
    );
  });
});
