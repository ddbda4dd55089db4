import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { utf8 } from './bytes';
import { bedrockBody } from './eventStreamFrames';

/**
 * The folders of real provider captures (../shared/fixtures/real, ../shared/fixtures/real-2026),
 * named by LLMRX_CORPUS_DIR: one folder, or several separated by `:`. `.ci/run` sets it; without
 * it the specs that use them say they skipped. LLMRX_CORPUS_FOLDERS (`gemini,cohere`) keeps only
 * those wire folders, to run the corpus specs for one wire.
 */
export const corpusDirs: string[] = (process.env.LLMRX_CORPUS_DIR ?? '')
  .split(':')
  .filter((dir) => dir !== '');

/** Wire folders LLMRX_CORPUS_FOLDERS keeps; undefined keeps every folder. */
const onlyFolders: string[] | undefined = process.env.LLMRX_CORPUS_FOLDERS?.split(',')
  .map((folder) => folder.trim())
  .filter((folder) => folder !== '');

/** One capture, as the SSE bytes a client would have received. */
export interface Capture {
  /** Path below its corpus folder, e.g. `openrouter/fantasy-kimi-reasoning-tool.sse`. */
  name: string;
  /** The wire-format folder: `openai-chat`, `openrouter`, `gemini`, `azure-openai`, … */
  folder: string;
  /** The file's absolute path (the same for every response of a multi-response file). */
  path: string;
  /** The SSE body: raw for `.sse`, framed from the payload lines for `.chunks.jsonl`. */
  sse: string;
}

/**
 * The wire format each corpus folder holds, as the `provider` to name in streamEvents. Azure and
 * xAI serve both Chat Completions and Responses: a file with `-responses-` in its name is the latter.
 */
const FORMAT_OF_FOLDER: Record<string, string> = {
  'openai-chat': 'openai-chat',
  openrouter: 'openai-chat',
  'deepseek-qwen-vllm': 'openai-chat',
  'openai-responses': 'openai-responses',
  anthropic: 'anthropic',
  gemini: 'gemini',
  cohere: 'cohere',
  bedrock: 'bedrock',
  'azure-openai': 'openai-chat',
  xai: 'openai-chat',
  groq: 'openai-chat',
  mistral: 'openai-chat',
  perplexity: 'openai-chat',
};

/** Every folder the corpus may hold (a folder not listed here fails the detection spec). */
export const CORPUS_FOLDERS: readonly string[] = Object.keys(FORMAT_OF_FOLDER);

/** The provider id a capture's wire format goes by (`gemini`, `openai-responses`, …). */
export function formatOfCapture(capture: Pick<Capture, 'name' | 'folder'>): string {
  const format = FORMAT_OF_FOLDER[capture.folder];
  if (format === undefined) throw new Error(`corpus folder "${capture.folder}" has no wire format`);
  return format === 'openai-chat' && /-responses-/.test(capture.name) ? 'openai-responses' : format;
}

/**
 * Frames `.chunks.jsonl` payload lines as SSE (see fixtures/README): `data: <line>\n\n`, with
 * `event: <type>` first when the payload has a string `type` (Anthropic, OpenAI Responses, Cohere;
 * Chat Completions, Gemini and Bedrock payloads have none) — the rule `llm-rx replay` follows.
 */
export function frameChunksAsSse(jsonl: string): string {
  return jsonl
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const type = (JSON.parse(line) as { type?: unknown }).type;
      return `${typeof type === 'string' ? `event: ${type}\n` : ''}data: ${line}\n\n`;
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

/** Every capture in the corpus folders (a multi-response file becomes one capture per response). */
export function loadCaptures(folders?: string[]): Capture[] {
  const captures: Capture[] = [];
  for (const root of corpusDirs) {
    if (!existsSync(root)) continue;
    for (const folder of readdirSync(root, { withFileTypes: true })) {
      if (!folder.isDirectory() || (folders && !folders.includes(folder.name))) continue;
      if (onlyFolders && !onlyFolders.includes(folder.name)) continue;
      for (const file of readdirSync(join(root, folder.name)).sort()) {
        const path = join(root, folder.name, file);
        captures.push(...capturesOfFile(path, relative(root, path), folder.name));
      }
    }
  }
  return captures;
}

function capturesOfFile(path: string, name: string, folder: string): Capture[] {
  const text = readFileSync(path, 'utf8');
  if (path.endsWith('.sse')) return [{ name, folder, path, sse: text }];
  if (!path.endsWith('.chunks.jsonl')) return [];
  const runs = path.includes('reasoning-encrypted-content') ? splitResponsesRuns(text) : [text];
  return runs.map((run, i) => ({
    name: runs.length > 1 ? `${name}#${i + 1}` : name,
    folder,
    path,
    sse: frameChunksAsSse(run),
  }));
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
      it.skip(`skipped: LLMRX_CORPUS_DIR is not set (or holds no captures of these folders); .ci/run sets it to ../shared/fixtures/real:../shared/fixtures/real-2026`, () =>
        undefined);
    });
    return;
  }
  describe(title, () => body(captures));
}

/**
 * A capture as its provider sends it: the body bytes and the content type. Bedrock's payloads go
 * out as real `application/vnd.amazon.eventstream` frames (encoded with the codec the decoder
 * reads them with), every other wire as its SSE body.
 */
export function captureBody(capture: Capture): { bytes: Uint8Array; contentType: string } {
  if (formatOfCapture(capture) !== 'bedrock')
    return { bytes: utf8(capture.sse), contentType: 'text/event-stream' };
  const payloads = capture.sse
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => JSON.parse(line.slice(5)) as Record<string, unknown>);
  return { bytes: bedrockBody(payloads), contentType: 'application/vnd.amazon.eventstream' };
}

/** A fetch `Response` whose body arrives in exactly these chunks. */
export function responseOfChunks(chunks: Uint8Array[], contentType: string): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': contentType } });
}
