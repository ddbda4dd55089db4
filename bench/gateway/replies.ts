// The replies the gateway bench streams: the answers of the real captures (LLMRX_CORPUS_DIR),
// else of the project's own fixtures/, each cut to at most MAX_REPLY_CHARS at a line end and
// split into deltas of a few characters, as models stream them.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { streamEvents } from '../../src/streamEvents';
import { collectTurn } from '../../src/turn/collectTurn';
import { corpusDirs, loadCaptures } from '../../spec/helpers/corpus';
import { seededRandom } from '../../spec/helpers/seededRandom';

/** One reply: its source text and the deltas that carry it. */
export interface Reply {
  name: string;
  text: string;
  deltas: string[];
}

const MAX_REPLY_CHARS = 1200;
const MIN_REPLY_CHARS = 80;

/** Where the replies came from, and the replies (deterministic). */
export async function loadReplies(): Promise<{ source: string; replies: Reply[] }> {
  const corpus = corpusDirs.join(':');
  const bodies: Array<{ name: string; sse: string }> = corpus
    ? loadCaptures().map(({ name, sse }) => ({ name, sse }))
    : fixtureBodies(join(__dirname, '../../fixtures'));
  const source = corpus
    ? `real captures (${corpus})`
    : 'LLMRX_CORPUS_DIR is not set: the project fixtures/ (set it to ../shared/fixtures/real for the real captures)';
  const random = seededRandom(32);
  const replies: Reply[] = [];
  for (const { name, sse } of bodies) {
    const response = new Response(sse, { headers: { 'content-type': 'text/event-stream' } });
    const turn = await firstValueFrom(streamEvents(response).pipe(collectTurn()));
    const text = cut(turn.text.trim());
    if (text.length < MIN_REPLY_CHARS) continue;
    replies.push({ name, text, deltas: split(text, random) });
  }
  if (replies.length === 0) throw new Error('No capture has an answer to stream.');
  return { source, replies };
}

function fixtureBodies(folder: string): Array<{ name: string; sse: string }> {
  const found: Array<{ name: string; sse: string }> = [];
  for (const entry of readdirSync(folder).sort()) {
    const path = join(folder, entry);
    if (statSync(path).isDirectory()) found.push(...fixtureBodies(path));
    else if (entry.endsWith('.sse')) found.push({ name: entry, sse: readFileSync(path, 'utf8') });
  }
  return found;
}

/** At most MAX_REPLY_CHARS, ending at a line end when there is one past half of it. */
function cut(text: string): string {
  if (text.length <= MAX_REPLY_CHARS) return text;
  const end = text.lastIndexOf('\n', MAX_REPLY_CHARS);
  return text.slice(0, end > MAX_REPLY_CHARS / 2 ? end : MAX_REPLY_CHARS).trimEnd();
}

/** Deltas of 1–7 characters (4 on average), never splitting a surrogate pair. */
function split(text: string, random: () => number): string[] {
  const deltas: string[] = [];
  let at = 0;
  while (at < text.length) {
    let end = Math.min(text.length, at + 1 + Math.floor(random() * 7));
    const code = text.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff && end < text.length) end++;
    deltas.push(text.slice(at, end));
    at = end;
  }
  return deltas;
}

/** One OpenAI chat-completions SSE message carrying `content`. */
export function contentChunk(content: string): string {
  const choice = { index: 0, delta: { content }, finish_reason: null };
  return `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 0, model: 'bench', choices: [choice] })}\n\n`;
}

/** The SSE messages before the first delta and after the last. */
export const OPENING =
  'data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":0,"model":"bench","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}\n\n';
export const CLOSING =
  'data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":0,"model":"bench","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';
