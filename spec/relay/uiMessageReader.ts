import type { UIMessage } from 'ai';
import { aiSdkMajors, type AISdkMajor } from '../helpers/aiSdkMajors';
import type { StreamEvent } from '../../src/events';
import { UNFINISHED_TOOL_INPUT } from '../../src/relay/ui/uiMessageFramer';
import type { Turn } from '../../src/turn/turnBuilder';

/**
 * The fields each chunk type may carry, copied from `uiMessageChunkSchema` of the installed
 * `ai` 6 (node_modules/ai/dist/index.mjs, "ui-message-chunks.ts"); `ai` 7 accepts each of
 * them too (its `UIMessageChunk` adds fields, e.g. `citations` on `text-end`, and removes
 * none). The schema is loose, so this is what proves llm-rx sends no field either major does
 * not know.
 */
const CHUNK_FIELDS: Record<string, string[]> = {
  start: ['messageId', 'messageMetadata'],
  'start-step': [],
  'text-start': ['id', 'providerMetadata'],
  'text-delta': ['id', 'delta', 'providerMetadata'],
  'text-end': ['id', 'providerMetadata'],
  'reasoning-start': ['id', 'providerMetadata'],
  'reasoning-delta': ['id', 'delta', 'providerMetadata'],
  'reasoning-end': ['id', 'providerMetadata'],
  'source-url': ['sourceId', 'url', 'title', 'providerMetadata'],
  'tool-input-start': [
    'toolCallId',
    'toolName',
    'inputEncoding',
    'providerExecuted',
    'providerMetadata',
    'toolMetadata',
    'dynamic',
    'title',
  ],
  'tool-input-delta': ['toolCallId', 'inputTextDelta'],
  'tool-input-available': [
    'toolCallId',
    'toolName',
    'input',
    'providerExecuted',
    'providerMetadata',
    'toolMetadata',
    'dynamic',
    'title',
  ],
  'tool-input-error': [
    'toolCallId',
    'toolName',
    'input',
    'providerExecuted',
    'providerMetadata',
    'toolMetadata',
    'dynamic',
    'errorText',
    'title',
  ],
  'tool-output-available': [
    'toolCallId',
    'output',
    'providerExecuted',
    'providerMetadata',
    'toolMetadata',
    'dynamic',
    'preliminary',
  ],
  'tool-output-error': [
    'toolCallId',
    'errorText',
    'providerExecuted',
    'providerMetadata',
    'toolMetadata',
    'dynamic',
  ],
  'finish-step': [],
  finish: ['finishReason', 'messageMetadata'],
  abort: ['reason'],
  error: ['errorText'],
};

/** Fields of `chunk` that its type does not have in the protocol (empty when it is exact). */
export function unknownFields(chunk: Record<string, unknown>): string[] {
  const allowed = CHUNK_FIELDS[chunk.type as string];
  if (!allowed) return [`type:${String(chunk.type)}`];
  return Object.keys(chunk).filter((key) => key !== 'type' && !allowed.includes(key));
}

/** What a reader made of one UI message stream. */
export interface ReadResult {
  /** The last message snapshot (undefined when none was written). */
  message?: UIMessage;
  /** Errors the reader reported (framing errors, schema failures); [] when all went well. */
  errors: string[];
  /** Every chunk, as parsed from the wire. */
  chunks: Array<Record<string, unknown>>;
}

/**
 * Reads a chunk stream the way `useChat`'s DefaultChatTransport does (schema-validated), into
 * `readUIMessageStream` of one AI SDK major (ai 6 unless told), so any framing error ends the
 * read and is reported rather than swallowed.
 */
export async function readChunks(
  chunks: ReadableStream<unknown>,
  message?: UIMessage,
  major: AISdkMajor = aiSdkMajors[0],
): Promise<ReadResult> {
  const { readUIMessageStream, uiMessageChunkSchema } = major;
  const errors: string[] = [];
  const seen: Array<Record<string, unknown>> = [];
  const validated = chunks.pipeThrough(
    new TransformStream<unknown, any>({
      async transform(chunk, controller) {
        seen.push(chunk as Record<string, unknown>);
        const result = await uiMessageChunkSchema().validate!(chunk);
        if (!result.success) errors.push(`schema: ${result.error.message}`);
        const extra = unknownFields(chunk as Record<string, unknown>);
        if (extra.length > 0)
          errors.push(`extra fields ${extra.join(', ')} in ${JSON.stringify(chunk)}`);
        controller.enqueue(chunk);
      },
    }),
  );
  let last: UIMessage | undefined;
  // An `error` chunk is the protocol's way to report a failed stream: the reader hands it to
  // onError (useChat shows it). Anything else reaching onError is a framing error.
  const reported: string[] = [];
  try {
    for await (const snapshot of readUIMessageStream({
      stream: validated,
      message,
      onError: (error) => reported.push((error as Error).message),
    })) {
      last = snapshot;
    }
  } catch (error) {
    errors.push(`thrown: ${(error as Error).message}`);
  }
  const sentErrors = seen.filter((chunk) => chunk.type === 'error').map((c) => c.errorText);
  expectSame(reported, sentErrors, errors);
  return { message: last, errors, chunks: seen };
}

/** Reads a `toUIMessageStreamResponse` body as useChat would: SSE, JSON, schema, reader. */
export async function readResponse(
  response: Response,
  major: AISdkMajor = aiSdkMajors[0],
): Promise<ReadResult & { done: boolean }> {
  const { parseJsonEventStream, uiMessageChunkSchema } = major;
  const text = await response.text();
  const done = text.endsWith('data: [DONE]\n\n');
  const body = new Response(text).body!;
  const parsed = parseJsonEventStream({ stream: body, schema: uiMessageChunkSchema }).pipeThrough(
    new TransformStream<any, unknown>({
      transform(result, controller) {
        controller.enqueue(
          result.success ? result.value : { type: 'unparsed', raw: result.rawValue },
        );
      },
    }),
  );
  return { ...(await readChunks(parsed, undefined, major)), done };
}

/** The parts of a message a turn is compared on: text, reasoning per entry, tool parts. */
export interface MessageSummary {
  text: string;
  reasoning: string[];
  tools: Array<{ id: string; name: string; state: string; input?: unknown; errorText?: string }>;
}

/** The summary of a UI message: text parts joined, reasoning parts merged by id, tool parts. */
export function summaryOfMessage(message: UIMessage | undefined): MessageSummary {
  const summary: MessageSummary = { text: '', reasoning: [], tools: [] };
  const reasoningById = new Map<string, number>();
  for (const part of message?.parts ?? []) {
    if (part.type === 'text') summary.text += part.text;
    else if (part.type === 'reasoning') {
      const id = (part as { id?: string }).id ?? String(reasoningById.size);
      const at = reasoningById.get(id);
      if (at === undefined) {
        reasoningById.set(id, summary.reasoning.length);
        summary.reasoning.push(part.text);
      } else summary.reasoning[at] += part.text;
    } else if (part.type.startsWith('tool-')) {
      const tool = part as any;
      const entry: MessageSummary['tools'][number] = {
        id: tool.toolCallId,
        name: part.type.slice('tool-'.length),
        state: tool.state,
        input: tool.state === 'output-error' ? (tool.rawInput ?? tool.input) : tool.input,
      };
      if (tool.errorText !== undefined) entry.errorText = tool.errorText;
      summary.tools.push(entry);
    }
  }
  return summary;
}

/**
 * What the UI message should hold for a turn: its text, its reasoning entries (all of them, or
 * none with reasoning 'drop'), its tool calls, and the tool inputs the events started that never
 * became a tool call (they end as tool-input-error; collectTurn has no place for them).
 */
export function summaryOfTurn(
  turn: Turn,
  events: StreamEvent[],
  reasoning: 'send' | 'drop' = 'send',
): MessageSummary {
  const called = new Set(turn.toolCalls.map((call) => call.id));
  const unfinished = new Map<string, { name: string; text: string }>();
  for (const event of events) {
    if (event.type === 'tool-input-start' && !called.has(event.id) && !unfinished.has(event.id))
      unfinished.set(event.id, { name: event.name, text: '' });
    if (event.type === 'tool-input-delta' && unfinished.has(event.id))
      unfinished.get(event.id)!.text += event.delta;
  }
  // Tools the provider ran itself are not tool calls of the turn; their parts come from events.
  const providerTools = new Map<string, MessageSummary['tools'][number]>();
  for (const event of events) {
    if (event.type === 'tool-start' && event.providerExecuted && event.name !== undefined)
      providerTools.set(event.id, {
        id: event.id,
        name: event.name,
        state: 'input-available',
        input: event.args ?? null,
      });
    if (event.type === 'tool-end' && event.providerExecuted) {
      const tool = providerTools.get(event.id);
      if (!tool) continue;
      tool.state = event.isError ? 'output-error' : 'output-available';
      if (event.isError)
        tool.errorText =
          typeof event.result === 'string' ? event.result : JSON.stringify(event.result);
    }
  }
  const order = [
    ...new Set(
      events.flatMap((e) =>
        e.type === 'tool-input-start' ||
        e.type === 'tool-call' ||
        (e.type === 'tool-start' && providerTools.has(e.id))
          ? [e.id]
          : [],
      ),
    ),
  ];
  const tools = order.map((id) => {
    const providerTool = providerTools.get(id);
    if (providerTool) return providerTool;
    const call = turn.toolCalls.find((c) => c.id === id);
    if (!call) {
      const open = unfinished.get(id)!;
      return {
        id,
        name: open.name,
        state: 'output-error',
        input: open.text,
        errorText: UNFINISHED_TOOL_INPUT,
      };
    }
    return call.error === undefined
      ? { id, name: call.name, state: 'input-available', input: call.input }
      : {
          id,
          name: call.name,
          state: 'output-error',
          input: call.inputText,
          errorText: call.error,
        };
  });
  return {
    text: turn.text,
    reasoning: reasoning === 'drop' ? [] : turn.reasoning.map((entry) => entry.text),
    tools,
  };
}

/** Records, into `errors`, every reported error that is not one of the error chunks sent. */
function expectSame(reported: string[], sent: unknown[], errors: string[]): void {
  const unmatched = [...sent];
  for (const text of reported) {
    const at = unmatched.indexOf(text);
    if (at === -1) errors.push(`reader: ${text}`);
    else unmatched.splice(at, 1);
  }
}
