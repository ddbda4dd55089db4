import { from } from 'rxjs';
import type { StreamEvent } from '../../src/events';
import { toUIMessageStream } from '../../src/relay/ui/toUIMessageStream';
import { aiSdkMajors, type AISdkMajor } from '../helpers/aiSdkMajors';
import { readChunks } from './uiMessageReader';

// Citations, opaque reasoning fields and provider-executed tools on the UI message stream, read
// by each AI SDK major's own readUIMessageStream (schema-checked, no field either does not know).

const read = (events: StreamEvent[], major: AISdkMajor) =>
  readChunks(toUIMessageStream(from(events), { messageId: 'm1' }), undefined, major);

const anthropicTurn: StreamEvent[] = [
  { type: 'response-start', provider: 'anthropic', id: 'msg_1' },
  { type: 'reasoning-start', id: 'msg_1:0', index: 0 },
  { type: 'reasoning-delta', id: 'msg_1:0', index: 0, delta: 'Search first.', kind: 'text' },
  { type: 'reasoning-end', id: 'msg_1:0', index: 0, signature: 'EqQ=' },
  { type: 'reasoning-start', id: 'msg_1:1', index: 1 },
  { type: 'reasoning-end', id: 'msg_1:1', index: 1, redacted: ['EmwK'] },
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
    result: [{ type: 'web_search_result', url: 'https://rxjs.dev' }],
    isError: false,
    providerExecuted: true,
  },
  { type: 'citation', url: 'https://rxjs.dev', title: 'RxJS', text: 'Reactive Extensions' },
  { type: 'citation', url: 'https://rxjs.dev', title: 'RxJS', text: 'for JavaScript' },
  { type: 'citation', title: 'notes.md', text: 'a document, no url' },
  { type: 'citation', id: 'src-2', url: 'https://github.com/ReactiveX/rxjs' },
  { type: 'text-start', id: 'msg_1:3' },
  { type: 'text-delta', id: 'msg_1:3', delta: 'RxJS is a library.' },
  { type: 'text-end', id: 'msg_1:3' },
  {
    type: 'tool-start',
    id: 'srv_2',
    name: 'web_fetch',
    args: { url: 'https://x' },
    providerExecuted: true,
  },
  {
    type: 'tool-end',
    id: 'srv_2',
    name: 'web_fetch',
    result: { type: 'web_fetch_tool_result_error', error_code: 'url_not_accessible' },
    isError: true,
    providerExecuted: true,
  },
  { type: 'finish', reason: 'stop', raw: 'end_turn' },
  { type: 'completed', finishReason: 'stop' },
];

describe.each(aiSdkMajors.map((major) => [major.name, major] as const))(
  'toUIMessageStream sources, reasoning metadata, provider tools, read by %s',
  (_name, major) => {
    it('citations with a url are source-url parts (one per source); provider tools carry providerExecuted; signatures ride on providerMetadata', async () => {
      const result = await read(anthropicTurn, major);
      expect(result.errors).toEqual([]);
      const parts = result.message!.parts as Array<Record<string, unknown>>;
      expect(parts.filter((p) => p.type === 'source-url')).toEqual([
        {
          type: 'source-url',
          sourceId: 'https://rxjs.dev',
          url: 'https://rxjs.dev',
          title: 'RxJS',
        },
        {
          type: 'source-url',
          sourceId: 'src-2',
          url: 'https://github.com/ReactiveX/rxjs',
          title: undefined,
        },
      ]);
      expect(
        parts
          .filter((p) => p.type === 'reasoning')
          .map(({ text, providerMetadata }) => ({ text, providerMetadata })),
      ).toEqual([
        { text: 'Search first.', providerMetadata: { anthropic: { signature: 'EqQ=' } } },
        { text: '', providerMetadata: { anthropic: { redactedData: 'EmwK' } } },
      ]);
      expect(
        parts
          .filter((p) => String(p.type).startsWith('tool-'))
          .map(({ type, toolCallId, state, input, output, errorText, providerExecuted }) => ({
            type,
            toolCallId,
            state,
            input,
            output,
            errorText,
            providerExecuted,
          })),
      ).toEqual([
        {
          type: 'tool-web_search',
          toolCallId: 'srv_1',
          state: 'output-available',
          input: { query: 'rxjs' },
          output: [{ type: 'web_search_result', url: 'https://rxjs.dev' }],
          errorText: undefined,
          providerExecuted: true,
        },
        {
          type: 'tool-web_fetch',
          toolCallId: 'srv_2',
          state: 'output-error',
          input: { url: 'https://x' },
          output: undefined,
          errorText: '{"type":"web_fetch_tool_result_error","error_code":"url_not_accessible"}',
          providerExecuted: true,
        },
      ]);
    });

    it('Responses encrypted reasoning → openai itemId + reasoningEncryptedContent; any other source → llmrx', async () => {
      const entry = (provider: string, end: StreamEvent): StreamEvent[] => [
        { type: 'response-start', provider },
        { type: 'reasoning-start', id: 'rs_1:0', index: 0 },
        end,
        { type: 'completed' },
      ];
      const metadataOf = async (events: StreamEvent[]) => {
        const result = await read(events, major);
        expect(result.errors).toEqual([]);
        return (result.message!.parts as Array<Record<string, unknown>>)
          .filter((p) => p.type === 'reasoning')
          .map((p) => p.providerMetadata);
      };
      expect(
        await metadataOf(
          entry('openai-responses', {
            type: 'reasoning-end',
            id: 'rs_1:0',
            index: 0,
            redacted: ['gAAA'],
          }),
        ),
      ).toEqual([{ openai: { itemId: 'rs_1', reasoningEncryptedContent: 'gAAA' } }]);
      expect(
        await metadataOf(
          entry('openai-chat', {
            type: 'reasoning-end',
            id: 'rs_1:0',
            index: 0,
            signature: 'sig',
            redacted: ['e1', 'e2'],
            format: 'anthropic-claude-v1',
          }),
        ),
      ).toEqual([
        { llmrx: { signature: 'sig', redacted: ['e1', 'e2'], format: 'anthropic-claude-v1' } },
      ]);
      expect(
        await metadataOf(entry('anthropic', { type: 'reasoning-end', id: 'rs_1:0', index: 0 })),
      ).toEqual([undefined]);
    });
  },
);
