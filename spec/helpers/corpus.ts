import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The real provider captures (../shared/fixtures/real), read from the folder named by
 * LLMRX_CORPUS_DIR. `.ci/run` sets it; without it the specs that use them say they skipped.
 */
export const corpusDir: string | undefined = process.env.LLMRX_CORPUS_DIR;

/** One capture, as the SSE bytes a client would have received. */
export interface Capture {
  /** Path below the corpus folder, e.g. `openrouter/fantasy-kimi-reasoning-tool.sse`. */
  name: string;
  /** The wire-format folder: `openai-chat`, `openrouter`, `deepseek-qwen-vllm`, `openai-responses`, `anthropic`. */
  folder: string;
  /** The SSE body: raw for `.sse`, framed from the payload lines for `.chunks.jsonl`. */
  sse: string;
}

/** Folders whose payloads carry their SSE event name in `type`. */
const TYPED_EVENT_FOLDERS = new Set(['anthropic', 'openai-responses']);

/**
 * Frames `.chunks.jsonl` payload lines as SSE (see fixtures/README): `data: <line>\n\n`, with
 * `event: <type>` first for Anthropic and OpenAI Responses payloads.
 */
export function frameChunksAsSse(jsonl: string, withEventNames: boolean): string {
  return jsonl
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const eventLine = withEventNames
        ? `event: ${(JSON.parse(line) as { type: string }).type}\n`
        : '';
      return `${eventLine}data: ${line}\n\n`;
    })
    .join('');
}

/**
 * Splits `vercel-reasoning-encrypted-content`, which holds several responses back to back, into
 * one SSE body per `response.created` … terminal run.
 */
export function splitResponsesRuns(jsonl: string): string[] {
  const runs: string[][] = [];
  for (const line of jsonl.split('\n').filter((l) => l.trim() !== '')) {
    if ((JSON.parse(line) as { type: string }).type === 'response.created' || runs.length === 0)
      runs.push([]);
    runs[runs.length - 1].push(line);
  }
  return runs.map((run) => run.join('\n'));
}

/** Every capture in the corpus (a multi-response file becomes one capture per response). */
export function loadCaptures(folders?: string[]): Capture[] {
  if (!corpusDir || !existsSync(corpusDir)) return [];
  const captures: Capture[] = [];
  for (const folder of readdirSync(corpusDir, { withFileTypes: true })) {
    if (!folder.isDirectory() || (folders && !folders.includes(folder.name))) continue;
    for (const file of readdirSync(join(corpusDir, folder.name)).sort()) {
      const path = join(corpusDir, folder.name, file);
      const name = relative(corpusDir, path);
      const text = readFileSync(path, 'utf8');
      if (file.endsWith('.sse')) captures.push({ name, folder: folder.name, sse: text });
      else if (file.endsWith('.chunks.jsonl')) {
        const typed = TYPED_EVENT_FOLDERS.has(folder.name);
        const runs = file.includes('reasoning-encrypted-content')
          ? splitResponsesRuns(text)
          : [text];
        runs.forEach((run, i) =>
          captures.push({
            name: runs.length > 1 ? `${name}#${i + 1}` : name,
            folder: folder.name,
            sse: frameChunksAsSse(run, typed),
          }),
        );
      }
    }
  }
  return captures;
}

/**
 * `describe` for specs over the real captures: when LLMRX_CORPUS_DIR is unset (a fresh clone's
 * `npm test`), it registers one skipped test that says so plainly instead of running nothing.
 */
export function describeCorpus(
  title: string,
  body: (captures: Capture[]) => void,
  folders?: string[],
): void {
  const captures = loadCaptures(folders);
  if (captures.length === 0) {
    describe(title, () => {
      it.skip(`skipped: LLMRX_CORPUS_DIR is not set (or holds no captures); .ci/run sets it to ../shared/fixtures/real`, () =>
        undefined);
    });
    return;
  }
  describe(title, () => body(captures));
}
