import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { ProviderName } from '../providers/detect';
import { CliUsageError } from './args';

/** A capture split into the wire messages a client would have received one after another. */
export interface Capture {
  /** The file's name, for headers. */
  name: string;
  /** How the body is framed. */
  framing: 'sse' | 'ndjson';
  /** Consecutive pieces of the body, one wire message each; joined they are the whole body. */
  messages: string[];
  /** The provider the format implies (`ollama` for `.ndjson`), when it does. */
  providerHint?: ProviderName;
}

/**
 * Reads a `.sse`, `.ndjson` or `.chunks.jsonl` capture. One rule for input the CLI cannot read
 * as a capture, whatever its kind: a missing file, an unknown extension, bytes that are not
 * UTF-8 text (a binary file), a `.chunks.jsonl` whose first line is not JSON — a CliUsageError
 * (exit 2). Text that reads but is not a stream (an HTML page saved as `.sse`) is replayed as
 * streamEvents sees it: `failed` `unexpected-body`.
 */
export function loadCapture(path: string): Capture {
  const name = basename(path);
  const kind = name.endsWith('.chunks.jsonl')
    ? 'chunks'
    : name.endsWith('.sse')
      ? 'sse'
      : name.endsWith('.ndjson') || name.endsWith('.jsonl')
        ? 'ndjson'
        : undefined;
  if (kind === undefined) {
    throw new CliUsageError(
      `${path}: unknown capture type (expected .sse, .ndjson or .chunks.jsonl)`,
    );
  }
  let text: string;
  try {
    if (!statSync(path).isFile()) throw new CliUsageError(`${path}: not a file`);
    text = textOf(readFileSync(path), path);
  } catch (error) {
    if (error instanceof CliUsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliUsageError(
      `${path}: ${code === 'ENOENT' ? 'no such file' : `cannot read (${code ?? 'error'})`}`,
    );
  }
  if (kind === 'sse') return { name, framing: 'sse', messages: splitSseBlocks(text) };
  if (kind === 'ndjson') {
    return { name, framing: 'ndjson', messages: splitLines(text), providerHint: 'ollama' };
  }
  return { name, framing: 'sse', messages: frameChunkLines(text, path) };
}

/** The file's bytes as UTF-8 text; anything else (invalid UTF-8, NUL bytes) is not a capture. */
function textOf(bytes: Uint8Array, path: string): string {
  let text: string | undefined;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    // Not UTF-8: reported below.
  }
  if (text === undefined || text.includes('\u0000')) {
    throw new CliUsageError(`${path}: not a capture (binary data, not UTF-8 text)`);
  }
  return text;
}

/** A raw SSE body cut after each blank line (an event or a comment block), bytes unchanged. */
export function splitSseBlocks(body: string): string[] {
  const blocks: string[] = [];
  const blankLine = /(?:\r\n|\r(?!\n)|\n)(?:\r\n|\r(?!\n)|\n)/g;
  let start = 0;
  for (let match = blankLine.exec(body); match; match = blankLine.exec(body)) {
    blocks.push(body.slice(start, match.index + match[0].length));
    start = match.index + match[0].length;
  }
  if (start < body.length) blocks.push(body.slice(start));
  return blocks;
}

function splitLines(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => `${line}\n`);
}

/**
 * `.chunks.jsonl` framed as SSE (shared fixtures README): `data: <line>\n\n`, with
 * `event: <type>` first when the payload has a string `type` (Anthropic, OpenAI Responses;
 * Chat Completions chunks have none).
 */
function frameChunkLines(text: string, path: string): string[] {
  return splitLines(text).map((line, index) => {
    const payload = line.trim();
    let type: unknown;
    try {
      type = (JSON.parse(payload) as { type?: unknown } | null)?.type;
    } catch {
      // Not JSON: frame it anyway; the decoder reports it as a malformed event.
      if (index === 0 && !payload.startsWith('{')) {
        throw new CliUsageError(`${path}: not a .chunks.jsonl capture (line 1 is not JSON)`);
      }
    }
    return `${typeof type === 'string' ? `event: ${type}\n` : ''}data: ${payload}\n\n`;
  });
}
