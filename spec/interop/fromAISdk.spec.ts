import { type StreamEvent } from '../../src/events';
import { isTerminal } from '../../src/terminalEvents';
import { fromAISdk } from '../../src/interop/fromAISdk';
import { collect } from '../helpers/bytes';
import { aiSdkMajors, finishChunk } from '../helpers/aiSdkMajors';

const start = { type: 'stream-start', warnings: [] };
const usageFields = {
  inputTokens: 12,
  outputTokens: 30,
  reasoningTokens: 20,
  cachedInputTokens: 8,
  totalTokens: 42,
};
const usage = { type: 'usage', ...usageFields };

function expectOneTerminalLast(events: StreamEvent[]): void {
  expect(events.filter(isTerminal)).toHaveLength(1);
  expect(isTerminal(events[events.length - 1])).toBe(true);
}

describe.each(aiSdkMajors.map((major) => [major.name, major] as const))(
  'fromAISdk over %s streamText',
  (_name, major) => {
    it('text and reasoning; usage with reasoning and cached tokens; completed', async () => {
      const parts = major.run([
        [
          start,
          { type: 'reasoning-start', id: 'r1' },
          { type: 'reasoning-delta', id: 'r1', delta: 'Think' },
          { type: 'reasoning-delta', id: 'r1', delta: ' first.' },
          { type: 'reasoning-end', id: 'r1' },
          { type: 'reasoning-start', id: 'r2' },
          { type: 'reasoning-delta', id: 'r2', delta: 'Then more.' },
          { type: 'reasoning-end', id: 'r2' },
          { type: 'text-start', id: 't1' },
          { type: 'text-delta', id: 't1', delta: 'Hello' },
          { type: 'text-delta', id: 't1', delta: ' world' },
          { type: 'text-end', id: 't1' },
          finishChunk('stop'),
        ],
      ]);
      const events = await collect(fromAISdk(parts));
      expect(events).toEqual([
        { type: 'reasoning-start', id: 'r1', index: 0 },
        { type: 'reasoning-delta', id: 'r1', index: 0, delta: 'Think', kind: 'text' },
        { type: 'reasoning-delta', id: 'r1', index: 0, delta: ' first.', kind: 'text' },
        { type: 'reasoning-end', id: 'r1', index: 0 },
        { type: 'reasoning-start', id: 'r2', index: 1 },
        { type: 'reasoning-delta', id: 'r2', index: 1, delta: 'Then more.', kind: 'text' },
        { type: 'reasoning-end', id: 'r2', index: 1 },
        { type: 'text-start', id: 't1' },
        { type: 'text-delta', id: 't1', delta: 'Hello' },
        { type: 'text-delta', id: 't1', delta: ' world' },
        { type: 'text-end', id: 't1' },
        { type: 'finish', reason: 'stop', raw: 'stop' },
        usage,
        {
          type: 'completed',
          finishReason: 'stop',
          usage: {
            inputTokens: 12,
            outputTokens: 30,
            reasoningTokens: 20,
            cachedInputTokens: 8,
            totalTokens: 42,
          },
        },
      ]);
    });

    it('a tool call with its input streamed; finish tool-calls', async () => {
      const parts = major.run(
        [
          [
            start,
            { type: 'tool-input-start', id: 'call-1', toolName: 'weather' },
            { type: 'tool-input-delta', id: 'call-1', delta: '{"city":' },
            { type: 'tool-input-delta', id: 'call-1', delta: '"Oslo"}' },
            { type: 'tool-input-end', id: 'call-1' },
            {
              type: 'tool-call',
              toolCallId: 'call-1',
              toolName: 'weather',
              input: '{"city":"Oslo"}',
            },
            { type: 'tool-call', toolCallId: 'call-2', toolName: 'weather', input: '{"city":' },
            finishChunk('tool-calls'),
          ],
        ],
        { weather: 'declared' },
      );
      const events = await collect(fromAISdk(parts));
      expect(events).toEqual([
        { type: 'tool-input-start', id: 'call-1', name: 'weather', index: 0 },
        { type: 'tool-input-delta', id: 'call-1', delta: '{"city":' },
        { type: 'tool-input-delta', id: 'call-1', delta: '"Oslo"}' },
        {
          type: 'tool-call',
          id: 'call-1',
          name: 'weather',
          input: { city: 'Oslo' },
          inputText: '{"city":"Oslo"}',
        },
        { type: 'tool-input-start', id: 'call-2', name: 'weather', index: 1 },
        {
          type: 'tool-call',
          id: 'call-2',
          name: 'weather',
          input: null,
          inputText: '{"city":',
          error: expect.stringMatching(/^Invalid input for tool weather: /),
        },
        // The SDK reports the invalid call as a tool error too (no tool ran).
        {
          type: 'tool-end',
          id: 'call-2',
          name: 'weather',
          result: expect.stringContaining('Invalid input for tool weather'),
          isError: true,
        },
        { type: 'finish', reason: 'tool-calls', raw: 'tool-calls' },
        usage,
        { type: 'completed', finishReason: 'tool-calls', usage: usageFields },
      ]);
    });

    it('two steps: a tool the SDK runs between them; text ids kept; one terminal', async () => {
      const parts = major.run(
        [
          [
            start,
            { type: 'text-start', id: 'step1-text' },
            { type: 'text-delta', id: 'step1-text', delta: 'Let me look.' },
            { type: 'text-end', id: 'step1-text' },
            {
              type: 'tool-call',
              toolCallId: 'call-1',
              toolName: 'weather',
              input: '{"city":"Oslo"}',
            },
            finishChunk('tool-calls', { input: 10, cacheRead: 0, output: 5, reasoning: 0 }),
          ],
          [
            start,
            { type: 'text-start', id: 'step2-text' },
            { type: 'text-delta', id: 'step2-text', delta: 'Sunny in Oslo.' },
            { type: 'text-end', id: 'step2-text' },
            finishChunk('stop', { input: 20, cacheRead: 10, output: 6, reasoning: 2 }),
          ],
        ],
        { weather: async ({ city }) => ({ city, sky: 'sunny' }) },
      );
      const events = await collect(fromAISdk(parts));
      expect(events).toEqual([
        { type: 'text-start', id: 'step1-text' },
        { type: 'text-delta', id: 'step1-text', delta: 'Let me look.' },
        { type: 'text-end', id: 'step1-text' },
        { type: 'tool-input-start', id: 'call-1', name: 'weather', index: 0 },
        {
          type: 'tool-call',
          id: 'call-1',
          name: 'weather',
          input: { city: 'Oslo' },
          inputText: '{"city":"Oslo"}',
        },
        { type: 'tool-end', id: 'call-1', name: 'weather', result: { city: 'Oslo', sky: 'sunny' } },
        { type: 'finish', reason: 'tool-calls', raw: 'tool-calls' },
        { type: 'text-start', id: 'step2-text' },
        { type: 'text-delta', id: 'step2-text', delta: 'Sunny in Oslo.' },
        { type: 'text-end', id: 'step2-text' },
        { type: 'finish', reason: 'stop', raw: 'stop' },
        // The run's total over both steps.
        {
          type: 'usage',
          inputTokens: 30,
          outputTokens: 11,
          reasoningTokens: 2,
          cachedInputTokens: 10,
          totalTokens: 41,
        },
        {
          type: 'completed',
          finishReason: 'stop',
          usage: {
            inputTokens: 30,
            outputTokens: 11,
            reasoningTokens: 2,
            cachedInputTokens: 10,
            totalTokens: 41,
          },
        },
      ]);
    });

    it('a tool that throws: tool-end with isError and the error message', async () => {
      const parts = major.run(
        [
          [
            start,
            {
              type: 'tool-call',
              toolCallId: 'call-1',
              toolName: 'weather',
              input: '{"city":"Oslo"}',
            },
            finishChunk('tool-calls'),
          ],
          [
            start,
            { type: 'text-start', id: 't' },
            { type: 'text-end', id: 't' },
            finishChunk('stop'),
          ],
        ],
        {
          weather: async () => {
            throw new Error('no weather today');
          },
        },
      );
      const events = await collect(fromAISdk(parts));
      expect(events.filter((e) => e.type === 'tool-end')).toEqual([
        {
          type: 'tool-end',
          id: 'call-1',
          name: 'weather',
          result: 'no weather today',
          isError: true,
        },
      ]);
      expectOneTerminalLast(events);
      expect(events[events.length - 1]).toMatchObject({ type: 'completed', finishReason: 'stop' });
    });

    it("an error part: failed with the error's own message, nothing after it", async () => {
      const parts = major.run([
        [
          start,
          { type: 'text-start', id: 't1' },
          { type: 'text-delta', id: 't1', delta: 'Hel' },
          { type: 'error', error: new Error('Overloaded') },
          { type: 'text-delta', id: 't1', delta: 'lo' },
          finishChunk('stop'),
        ],
      ]);
      expect(await collect(fromAISdk(parts))).toEqual([
        { type: 'text-start', id: 't1' },
        { type: 'text-delta', id: 't1', delta: 'Hel' },
        {
          type: 'failed',
          error: { code: 'provider-error', message: 'Overloaded', retryable: false },
        },
      ]);
    });

    it('a model call that fails: failed with its message', async () => {
      const parts = major.run([], { doStreamError: new Error('connect ECONNREFUSED') });
      expect(await collect(fromAISdk(parts))).toEqual([
        {
          type: 'failed',
          error: { code: 'provider-error', message: 'connect ECONNREFUSED', retryable: false },
        },
      ]);
    });

    it('abort: incomplete aborted with the reason, text so far kept', async () => {
      const controller = new AbortController();
      const parts = major.run(
        [[start, { type: 'text-start', id: 't1' }, { type: 'text-delta', id: 't1', delta: 'Hel' }]],
        { abortSignal: controller.signal, hold: true },
      );
      const events: StreamEvent[] = [];
      await new Promise<void>((done) => {
        fromAISdk(parts, { signal: controller.signal }).subscribe({
          next: (event) => {
            events.push(event);
            if (event.type === 'text-delta') controller.abort('stopped by the user');
          },
          complete: done,
        });
      });
      expect(events).toEqual([
        { type: 'text-start', id: 't1' },
        { type: 'text-delta', id: 't1', delta: 'Hel' },
        { type: 'incomplete', reason: 'aborted', message: 'stopped by the user' },
      ]);
    });
  },
);
