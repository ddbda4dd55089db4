import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { StreamEvent } from '../../src/events';
import { streamEvents } from '../../src/streamEvents';
import { chunksOf, collect, splitAt } from '../helpers/bytes';

// A paused server-tool turn end to end: server tools, a citation, pause_turn, through the
// bytes (fixtures/anthropic/server-tools-citations-pause-turn.sse), however they are cut.

const body = readFileSync(
  join(__dirname, '../../fixtures/anthropic/server-tools-citations-pause-turn.sse'),
);
const decodeBody = (chunks: Uint8Array[]) =>
  collect(streamEvents(chunksOf(chunks), { provider: 'anthropic' }));

const expected: StreamEvent[] = [
  { type: 'response-start', provider: 'anthropic', id: 'msg_fx3', model: 'claude-sonnet-4-6' },
  {
    type: 'tool-start',
    id: 'srvtoolu_fx3a',
    name: 'web_search',
    args: { query: 'rxjs 8' },
    providerExecuted: true,
  },
  {
    type: 'tool-end',
    id: 'srvtoolu_fx3a',
    name: 'web_search',
    result: [
      {
        type: 'web_search_result',
        title: 'RxJS',
        url: 'https://rxjs.dev',
        encrypted_content: 'EqgfCioIARgB',
        page_age: null,
      },
    ],
    isError: false,
    providerExecuted: true,
  },
  {
    type: 'citation',
    url: 'https://rxjs.dev',
    title: 'RxJS',
    text: 'RxJS 8 is the next major version. ',
  },
  { type: 'text-start', id: 'msg_fx3:2' },
  { type: 'text-delta', id: 'msg_fx3:2', delta: 'RxJS 8 is ' },
  { type: 'text-delta', id: 'msg_fx3:2', delta: 'the next major.' },
  { type: 'text-end', id: 'msg_fx3:2' },
  {
    type: 'tool-start',
    id: 'srvtoolu_fx3b',
    name: 'web_fetch',
    args: { url: 'https://rxjs.dev/changelog' },
    providerExecuted: true,
  },
  {
    type: 'tool-end',
    id: 'srvtoolu_fx3b',
    name: 'web_fetch',
    result: { type: 'web_fetch_tool_result_error', error_code: 'url_not_accessible' },
    isError: true,
    providerExecuted: true,
  },
  { type: 'usage', inputTokens: 900, outputTokens: 120 },
  { type: 'finish', reason: 'other', raw: 'pause_turn' },
  {
    type: 'incomplete',
    reason: 'pause-turn',
    message:
      'Anthropic paused the turn (stop_reason pause_turn) during a long server tool run; send the response back as the assistant turn to let the model continue.',
  },
];

describe('decodeAnthropic: a paused server-tool turn, from its bytes', () => {
  it('server tools with their input and results, the citation before its text, incomplete pause-turn', async () => {
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
});
