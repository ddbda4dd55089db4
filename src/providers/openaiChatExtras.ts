import * as z from 'zod/mini';
import type { CitationEvent } from '../events';
import type { Emit } from './decoder';

// What OpenAI-compatible gateways send beside the answer: Perplexity's cited URLs and the
// tools Groq's compound models run themselves. Neither is text, and neither is a client call.

const text = z.nullish(z.string());

/** Groq compound: a tool Groq ran itself (`arguments` first, then again with `output`). */
export const ExecutedTool = z.looseObject({
  index: z.nullish(z.int()),
  type: text,
  name: text,
  arguments: text,
  output: text,
});
export type ExecutedTool = z.infer<typeof ExecutedTool>;

/** Perplexity: one entry of `search_results[]`, a cited page with its title. */
export const SearchResult = z.looseObject({ url: z.string(), title: text });
export type SearchResult = z.infer<typeof SearchResult>;

/** The `citation` and provider-executed tool events of one openai-chat stream. */
export type ChatExtras = ReturnType<typeof createChatExtras>;

/**
 * Turns `citations[]` / `search_results[]` (Perplexity) into one `citation` per URL, the first
 * time it appears (Perplexity resends the whole list on every chunk), and `delta.executed_tools[]` (Groq
 * compound) into `tool-start` when a tool first appears and `tool-end` when its `output`
 * arrives, both with `providerExecuted: true`. Tool ids: `${responseId}:executed:${index}`.
 */
export function createChatExtras(baseId: string) {
  const cited = new Set<string>();
  const started = new Set<number>();
  const ended = new Set<number>();

  return {
    /**
     * `citations` (URLs) and `search_results` (URL and title) of one chunk: each URL once,
     * numbered by its place in `citations` (the answer cites "[1]", "[2]", …), titled from
     * `search_results` when it has the URL.
     */
    citations(
      urls: readonly string[] | null | undefined,
      results: readonly SearchResult[] | null | undefined,
      emit: Emit,
    ) {
      const list = urls ?? results?.map((result) => result.url) ?? [];
      list.forEach((url, position) => {
        if (cited.has(url)) return;
        cited.add(url);
        const event: CitationEvent = { type: 'citation', id: String(position + 1), url };
        const title = results?.find((result) => result.url === url)?.title;
        if (title) event.title = title;
        emit(event);
      });
    },

    executedTools(tools: readonly ExecutedTool[] | null | undefined, emit: Emit) {
      (tools ?? []).forEach((tool, position) => {
        const index = tool.index ?? position;
        const id = `${baseId}:executed:${index}`;
        const name = tool.name ?? tool.type ?? 'tool';
        if (!started.has(index)) {
          started.add(index);
          emit({
            type: 'tool-start',
            id,
            name,
            args: argsOf(tool.arguments),
            providerExecuted: true,
          });
        }
        if (tool.output == null || ended.has(index)) return;
        ended.add(index);
        emit({ type: 'tool-end', id, name, result: tool.output, providerExecuted: true });
      });
    },
  };
}

/** The arguments as JSON when they parse, else the text as sent. */
function argsOf(text: string | null | undefined): unknown {
  if (text == null || text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
