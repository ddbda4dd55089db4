import type { Emit, WarnOnce } from './decoder';
import type { BlockDelta, ContentBlock } from './anthropicWire';
import { toolCallEvent } from './toolCall';
import {
  anthropicCitation,
  isServerToolResult,
  isServerToolUse,
  serverToolEnd,
  serverToolStart,
} from './anthropicServerTools';

/** One open content block, by what the decoder does with it. */
type OpenBlock =
  | { kind: 'text'; id: string; started: boolean }
  | { kind: 'thinking'; id: string; index: number; signature: string }
  | { kind: 'redacted'; id: string; index: number; data: string }
  | { kind: 'tool'; id: string; name: string; streamed: string; startInput: unknown }
  | { kind: 'server-tool'; id: string; name: string; streamed: string; startInput: unknown }
  | { kind: 'skipped' };

/** What each delta type writes into, so a mismatched pair is reported instead of guessed. */
const DELTA_KIND: Record<string, OpenBlock['kind']> = {
  text_delta: 'text',
  thinking_delta: 'thinking',
  signature_delta: 'thinking',
  input_json_delta: 'tool',
  citations_delta: 'text',
};

/** The content blocks of one Anthropic message, by block index. */
export type AnthropicBlocks = ReturnType<typeof createAnthropicBlocks>;

/**
 * Content blocks by their `index`: `text` → text events (its `citations_delta` → `citation`),
 * `thinking` → reasoning (its `signature_delta` kept for `reasoning-end.signature`),
 * `redacted_thinking` → a reasoning entry whose end carries `redacted`, `tool_use` → tool input
 * events and one `tool-call` at its stop. Server tools: `server_tool_use` / `mcp_tool_use` →
 * one `tool-start` (`providerExecuted`, `args` = its streamed input) at its stop, every
 * `*_tool_result` → one `tool-end` (`providerExecuted`, `result` = its content) at its start.
 * Any other block type (compaction…) is skipped with one `unknown-event` warning per type; its
 * deltas go with it, unreported.
 */
export function createAnthropicBlocks(warn: WarnOnce) {
  const open = new Map<number, OpenBlock>();
  /** Server tool names by call id, for the `tool-end` of their result. */
  const serverToolNames = new Map<string, string>();

  const unknown = (emit: Emit, name: string, message: string) =>
    warn(emit, 'unknown-event', name, `${message}; it was skipped.`);

  const end = (emit: Emit, block: OpenBlock, finishToolCall: boolean) => {
    switch (block.kind) {
      case 'text':
        if (block.started) emit({ type: 'text-end', id: block.id });
        return;
      case 'thinking': {
        const { id, index, signature } = block;
        return emit(
          signature
            ? { type: 'reasoning-end', id, index, signature }
            : { type: 'reasoning-end', id, index },
        );
      }
      case 'redacted':
        return emit({
          type: 'reasoning-end',
          id: block.id,
          index: block.index,
          redacted: [block.data],
        });
      case 'tool': {
        if (!finishToolCall) return;
        let inputText = block.streamed;
        // A call whose input came whole on `content_block_start` still gets its delta.
        if (inputText === '' && hasKeys(block.startInput)) {
          inputText = JSON.stringify(block.startInput);
          emit({ type: 'tool-input-delta', id: block.id, delta: inputText });
        }
        return emit(toolCallEvent(block.id, block.name, inputText));
      }
      case 'server-tool': {
        if (!finishToolCall) return;
        const inputText =
          block.streamed || (hasKeys(block.startInput) ? JSON.stringify(block.startInput) : '');
        return emit(serverToolStart(block.id, block.name, inputText));
      }
    }
  };

  function applyDelta(emit: Emit, index: number, delta: BlockDelta) {
    const block = open.get(index);
    const kind = Object.hasOwn(DELTA_KIND, delta.type) ? DELTA_KIND[delta.type] : undefined;
    // A skipped block's known deltas go with it; an unknown delta type is still named once.
    if (block?.kind === 'skipped' && kind !== undefined) return;
    if (kind === undefined)
      return unknown(emit, delta.type, `Anthropic delta "${delta.type}" is not decoded`);
    const fits = block?.kind === kind || (kind === 'tool' && block?.kind === 'server-tool');
    if (!block || !fits) {
      const where = block ? `a ${block.kind} block` : 'no open block';
      return unknown(
        emit,
        `${delta.type}@${block?.kind ?? 'none'}`,
        `Anthropic sent "${delta.type}" for ${where} (index ${index})`,
      );
    }
    if (block.kind === 'text' && delta.text) {
      if (!block.started) emit({ type: 'text-start', id: block.id });
      block.started = true;
      emit({ type: 'text-delta', id: block.id, delta: delta.text });
    } else if (block.kind === 'thinking') {
      if (delta.signature) block.signature += delta.signature;
      if (delta.thinking)
        emit({ type: 'reasoning-delta', id: block.id, index, delta: delta.thinking, kind: 'text' });
    } else if (block.kind === 'text' && delta.citation) {
      emit(anthropicCitation(delta.citation));
    } else if (block.kind === 'tool' && delta.partial_json) {
      block.streamed += delta.partial_json;
      emit({ type: 'tool-input-delta', id: block.id, delta: delta.partial_json });
    } else if (block.kind === 'server-tool' && delta.partial_json) {
      // A server tool's input is its own business until it is whole: it goes out on tool-start.
      block.streamed += delta.partial_json;
    }
  }

  return {
    start(emit: Emit, index: number, block: ContentBlock, id: string) {
      switch (block.type) {
        case 'text':
          open.set(index, { kind: 'text', id, started: false });
          if (block.text) applyDelta(emit, index, { type: 'text_delta', text: block.text });
          return;
        case 'thinking':
          open.set(index, { kind: 'thinking', id, index, signature: block.signature ?? '' });
          emit({ type: 'reasoning-start', id, index });
          if (block.thinking)
            applyDelta(emit, index, { type: 'thinking_delta', thinking: block.thinking });
          return;
        case 'redacted_thinking':
          open.set(index, { kind: 'redacted', id, index, data: block.data ?? '' });
          return emit({ type: 'reasoning-start', id, index });
        case 'tool_use': {
          const toolId = block.id ?? id;
          const name = block.name ?? '';
          open.set(index, {
            kind: 'tool',
            id: toolId,
            name,
            streamed: '',
            startInput: block.input,
          });
          return emit({ type: 'tool-input-start', id: toolId, name, index });
        }
        default:
          if (isServerToolUse(block.type)) {
            const toolId = block.id ?? id;
            const name = block.name ?? block.type;
            serverToolNames.set(toolId, name);
            const tool = { id: toolId, name, streamed: '', startInput: block.input };
            open.set(index, { kind: 'server-tool', ...tool });
            return;
          }
          open.set(index, { kind: 'skipped' });
          if (isServerToolResult(block.type)) {
            const name = block.tool_use_id ? serverToolNames.get(block.tool_use_id) : undefined;
            return emit(serverToolEnd(block, id, name));
          }
          unknown(
            emit,
            block.type,
            `Anthropic content block "${block.type}" is not client content`,
          );
      }
    },

    delta: applyDelta,

    stop(emit: Emit, index: number) {
      const block = open.get(index);
      if (!block)
        return unknown(
          emit,
          'content_block_stop@none',
          `Anthropic stopped block ${index}, which never started`,
        );
      open.delete(index);
      end(emit, block, true);
    },

    /**
     * Ends every open block in index order. Tool calls still open become `tool-call`s only when
     * the message ended (`message_stop`); after an error or a cut-off body half a call must not
     * run, so it is dropped (its deltas were already delivered).
     */
    endAll(emit: Emit, finishToolCalls: boolean) {
      const blocks = [...open.entries()].sort(([a], [b]) => a - b);
      open.clear();
      for (const [, block] of blocks) end(emit, block, finishToolCalls);
    },
  };
}

function hasKeys(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.keys(value).length > 0;
}
