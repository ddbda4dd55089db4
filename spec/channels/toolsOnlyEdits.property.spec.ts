// Property: an answer of tool progress only ends message 0 with a final text that is never
// empty (every tool and its last status); an answer with text never gets that extra edit.
import fc from 'fast-check';
import { lastValueFrom, of, toArray } from 'rxjs';
import type { MessageEdit, MessageStep } from '../../src/channels/messageEditPlanner';
import { toMessageEdits } from '../../src/channels/toMessageEdits';
import type { StreamEvent } from '../../src/events';
import { renderMessages } from '../../src/render/renderMarkdown';

const progress = fc.record({
  type: fc.constant('progress' as const),
  id: fc.constantFrom('call_1', 'call_2', 'call_3'),
  name: fc.constantFrom('lookup', 'fetch', 'run_code'),
  status: fc.constantFrom('running' as const, 'done' as const, 'error' as const),
});

const stepsOf = (events: StreamEvent[]) =>
  lastValueFrom(of(...events).pipe(toMessageEdits({ maxMessageChars: 300 }), toArray())) as Promise<
    MessageStep[]
  >;

describe('toMessageEdits of tool progress only', () => {
  it('ends message 0 with a non-empty final text of every tool, then the end', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(progress, { minLength: 1, maxLength: 12 }), async (events) => {
        const steps = await stepsOf([...events, { type: 'completed', finishReason: 'tool-calls' }]);
        expect(steps.at(-1)).toEqual({
          op: 'end',
          terminal: { type: 'completed', finishReason: 'tool-calls' },
        });
        const final = steps.at(-2) as MessageEdit;
        expect(final.op).toBe('edit');
        expect(final.message).toBe(0);
        expect(final.text).not.toBe('');
        const ids = new Set(events.map((event) => event.id));
        expect(final.progress).toHaveLength(ids.size);
        expect(final.text.split(' · ')).toHaveLength(ids.size);
        expect(steps).toHaveLength(events.length + 2);
      }),
      { numRuns: 100 },
    );
  });

  it('with text, no extra edit: the last edit before the end is the model text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(progress, { maxLength: 6 }), async (events) => {
        const block: StreamEvent = { type: 'block', text: 'Found it.', seq: 0, reason: 'size' };
        const steps = await stepsOf([...events, block, { type: 'completed' }]);
        expect((steps.at(-2) as MessageEdit).text).toBe('Found it.');
        expect(steps).toHaveLength(events.length + 2);
      }),
      { numRuns: 100 },
    );
  });

  it('with render, the final edit carries the rendered statuses', async () => {
    const events: StreamEvent[] = [
      { type: 'progress', id: 'call_1', name: 'web_search', status: 'done' },
      { type: 'completed', finishReason: 'tool-calls' },
    ];
    const steps = (await lastValueFrom(
      of(...events).pipe(toMessageEdits({ maxMessageChars: 4096, render: 'telegram' }), toArray()),
    )) as MessageStep[];
    const final = steps.at(-2) as MessageEdit;
    expect(final.text).toBe('✓ web\\_search');
    expect(final.rendered).toEqual(renderMessages(final.text, 'telegram')[0].rendered);
    expect(final.rendered?.format).toBe('telegram');
  });
});
