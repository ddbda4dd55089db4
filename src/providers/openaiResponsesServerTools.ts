import * as z from 'zod/mini';
import type { CitationEvent, ToolEndEvent, ToolStartEvent, ToolUpdateEvent } from '../events';

// What the Responses API runs itself (web search, file search, MCP, code interpreter, image
// generation) and what its text cites (`output_text.annotation.added`).

/** Output item types of a tool OpenAI runs on its side: never a client tool call. */
const SERVER_TOOL_ITEMS = new Set([
  'web_search_call',
  'file_search_call',
  'mcp_call',
  'mcp_list_tools',
  'code_interpreter_call',
  'image_generation_call',
]);

/** True for an output item OpenAI runs itself. */
export function isServerToolItem(itemType: string): boolean {
  return SERVER_TOOL_ITEMS.has(itemType);
}

/**
 * Progress events of server tools: the output item's `done` carries all they say (the query,
 * the arguments, the outputs), so they add nothing. The apply-patch diff streams the same way:
 * its `output_item.done` carries the whole operation.
 */
export const SERVER_TOOL_PROGRESS = new Set([
  'response.web_search_call.in_progress',
  'response.web_search_call.searching',
  'response.web_search_call.completed',
  'response.file_search_call.in_progress',
  'response.file_search_call.searching',
  'response.file_search_call.completed',
  'response.mcp_call.in_progress',
  'response.mcp_call.completed',
  'response.mcp_call.failed',
  'response.mcp_call_arguments.delta',
  'response.mcp_call_arguments.done',
  'response.mcp_list_tools.in_progress',
  'response.mcp_list_tools.completed',
  'response.mcp_list_tools.failed',
  'response.code_interpreter_call.in_progress',
  'response.code_interpreter_call.interpreting',
  'response.code_interpreter_call.completed',
  'response.code_interpreter_call_code.delta',
  'response.code_interpreter_call_code.done',
  'response.image_generation_call.in_progress',
  'response.image_generation_call.generating',
  'response.image_generation_call.completed',
  'response.apply_patch_call_operation_diff.delta',
  'response.apply_patch_call_operation_diff.done',
]);

/** A server tool item as far as llm-rx reads it (everything else rides along in `result`). */
export interface ServerToolItem {
  type: string;
  id?: string;
  name?: string;
  status?: string | null;
  error?: unknown;
  [field: string]: unknown;
}

/** `mcp_call` → the MCP tool's own name; any other → its type without `_call` (`web_search`). */
export function serverToolName(item: ServerToolItem): string {
  if (item.type === 'mcp_call' && typeof item.name === 'string') return item.name;
  return item.type.replace(/_call$/, '');
}

/** `output_item.added` of a server tool: it runs now; its input comes with its `done`. */
export function serverToolStart(item: ServerToolItem, id: string): ToolStartEvent {
  return { type: 'tool-start', id, name: serverToolName(item), providerExecuted: true };
}

/**
 * `output_item.done` of a server tool: `result` is the item as sent without `id` and `type`
 * (a search's `action` and sources, an MCP call's `arguments` / `output`, listed tools,
 * code interpreter `outputs`, a generated image's `result`), so nothing is lost; `isError` when
 * its `status` is `failed` or it carries an `error`.
 */
export function serverToolEnd(item: ServerToolItem, id: string): ToolEndEvent {
  const { id: _id, type: _type, ...result } = item;
  const isError = item.status === 'failed' || (item.error != null && item.error !== '');
  return {
    type: 'tool-end',
    id,
    name: serverToolName(item),
    result,
    isError,
    providerExecuted: true,
  };
}

/** `response.image_generation_call.partial_image`. */
export const PartialImageEvent = z.looseObject({
  item_id: z.string(),
  partial_image_index: z.optional(z.number()),
  partial_image_b64: z.string(),
  output_format: z.optional(z.string()),
});

/** A partial image as the running image tool's progress (`tool-update`), in wire order. */
export function partialImageUpdate(event: z.infer<typeof PartialImageEvent>): ToolUpdateEvent {
  const output: Record<string, unknown> = { partialImageB64: event.partial_image_b64 };
  if (event.partial_image_index !== undefined) output.partialImageIndex = event.partial_image_index;
  if (event.output_format !== undefined) output.outputFormat = event.output_format;
  return { type: 'tool-update', id: event.item_id, name: 'image_generation', output };
}

/** `response.output_text.annotation.added`. */
export const AnnotationAddedEvent = z.looseObject({
  annotation: z.looseObject({
    type: z.string(),
    url: z.nullish(z.string()),
    title: z.nullish(z.string()),
    filename: z.nullish(z.string()),
    file_id: z.nullish(z.string()),
    start_index: z.nullish(z.number()),
    end_index: z.nullish(z.number()),
    index: z.nullish(z.number()),
  }),
});

/**
 * An annotation as a `citation`: `url_citation` → url, title, `start` / `end` = its
 * `start_index` / `end_index` in the output text; `file_citation`, `container_file_citation`
 * and `file_path` → `id` = the file id, `title` = the file name, `start` = its index (and `end`
 * where the wire gives a range). Undefined for an annotation that names no source.
 */
export function responsesCitation(
  annotation: z.infer<typeof AnnotationAddedEvent>['annotation'],
): CitationEvent | undefined {
  const event: CitationEvent = { type: 'citation' };
  const title = annotation.title ?? annotation.filename;
  const start = annotation.start_index ?? annotation.index;
  if (annotation.file_id != null) event.id = annotation.file_id;
  if (annotation.url != null) event.url = annotation.url;
  if (title != null) event.title = title;
  if (start != null) event.start = start;
  if (annotation.end_index != null) event.end = annotation.end_index;
  return event.url === undefined && event.id === undefined ? undefined : event;
}
