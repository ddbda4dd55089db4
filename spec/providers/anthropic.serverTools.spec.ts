import type { StreamEvent } from '../../src/events';
import { createAnthropicDecoder } from '../../src/providers/anthropic';
import { decodePayloads } from './decoderSupport';

// decodeAnthropic's citations (every location type) and the tools Anthropic runs itself.

const messageStart = { type: 'message_start', message: { id: 'msg_1', model: 'claude' } };
const decode = (payloads: object[], complete = true): StreamEvent[] =>
  decodePayloads(createAnthropicDecoder(), [messageStart, ...payloads], {
    named: true,
    complete,
  }).slice(1);
const blockStart = (index: number, block: object) => ({
  type: 'content_block_start',
  index,
  content_block: block,
});
const delta = (index: number, fields: object) => ({
  type: 'content_block_delta',
  index,
  delta: fields,
});
const stop = (index: number) => ({ type: 'content_block_stop', index });
const cite = (citation: object) => delta(0, { type: 'citations_delta', citation });

describe('decodeAnthropic citations', () => {
  it.each([
    [
      'web_search_result_location',
      { url: 'https://a.example', title: 'A', cited_text: 'quoted', encrypted_index: 'Eo8' },
      { url: 'https://a.example', title: 'A', text: 'quoted' },
    ],
    [
      'char_location',
      {
        document_index: 0,
        document_title: 'Doc',
        cited_text: 'q',
        start_char_index: 3,
        end_char_index: 9,
      },
      { title: 'Doc', text: 'q', start: 3, end: 9 },
    ],
    [
      'page_location',
      {
        document_index: 1,
        document_title: null,
        cited_text: 'p',
        start_page_number: 2,
        end_page_number: 4,
      },
      { text: 'p', start: 2, end: 4 },
    ],
    [
      'content_block_location',
      { document_title: 'Blocks', cited_text: 'b', start_block_index: 0, end_block_index: 1 },
      { title: 'Blocks', text: 'b', start: 0, end: 1 },
    ],
    [
      'search_result_location',
      {
        source: 'https://kb.example/1',
        title: 'KB',
        cited_text: 's',
        start_block_index: 1,
        end_block_index: 2,
      },
      { url: 'https://kb.example/1', title: 'KB', text: 's', start: 1, end: 2 },
    ],
  ])('%s → citation', (type, fields, citation) => {
    expect(
      decode([
        blockStart(0, { type: 'text', text: '', citations: [] }),
        cite({ type, ...fields }),
        delta(0, { type: 'text_delta', text: 'It is so.' }),
        stop(0),
      ]),
    ).toEqual([
      { type: 'citation', ...citation },
      { type: 'text-start', id: 'msg_1:0' },
      { type: 'text-delta', id: 'msg_1:0', delta: 'It is so.' },
      { type: 'text-end', id: 'msg_1:0' },
    ]);
  });
});

describe('decodeAnthropic server tools', () => {
  it('an error result is isError; MCP tool use and its is_error result; a result for an unknown call has no name', () => {
    expect(
      decode([
        blockStart(0, {
          type: 'server_tool_use',
          id: 'srv_1',
          name: 'web_fetch',
          input: { url: 'https://x' },
        }),
        stop(0),
        blockStart(1, {
          type: 'web_fetch_tool_result',
          tool_use_id: 'srv_1',
          content: { type: 'web_fetch_tool_result_error', error_code: 'url_not_accessible' },
        }),
        stop(1),
        blockStart(2, {
          type: 'mcp_tool_use',
          id: 'mcp_1',
          name: 'ask',
          server_name: 'wiki',
          input: {},
        }),
        delta(2, { type: 'input_json_delta', partial_json: '{"q":' }),
        delta(2, { type: 'input_json_delta', partial_json: '"x"}' }),
        stop(2),
        blockStart(3, {
          type: 'mcp_tool_result',
          tool_use_id: 'mcp_1',
          is_error: true,
          content: [{ type: 'text', text: 'down' }],
        }),
        stop(3),
        blockStart(4, {
          type: 'code_execution_tool_result',
          tool_use_id: 'srv_9',
          content: { type: 'code_execution_result', stdout: '1' },
        }),
        stop(4),
      ]),
    ).toEqual([
      {
        type: 'tool-start',
        id: 'srv_1',
        name: 'web_fetch',
        args: { url: 'https://x' },
        providerExecuted: true,
      },
      {
        type: 'tool-end',
        id: 'srv_1',
        name: 'web_fetch',
        result: { type: 'web_fetch_tool_result_error', error_code: 'url_not_accessible' },
        isError: true,
        providerExecuted: true,
      },
      { type: 'tool-start', id: 'mcp_1', name: 'ask', args: { q: 'x' }, providerExecuted: true },
      {
        type: 'tool-end',
        id: 'mcp_1',
        name: 'ask',
        result: [{ type: 'text', text: 'down' }],
        isError: true,
        providerExecuted: true,
      },
      {
        type: 'tool-end',
        id: 'srv_9',
        result: { type: 'code_execution_result', stdout: '1' },
        isError: false,
        providerExecuted: true,
      },
    ]);
  });

  it('a server tool whose input never completed (cut-off body) starts nothing; input that is not JSON is kept as text', () => {
    const cut = decode(
      [
        blockStart(0, { type: 'server_tool_use', id: 'srv_1', name: 'web_search', input: {} }),
        delta(0, { type: 'input_json_delta', partial_json: '{"query":"ha' }),
      ],
      true,
    );
    expect(cut.filter((e) => e.type === 'tool-start')).toEqual([]);
    expect(
      decode([
        blockStart(0, { type: 'server_tool_use', id: 'srv_2', name: 'web_search', input: {} }),
        delta(0, { type: 'input_json_delta', partial_json: '{"query":' }),
        stop(0),
      ]),
    ).toEqual([
      {
        type: 'tool-start',
        id: 'srv_2',
        name: 'web_search',
        args: '{"query":',
        providerExecuted: true,
      },
    ]);
  });
});
