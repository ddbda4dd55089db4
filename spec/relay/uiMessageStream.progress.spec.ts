// The web path with tool progress and partial tool input on: toUIMessageStream maps tools to the
// AI SDK's tool parts as before, and the progress / tool-input-partial events add no chunk.
import { from } from 'rxjs';
import { channel } from '../../src/channels/channel';
import type { StreamEvent } from '../../src/events';
import { partialToolInput } from '../../src/operators/partialToolInput';
import { toUIMessageStream } from '../../src/relay/ui/toUIMessageStream';
import { readChunks } from './uiMessageReader';

const events: StreamEvent[] = [
  { type: 'response-start', provider: 'openai-chat' },
  { type: 'tool-input-start', id: 'call_1', name: 'weather', index: 0 },
  { type: 'tool-input-delta', id: 'call_1', delta: '{"city":"Os' },
  { type: 'tool-input-delta', id: 'call_1', delta: 'lo"}' },
  {
    type: 'tool-call',
    id: 'call_1',
    name: 'weather',
    input: { city: 'Oslo' },
    inputText: '{"city":"Oslo"}',
  },
  { type: 'tool-start', id: 'call_1', name: 'weather', args: { city: 'Oslo' } },
  { type: 'tool-end', id: 'call_1', name: 'weather', result: { sky: 'sunny' } },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'Sunny in Oslo.' },
  { type: 'text-end', id: 't' },
  { type: 'finish', reason: 'stop' },
  { type: 'completed', finishReason: 'stop' },
];

const read = (withProgress: boolean) => {
  const source = from(events);
  const piped = withProgress
    ? source.pipe(partialToolInput({ intervalMs: 0 }), channel('web', { progress: true }))
    : source.pipe(channel('web'));
  return readChunks(toUIMessageStream(piped, { messageId: 'm1' }));
};

describe('toUIMessageStream with progress and partial tool input', () => {
  it('gives the same chunks and the same message, read by the AI SDK without an error', async () => {
    const plain = await read(false);
    const withProgress = await read(true);
    expect(withProgress.errors).toEqual([]);
    expect(withProgress.chunks).toEqual(plain.chunks);
    expect(withProgress.message).toEqual(plain.message);
    const tool = withProgress.message!.parts.find((part) => part.type === 'tool-weather');
    expect(tool).toMatchObject({ state: 'output-available', input: { city: 'Oslo' } });
  });
});
