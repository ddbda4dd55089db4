import type { StreamEvent } from '../../src/events';
import { fromAISdk } from '../../src/interop/fromAISdk';
import { toUIMessageStream } from '../../src/relay/ui/toUIMessageStream';
import { aiSdkMajors, finishChunk, type AISdkMajor } from '../helpers/aiSdkMajors';
import { collect } from '../helpers/bytes';
import { readChunks } from '../relay/uiMessageReader';

// A real streamText run of each major whose model signs its reasoning, runs a tool itself and
// cites a source: fromAISdk carries all three, and toUIMessageStream gives them to the UI.

const steps = [
  [
    { type: 'stream-start', warnings: [] },
    { type: 'reasoning-start', id: 'r1' },
    { type: 'reasoning-delta', id: 'r1', delta: 'Search first.' },
    {
      type: 'reasoning-delta',
      id: 'r1',
      delta: '',
      providerMetadata: { anthropic: { signature: 'EqQ=' } },
    },
    { type: 'reasoning-end', id: 'r1' },
    {
      type: 'tool-call',
      toolCallId: 'srv_1',
      toolName: 'web_search',
      input: '{"query":"rxjs"}',
      providerExecuted: true,
      dynamic: true,
    },
    {
      type: 'tool-result',
      toolCallId: 'srv_1',
      toolName: 'web_search',
      result: [{ url: 'https://rxjs.dev' }],
      providerExecuted: true,
      dynamic: true,
    },
    { type: 'source', sourceType: 'url', id: 'src-1', url: 'https://rxjs.dev', title: 'RxJS' },
    { type: 'text-start', id: 't1' },
    { type: 'text-delta', id: 't1', delta: 'RxJS is a library.' },
    { type: 'text-end', id: 't1' },
    finishChunk('stop'),
  ],
];

const parts = (message: { parts: unknown[] } | undefined, type: string) =>
  (message?.parts ?? []).filter((p) => (p as { type: string }).type === type);

describe.each(aiSdkMajors.map((major) => [major.name, major] as const))(
  'fromAISdk of a run with a signature, a provider tool and a source (%s)',
  (_name, major: AISdkMajor) => {
    it('gives reasoning-end with the signature, tool-start / tool-end providerExecuted, a citation', async () => {
      const events: StreamEvent[] = await collect(fromAISdk(major.run(steps)));
      expect(events.filter((e) => e.type === 'reasoning-end')).toEqual([
        { type: 'reasoning-end', id: 'r1', index: 0, signature: 'EqQ=' },
      ]);
      expect(events.filter((e) => e.type.startsWith('tool-') || e.type === 'citation')).toEqual([
        {
          type: 'tool-start',
          id: 'srv_1',
          name: 'web_search',
          args: { query: 'rxjs' },
          providerExecuted: true,
        },
        {
          type: 'tool-end',
          id: 'srv_1',
          name: 'web_search',
          result: [{ url: 'https://rxjs.dev' }],
          providerExecuted: true,
        },
        { type: 'citation', id: 'src-1', url: 'https://rxjs.dev', title: 'RxJS' },
      ]);
    });

    it("through toUIMessageStream: a source-url part, the AI SDK's own text parts, the signature on providerMetadata", async () => {
      const ours = await readChunks(
        toUIMessageStream(fromAISdk(major.run(steps))),
        undefined,
        major,
      );
      const theirs = await readChunks(major.ownUIMessageStream(steps), undefined, major);
      expect(ours.errors).toEqual([]);
      // The AI SDK's own stream sends sources only with `sendSources: true`; llm-rx always does.
      expect(parts(ours.message, 'source-url')).toEqual([
        {
          type: 'source-url',
          sourceId: 'src-1',
          url: 'https://rxjs.dev',
          title: 'RxJS',
          providerMetadata: undefined,
        },
      ]);
      expect(parts(ours.message, 'text')).toEqual(parts(theirs.message, 'text'));
      expect(parts(ours.message, 'reasoning')).toEqual([
        {
          type: 'reasoning',
          id: 'r1',
          text: 'Search first.',
          state: 'done',
          providerMetadata: { llmrx: { signature: 'EqQ=' } },
        },
      ]);
      expect(parts(ours.message, 'tool-web_search')).toEqual([
        expect.objectContaining({
          toolCallId: 'srv_1',
          state: 'output-available',
          input: { query: 'rxjs' },
          output: [{ url: 'https://rxjs.dev' }],
          providerExecuted: true,
        }),
      ]);
    });
  },
);
