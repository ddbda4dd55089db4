import type { UIMessage } from 'ai';
import { toUIMessageStream } from '../../src/relay/ui/toUIMessageStream';
import { fromAISdk } from '../../src/interop/fromAISdk';
import { aiSdkMajors, finishChunk, type AISdkMajor } from '../helpers/aiSdkMajors';
import { readChunks } from './uiMessageReader';

// An AI SDK run, both ways round: its parts through fromAISdk → toUIMessageStream, read by the
// major's own readUIMessageStream, make the same message as the AI SDK's own UI message stream.

const start = { type: 'stream-start', warnings: [] };

const twoSteps = [
  [
    start,
    { type: 'reasoning-start', id: 'r1' },
    { type: 'reasoning-delta', id: 'r1', delta: 'The user wants the weather.' },
    { type: 'reasoning-end', id: 'r1' },
    { type: 'text-start', id: 'step1-text' },
    { type: 'text-delta', id: 'step1-text', delta: 'Let me look.' },
    { type: 'text-end', id: 'step1-text' },
    { type: 'tool-input-start', id: 'call-1', toolName: 'weather' },
    { type: 'tool-input-delta', id: 'call-1', delta: '{"city":"Oslo"}' },
    { type: 'tool-input-end', id: 'call-1' },
    { type: 'tool-call', toolCallId: 'call-1', toolName: 'weather', input: '{"city":"Oslo"}' },
    finishChunk('tool-calls'),
  ],
  [
    start,
    { type: 'text-start', id: 'step2-text' },
    { type: 'text-delta', id: 'step2-text', delta: 'Sunny in ' },
    { type: 'text-delta', id: 'step2-text', delta: 'Oslo.' },
    { type: 'text-end', id: 'step2-text' },
    finishChunk('stop'),
  ],
];
const weather = async ({ city }: { city: string }) => ({ city, sky: 'sunny' });

/** A message's parts as a user sees them: kind, text, tool state, input and output. */
function partsOf(message: UIMessage | undefined): unknown[] {
  return (message?.parts ?? []).map((part) => {
    const tool = part as { toolCallId?: string; state?: string; input?: unknown; output?: unknown };
    if (part.type === 'text' || part.type === 'reasoning')
      return { type: part.type, text: part.text };
    if (part.type.startsWith('tool-')) {
      return {
        type: part.type,
        id: tool.toolCallId,
        state: tool.state,
        input: tool.input,
        output: tool.output,
      };
    }
    return { type: part.type };
  });
}

describe.each(aiSdkMajors.map((major) => [major.name, major] as const))(
  'toUIMessageStream of fromAISdk, read by %s',
  (_name, major: AISdkMajor) => {
    it("a two-step run makes the AI SDK's own message: steps, reasoning, text, the tool's output", async () => {
      const ours = await readChunks(
        toUIMessageStream(fromAISdk(major.run(twoSteps, { weather }))),
        undefined,
        major,
      );
      const theirs = await readChunks(
        major.ownUIMessageStream(twoSteps, { weather }),
        undefined,
        major,
      );
      expect(ours.errors).toEqual([]);
      expect(theirs.errors).toEqual([]);
      expect(partsOf(ours.message)).toEqual([
        { type: 'step-start' },
        { type: 'reasoning', text: 'The user wants the weather.' },
        { type: 'text', text: 'Let me look.' },
        {
          type: 'tool-weather',
          id: 'call-1',
          state: 'output-available',
          input: { city: 'Oslo' },
          output: { city: 'Oslo', sky: 'sunny' },
        },
        { type: 'step-start' },
        { type: 'text', text: 'Sunny in Oslo.' },
      ]);
      expect(partsOf(ours.message)).toEqual(partsOf(theirs.message));
      expect(ours.chunks.filter((chunk) => chunk.type === 'start-step')).toHaveLength(2);
      expect(ours.chunks.filter((chunk) => chunk.type === 'finish-step')).toHaveLength(2);
    });

    it('an abort ends in the abort chunk with its reason; the text so far stays, no error', async () => {
      const controller = new AbortController();
      const parts = major.run(
        [[start, { type: 'text-start', id: 't1' }, { type: 'text-delta', id: 't1', delta: 'Hel' }]],
        { abortSignal: controller.signal, hold: true },
      );
      const events$ = fromAISdk(parts, { signal: controller.signal });
      const chunks = toUIMessageStream(events$).pipeThrough(
        new TransformStream<unknown, unknown>({
          transform(chunk, stream) {
            stream.enqueue(chunk);
            if ((chunk as { type: string }).type === 'text-delta')
              controller.abort('stopped by the user');
          },
        }),
      );
      const read = await readChunks(chunks, undefined, major);
      expect(read.errors).toEqual([]);
      expect(read.chunks.slice(-3)).toEqual([
        { type: 'text-end', id: 't1' },
        { type: 'finish-step' },
        { type: 'abort', reason: 'stopped by the user' },
      ]);
      expect(partsOf(read.message)).toEqual([
        { type: 'step-start' },
        { type: 'text', text: 'Hel' },
      ]);
    });

    it('a failed run: the error chunk with its message (no "Error: "), then finish error', async () => {
      const parts = major.run([
        [
          start,
          { type: 'text-start', id: 't1' },
          { type: 'text-delta', id: 't1', delta: 'Hel' },
          { type: 'error', error: new Error('Overloaded') },
        ],
      ]);
      const read = await readChunks(toUIMessageStream(fromAISdk(parts)), undefined, major);
      expect(read.errors).toEqual([]);
      expect(read.chunks.slice(-2)).toEqual([
        { type: 'error', errorText: 'provider-error: Overloaded' },
        { type: 'finish', finishReason: 'error' },
      ]);
    });
  },
);
