import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StreamEvent } from '../../src/events';
import { ensureTerminal } from '../../src/operators/ensureTerminal';
import { decodeOpenAIChat } from '../../src/providers/openaiChat';
import { fromSse } from '../../src/source/fromSse';
import { chunksOf, collect, utf8 } from '../helpers/bytes';

/** One of the project's own openai-chat fixtures, as text. */
export function fixture(name: string): string {
  return readFileSync(join(__dirname, '../../fixtures/openai-chat', name), 'utf8');
}

/** An SSE body from payloads: objects are JSON-encoded, strings (e.g. `[DONE]`) sent as is. */
export function sse(...payloads: Array<object | string>): string {
  return payloads.map((p) => `data: ${typeof p === 'string' ? p : JSON.stringify(p)}\n\n`).join('');
}

/** A chunk with the given first choice (`{}` for a usage-only or error chunk). */
export function chunk(choice: object | null, extra: object = {}): object {
  return { id: 'r', model: 'm', choices: choice ? [{ index: 0, ...choice }] : [], ...extra };
}

/** The events of `body` through fromSse → decodeOpenAIChat → ensureTerminal. */
export function decode(body: string | Uint8Array[]): Promise<StreamEvent[]> {
  const chunks = typeof body === 'string' ? [utf8(body)] : body;
  return collect(fromSse(chunksOf(chunks)).pipe(decodeOpenAIChat(), ensureTerminal()));
}
