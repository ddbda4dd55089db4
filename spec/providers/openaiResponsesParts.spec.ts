import type { StreamEvent } from '../../src/events';
import { createOpenAIResponsesDecoder } from '../../src/providers/openaiResponses';
import { decodePayloads } from './decoderSupport';

// The text, reasoning and tool-call parts of the Responses decoder, through the decoder itself.

/** Runs the pure decoder over payload objects (one SSE message each) and returns what it emitted. */
const decode = (payloads: object[], options?: { complete?: boolean }): StreamEvent[] =>
  decodePayloads(createOpenAIResponsesDecoder(), payloads, options);

const created = { type: 'response.created', response: { id: 'resp_1', model: 'm' } };
const start = { type: 'response-start', provider: 'openai-responses', id: 'resp_1', model: 'm' };
const completed = { type: 'response.completed', response: { id: 'resp_1' } };
const stop = [
  { type: 'finish', reason: 'stop' },
  { type: 'completed', finishReason: 'stop' },
];
const toolCallsFinish = [
  { type: 'finish', reason: 'tool-calls' },
  { type: 'completed', finishReason: 'tool-calls' },
];
const textDelta = (itemId: string, delta: string, contentIndex = 0) => ({
  type: 'response.output_text.delta',
  item_id: itemId,
  content_index: contentIndex,
  delta,
});
const textDone = (itemId: string, text: string, contentIndex = 0) => ({
  type: 'response.output_text.done',
  item_id: itemId,
  content_index: contentIndex,
  text,
});
const summaryDelta = (itemId: string, index: number, delta: string) => ({
  type: 'response.reasoning_summary_text.delta',
  item_id: itemId,
  summary_index: index,
  delta,
});
const summaryDone = (itemId: string, index: number, text: string) => ({
  type: 'response.reasoning_summary_text.done',
  item_id: itemId,
  summary_index: index,
  text,
});
const itemAdded = (item: object, outputIndex = 0) => ({
  type: 'response.output_item.added',
  output_index: outputIndex,
  item,
});
const itemDone = (item: object, outputIndex = 0) => ({
  type: 'response.output_item.done',
  output_index: outputIndex,
  item,
});
const argumentsDelta = (itemId: string, delta: string) => ({
  type: 'response.function_call_arguments.delta',
  item_id: itemId,
  delta,
});
const argumentsDone = (itemId: string, args: string) => ({
  type: 'response.function_call_arguments.done',
  item_id: itemId,
  arguments: args,
});

describe('Responses parts: text', () => {
  it('output_text.done adds what the deltas missed, and the text-end carries the full text', () => {
    expect(decode([created, textDelta('msg_1', 'Hel'), textDone('msg_1', 'Hello')])).toEqual([
      start,
      { type: 'text-start', id: 'msg_1' },
      { type: 'text-delta', id: 'msg_1', delta: 'Hel' },
      { type: 'text-delta', id: 'msg_1', delta: 'lo' },
      { type: 'text-end', id: 'msg_1', text: 'Hello' },
    ]);
  });

  it('a text part ended by output_item.done has no `text` field at all', () => {
    const events = decode([
      created,
      textDelta('msg_1', 'Hi'),
      itemDone({ id: 'msg_1', type: 'message' }),
    ]);
    expect(events.at(-1)).toStrictEqual({ type: 'text-end', id: 'msg_1' });
  });

  it('output_item.done of a message ends its text before the next reasoning starts', () => {
    expect(
      decode([
        created,
        textDelta('msg_1', 'Hi'),
        itemDone({ id: 'msg_1', type: 'message' }),
        summaryDelta('rs_2', 0, 'Next.'),
      ]),
    ).toEqual([
      start,
      { type: 'text-start', id: 'msg_1' },
      { type: 'text-delta', id: 'msg_1', delta: 'Hi' },
      { type: 'text-end', id: 'msg_1' },
      { type: 'reasoning-start', id: 'rs_2:0', index: 0 },
      { type: 'reasoning-delta', id: 'rs_2:0', index: 0, delta: 'Next.', kind: 'summary' },
      { type: 'reasoning-end', id: 'rs_2:0', index: 0 },
    ]);
  });

  it('an empty output_text.done with nothing open emits nothing', () => {
    expect(decode([created, textDone('msg_1', ''), completed])).toEqual([start, ...stop]);
  });

  it('an empty done of another content part leaves the open part open, without a text', () => {
    const events = decode([created, textDelta('msg_1', 'A'), textDone('msg_1', '', 1), completed]);
    expect(events).toEqual([
      start,
      { type: 'text-start', id: 'msg_1' },
      { type: 'text-delta', id: 'msg_1', delta: 'A' },
      { type: 'text-end', id: 'msg_1' },
      ...stop,
    ]);
    expect(events[3]).toStrictEqual({ type: 'text-end', id: 'msg_1' });
  });
});

describe('Responses parts: reasoning', () => {
  it('reasoning_summary_text.done alone delivers the whole summary', () => {
    expect(decode([created, summaryDone('rs_1', 0, 'Plan.')])).toEqual([
      start,
      { type: 'reasoning-start', id: 'rs_1:0', index: 0 },
      { type: 'reasoning-delta', id: 'rs_1:0', index: 0, delta: 'Plan.', kind: 'summary' },
      { type: 'reasoning-end', id: 'rs_1:0', index: 0 },
    ]);
  });

  it('a summary done for the next index while another is open delivers its whole text', () => {
    expect(
      decode([created, summaryDelta('rs_1', 0, 'One.'), summaryDone('rs_1', 1, 'Two.')]).slice(1),
    ).toEqual([
      { type: 'reasoning-start', id: 'rs_1:0', index: 0 },
      { type: 'reasoning-delta', id: 'rs_1:0', index: 0, delta: 'One.', kind: 'summary' },
      { type: 'reasoning-end', id: 'rs_1:0', index: 0 },
      { type: 'reasoning-start', id: 'rs_1:1', index: 1 },
      { type: 'reasoning-delta', id: 'rs_1:1', index: 1, delta: 'Two.', kind: 'summary' },
      { type: 'reasoning-end', id: 'rs_1:1', index: 1 },
    ]);
  });

  it('encrypted_content seen only on output_item.added still ends the entry as redacted', () => {
    expect(
      decode([
        created,
        itemAdded({ id: 'rs_1', type: 'reasoning', encrypted_content: 'gAAA-added' }),
        summaryDelta('rs_1', 0, 'Plan.'),
        itemDone({ id: 'rs_1', type: 'reasoning' }),
      ]),
    ).toEqual([
      start,
      { type: 'reasoning-start', id: 'rs_1:0', index: 0 },
      { type: 'reasoning-delta', id: 'rs_1:0', index: 0, delta: 'Plan.', kind: 'summary' },
      { type: 'reasoning-end', id: 'rs_1:0', index: 0, redacted: ['gAAA-added'] },
    ]);
  });

  it('a reasoning item with neither summary nor encrypted content emits nothing', () => {
    expect(
      decode([
        created,
        itemAdded({ id: 'rs_1', type: 'reasoning' }),
        itemDone({ id: 'rs_1', type: 'reasoning', summary: [] }),
        completed,
      ]),
    ).toEqual([start, ...stop]);
  });
});

describe('Responses parts: tool calls', () => {
  const call = { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'add' };

  it('arguments.done completes streamed arguments even when output_item.done never comes', () => {
    expect(
      decode([
        created,
        itemAdded(call),
        argumentsDelta('fc_1', '{"a":'),
        argumentsDone('fc_1', '{"a":1}'),
        completed,
      ]),
    ).toEqual([
      start,
      { type: 'tool-input-start', id: 'call_1', name: 'add', index: 0 },
      { type: 'tool-input-delta', id: 'call_1', delta: '{"a":' },
      { type: 'tool-input-delta', id: 'call_1', delta: '1}' },
      { type: 'tool-call', id: 'call_1', name: 'add', input: { a: 1 }, inputText: '{"a":1}' },
      ...toolCallsFinish,
    ]);
  });

  it('an empty arguments delta and one after the call is final deliver nothing', () => {
    expect(
      decode([
        created,
        itemAdded(call),
        argumentsDelta('fc_1', ''),
        argumentsDone('fc_1', '{}'),
        argumentsDelta('fc_1', ' '),
        completed,
      ]),
    ).toEqual([
      start,
      { type: 'tool-input-start', id: 'call_1', name: 'add', index: 0 },
      { type: 'tool-input-delta', id: 'call_1', delta: '{}' },
      { type: 'tool-call', id: 'call_1', name: 'add', input: {}, inputText: '{}' },
      ...toolCallsFinish,
    ]);
  });

  it('a call item without call_id, id or name is still a call: id `call:<output_index>`, name ""', () => {
    expect(
      decode([created, itemDone({ type: 'function_call', arguments: '{}' }, 3), completed]),
    ).toEqual([
      start,
      { type: 'tool-input-start', id: 'call:3', name: '', index: 3 },
      { type: 'tool-input-delta', id: 'call:3', delta: '{}' },
      { type: 'tool-call', id: 'call:3', name: '', input: {}, inputText: '{}' },
      ...toolCallsFinish,
    ]);
  });

  it('arguments for a call never announced warn once per event type and are skipped', () => {
    const message = (type: string) =>
      `OpenAI Responses sent "${type}" for a function call it never announced; skipped.`;
    expect(
      decode([
        created,
        argumentsDelta('fc_9', '{"a"'),
        argumentsDelta('fc_9', ':1}'),
        argumentsDone('fc_9', '{"a":1}'),
        argumentsDone('fc_9', '{"a":1}'),
        completed,
      ]),
    ).toEqual([
      start,
      {
        type: 'warning',
        code: 'unknown-event',
        message: message('response.function_call_arguments.delta'),
      },
      {
        type: 'warning',
        code: 'unknown-event',
        message: message('response.function_call_arguments.done'),
      },
      ...stop,
    ]);
  });
});

describe('Responses parts: output items it does not decode', () => {
  it('each unknown item type warns once, whether seen on .added or .done', () => {
    const warning = (type: string) => ({
      type: 'warning',
      code: 'unknown-event',
      message: `OpenAI Responses output item type "${type}" is not decoded; it was skipped.`,
    });
    expect(
      decode([
        created,
        itemAdded({ id: 'cu_1', type: 'computer_call' }),
        itemDone({ id: 'cu_1', type: 'computer_call' }),
        itemDone({ id: 'sh_1', type: 'local_shell_call' }, 1),
        completed,
      ]),
    ).toEqual([start, warning('computer_call'), warning('local_shell_call'), ...stop]);
  });
});
