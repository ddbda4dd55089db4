import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { StreamEvent } from '../../src/events';
import { createOpenAIResponsesDecoder } from '../../src/providers/openaiResponses';
import { streamEvents } from '../../src/streamEvents';
import { chunksOf, collect, splitAt } from '../helpers/bytes';
import { decodePayloads } from './decoderSupport';

// What the Responses API runs itself, what its text cites, custom (free-text) tools, apply-patch
// calls, partial images, compaction, and `.done` events that come after their entry ended.

const body = readFileSync(
  join(__dirname, '../../fixtures/openai-responses/server-tools-custom-tool-citations.sse'),
);
const decodeBody = (chunks: Uint8Array[]) =>
  collect(streamEvents(chunksOf(chunks), { provider: 'openai-responses' }));
const decode = (payloads: object[]): StreamEvent[] =>
  decodePayloads(createOpenAIResponsesDecoder(), payloads);

const created = { type: 'response.created', response: { id: 'resp_1', model: 'm' } };
const completed = { type: 'response.completed', response: { id: 'resp_1' } };
const item = (type: 'added' | 'done', fields: object, outputIndex = 0) => ({
  type: `response.output_item.${type}`,
  output_index: outputIndex,
  item: fields,
});

const expected: StreamEvent[] = [
  { type: 'response-start', provider: 'openai-responses', id: 'resp_fx2', model: 'gpt-5-mini' },
  { type: 'tool-start', id: 'ws_fx2', name: 'web_search', providerExecuted: true },
  {
    type: 'tool-end',
    id: 'ws_fx2',
    name: 'web_search',
    result: { status: 'completed', action: { type: 'search', query: 'rxjs 8 release' } },
    isError: false,
    providerExecuted: true,
  },
  { type: 'tool-start', id: 'mcp_fx2', name: 'ask', providerExecuted: true },
  {
    type: 'tool-end',
    id: 'mcp_fx2',
    name: 'ask',
    result: {
      status: 'failed',
      arguments: '{"q":"x"}',
      name: 'ask',
      server_label: 'wiki',
      output: null,
      error: 'server unreachable',
    },
    isError: true,
    providerExecuted: true,
  },
  { type: 'text-start', id: 'msg_fx2' },
  { type: 'text-delta', id: 'msg_fx2', delta: 'RxJS 8 is out ([rxjs.dev](https://rxjs.dev)).' },
  { type: 'citation', url: 'https://rxjs.dev', title: 'RxJS', start: 15, end: 44 },
  { type: 'citation', id: 'file-fx2', title: 'notes.md', start: 44 },
  { type: 'text-end', id: 'msg_fx2', text: 'RxJS 8 is out ([rxjs.dev](https://rxjs.dev)).' },
  { type: 'tool-input-start', id: 'call_fx2', name: 'run_sql', index: 3 },
  { type: 'tool-input-delta', id: 'call_fx2', delta: 'SELECT 1' },
  { type: 'tool-input-delta', id: 'call_fx2', delta: ' FROM t' },
  { type: 'tool-input-delta', id: 'call_fx2', delta: ';' },
  {
    type: 'tool-call',
    id: 'call_fx2',
    name: 'run_sql',
    input: 'SELECT 1 FROM t;',
    inputText: 'SELECT 1 FROM t;',
  },
  { type: 'reasoning-start', id: 'cmp_fx2:compaction', index: 0 },
  {
    type: 'reasoning-end',
    id: 'cmp_fx2:compaction',
    index: 0,
    redacted: ['gAAAA-compacted'],
    format: 'openai-compaction',
  },
  { type: 'finish', reason: 'tool-calls' },
  { type: 'completed', finishReason: 'tool-calls' },
];

describe('decodeOpenAIResponses: server tools, citations, custom tools', () => {
  it('decodes queued, a web search, a failed MCP call, citations, a custom tool and compaction', async () => {
    expect(await decodeBody([body])).toEqual(expected);
  });

  it('gives the same events however the bytes are cut', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(body.length), { maxLength: 12 }), async (offsets) => {
        expect(await decodeBody(splitAt(body, offsets))).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });

  it('an apply-patch call is a client tool call named apply_patch, its operation the input; the diff deltas add nothing', () => {
    const operation = { type: 'create_file', path: 'a.md', diff: '+hi\n' };
    const events = decode([
      created,
      item('added', { id: 'apc_1', type: 'apply_patch_call', call_id: 'call_1', operation: {} }),
      { type: 'response.apply_patch_call_operation_diff.delta', item_id: 'apc_1', delta: '+hi' },
      { type: 'response.apply_patch_call_operation_diff.done', item_id: 'apc_1', diff: '+hi\n' },
      item('done', { id: 'apc_1', type: 'apply_patch_call', call_id: 'call_1', operation }),
      completed,
    ]);
    expect(events.slice(1, 4)).toEqual([
      { type: 'tool-input-start', id: 'call_1', name: 'apply_patch', index: 0 },
      { type: 'tool-input-delta', id: 'call_1', delta: JSON.stringify(operation) },
      {
        type: 'tool-call',
        id: 'call_1',
        name: 'apply_patch',
        input: operation,
        inputText: JSON.stringify(operation),
      },
    ]);
    expect(events.slice(-2)).toEqual([
      { type: 'finish', reason: 'tool-calls' },
      { type: 'completed', finishReason: 'tool-calls' },
    ]);
  });

  it('a partial image is the image tool’s progress (tool-update); a done without added still starts it', () => {
    expect(
      decode([
        created,
        {
          type: 'response.image_generation_call.partial_image',
          item_id: 'ig_1',
          partial_image_index: 0,
          partial_image_b64: 'iVBOR',
          output_format: 'png',
        },
        item('done', {
          id: 'ig_1',
          type: 'image_generation_call',
          status: 'completed',
          result: 'iVBORw',
        }),
        completed,
      ]).slice(1, -2),
    ).toEqual([
      {
        type: 'tool-update',
        id: 'ig_1',
        name: 'image_generation',
        output: { partialImageB64: 'iVBOR', partialImageIndex: 0, outputFormat: 'png' },
      },
      { type: 'tool-start', id: 'ig_1', name: 'image_generation', providerExecuted: true },
      {
        type: 'tool-end',
        id: 'ig_1',
        name: 'image_generation',
        result: { status: 'completed', result: 'iVBORw' },
        isError: false,
        providerExecuted: true,
      },
    ]);
  });

  it('an annotation that names no source warns once and is skipped', () => {
    const annotation = (index: number) => ({
      type: 'response.output_text.annotation.added',
      item_id: 'msg_1',
      annotation_index: index,
      annotation: { type: 'container_marker', start_index: index },
    });
    expect(decode([created, annotation(0), annotation(1), completed]).slice(1, -2)).toEqual([
      {
        type: 'warning',
        code: 'unknown-event',
        message:
          'OpenAI Responses annotation type "container_marker" names no source; it was skipped.',
      },
    ]);
  });

  it('reasoning_text.done after the answer (OpenRouter) adds only what the deltas missed', () => {
    const reasoningDelta = (delta: string) => ({
      type: 'response.reasoning_text.delta',
      item_id: 'rs_1',
      content_index: 0,
      delta,
    });
    const reasoningDone = (text: string) => ({
      type: 'response.reasoning_text.done',
      item_id: 'rs_1',
      content_index: 0,
      text,
    });
    const textDelta = { type: 'response.output_text.delta', item_id: 'msg_1', delta: '4' };
    const reasoningText = (events: StreamEvent[]) =>
      events.flatMap((e) => (e.type === 'reasoning-delta' ? [e.delta] : [])).join('');
    const same = decode([
      created,
      reasoningDelta('Two'),
      reasoningDelta(' plus two'),
      textDelta,
      reasoningDone('Two plus two'),
      completed,
    ]);
    expect(reasoningText(same)).toBe('Two plus two');
    expect(same.filter((e) => e.type === 'reasoning-start')).toHaveLength(1);
    const longer = decode([
      created,
      reasoningDelta('Two'),
      textDelta,
      reasoningDone('Two plus two'),
    ]);
    expect(reasoningText(longer)).toBe('Two plus two');
  });

  it('property: however the reasoning is split and wherever its .done comes, the reasoning is the wire text once', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 8 }),
        fc.nat(8),
        fc.boolean(),
        (pieces, doneAfter, textFirst) => {
          const full = pieces.join('');
          const deltas = pieces.map((delta) => ({
            type: 'response.reasoning_text.delta',
            item_id: 'rs_1',
            content_index: 0,
            delta,
          }));
          const at = Math.min(doneAfter, deltas.length);
          const text = { type: 'response.output_text.delta', item_id: 'msg_1', delta: 'A' };
          const streamed = deltas.slice(0, at);
          const payloads = [
            created,
            ...(textFirst ? [] : streamed),
            text,
            ...(textFirst ? streamed : []),
            { type: 'response.reasoning_text.done', item_id: 'rs_1', content_index: 0, text: full },
            completed,
          ];
          const reasoning = decode(payloads)
            .flatMap((e) => (e.type === 'reasoning-delta' ? [e.delta] : []))
            .join('');
          expect(reasoning).toBe(full);
        },
      ),
      { numRuns: 300 },
    );
  });
});
