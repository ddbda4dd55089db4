import * as z from 'zod/mini';
import type { CitationEvent, ToolEndEvent, ToolStartEvent } from '../events';

// What Anthropic runs itself and what it cites: the server tools (`server_tool_use`,
// `mcp_tool_use` and every `*_tool_result` block) and the `citation` of a `citations_delta`.

/**
 * One citation of a `citations_delta`, as far as llm-rx reads it: web search
 * (`web_search_result_location`: url, title), documents (`char_location`, `page_location`,
 * `content_block_location`: document title and the char / page / block range) and search
 * results (`search_result_location`: source, title, block range). Any other type is read the same.
 */
export const AnthropicCitation = z.looseObject({
  type: z.optional(z.string()),
  cited_text: z.nullish(z.string()),
  url: z.nullish(z.string()),
  source: z.nullish(z.string()),
  title: z.nullish(z.string()),
  document_title: z.nullish(z.string()),
  start_char_index: z.nullish(z.number()),
  end_char_index: z.nullish(z.number()),
  start_page_number: z.nullish(z.number()),
  end_page_number: z.nullish(z.number()),
  start_block_index: z.nullish(z.number()),
  end_block_index: z.nullish(z.number()),
});
export type AnthropicCitation = z.infer<typeof AnthropicCitation>;

/**
 * A `citations_delta`'s citation as a `citation` event: `url` (or a search result's `source`),
 * `title` (or `document_title`), `text` = `cited_text`, `start` / `end` = the char, page or block
 * range in the cited source, whichever the location type has. Fields the wire leaves out or sets
 * to null are left out. The encrypted index of a web citation stays on the wire (Anthropic needs
 * it only when the answer is sent back, and it sends the whole block again then).
 */
export function anthropicCitation(citation: AnthropicCitation): CitationEvent {
  const event: CitationEvent = { type: 'citation' };
  const url = citation.url ?? citation.source;
  const title = citation.title ?? citation.document_title;
  const start =
    citation.start_char_index ?? citation.start_page_number ?? citation.start_block_index;
  const end = citation.end_char_index ?? citation.end_page_number ?? citation.end_block_index;
  if (url != null) event.url = url;
  if (title != null) event.title = title;
  if (citation.cited_text != null) event.text = citation.cited_text;
  if (start != null) event.start = start;
  if (end != null) event.end = end;
  return event;
}

/** Block types of a tool call the provider runs itself (its input streams like a client call's). */
export function isServerToolUse(blockType: string): boolean {
  return blockType === 'server_tool_use' || blockType === 'mcp_tool_use';
}

/** Block types of a server tool's result: `web_search_tool_result`, `mcp_tool_result`, … */
export function isServerToolResult(blockType: string): boolean {
  return blockType.endsWith('_tool_result');
}

/** The `tool-start` of a server tool whose input is complete: `args` parsed, else the raw text. */
export function serverToolStart(id: string, name: string, inputText: string): ToolStartEvent {
  let args: unknown = {};
  if (inputText.trim() !== '') {
    try {
      args = JSON.parse(inputText);
    } catch {
      args = inputText;
    }
  }
  return { type: 'tool-start', id, name, args, providerExecuted: true };
}

/** A result block as far as llm-rx reads it: whose call it answers, its content, its error flag. */
export interface ServerToolResultBlock {
  type: string;
  tool_use_id?: string | null;
  content?: unknown;
  is_error?: boolean | null;
}

/**
 * The `tool-end` of a server tool's result block: `result` is its `content` as sent (encrypted
 * search results included, so nothing opaque is lost); `isError` when the content is an
 * `*_error` object (`web_search_tool_result_error`, `bash_code_execution_tool_result_error`…)
 * or the block says `is_error` (MCP).
 */
export function serverToolEnd(
  block: ServerToolResultBlock,
  fallbackId: string,
  name: string | undefined,
): ToolEndEvent {
  const content = block.content;
  const contentType = (content as { type?: unknown } | null | undefined)?.type;
  const isError =
    block.is_error === true || (typeof contentType === 'string' && contentType.endsWith('_error'));
  const event: ToolEndEvent = {
    type: 'tool-end',
    id: block.tool_use_id ?? fallbackId,
    result: content ?? null,
    isError,
    providerExecuted: true,
  };
  if (name !== undefined) event.name = name;
  return event;
}
