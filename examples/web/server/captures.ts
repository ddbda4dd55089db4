import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadCapture, type Capture } from '../../../src/cli/capture';
import { PACE_MS } from '../../../src/cli/decode';
import type { ProviderName } from '../../../src/providers/detect';

/** The repository's own captures: `fixtures/<folder>/<file>.sse|.ndjson`. */
export const FIXTURES_DIR = resolve(__dirname, '../../../fixtures');

/** The capture the page plays when the URL names none. */
export const DEFAULT_CAPTURE = 'demo/openrouter-reasoning-markdown';

/**
 * The pause before each wire message of a replay. Captures carry no timing, so, as in
 * `llm-rx replay`, every message (an SSE event or comment block, an NDJSON line) is taken to
 * arrive 20 ms after the one before, about 50 tokens a second.
 */
export const DEFAULT_GAP_MS = PACE_MS;

/** The wire format each fixtures folder holds; `demo` is detected from the first events. */
const PROVIDER_OF_FOLDER: Record<string, ProviderName | undefined> = {
  anthropic: 'anthropic',
  ollama: 'ollama',
  'openai-chat': 'openai-chat',
  'openai-responses': 'openai-responses',
  demo: undefined,
};

/** A bundled capture, named `<folder>/<file without extension>`. */
export interface BundledCapture {
  name: string;
  provider: ProviderName | undefined;
  capture: Capture;
}

/** Every bundled capture, by name, read once. */
export function loadBundledCaptures(dir: string = FIXTURES_DIR): Map<string, BundledCapture> {
  const captures = new Map<string, BundledCapture>();
  for (const folder of Object.keys(PROVIDER_OF_FOLDER)) {
    for (const file of readdirSync(join(dir, folder)).sort()) {
      const match = /^(.*)\.(sse|ndjson)$/.exec(file);
      if (!match) continue;
      const name = `${folder}/${match[1]}`;
      captures.set(name, {
        name,
        provider: PROVIDER_OF_FOLDER[folder],
        capture: loadCapture(join(dir, folder, file)),
      });
    }
  }
  return captures;
}

/**
 * The capture's body as the provider would have sent it: one wire message, then `gapMs` of
 * silence, then the next. Cancelling the stream clears the pending timer.
 */
export function replayBody(capture: Capture, gapMs: number): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let next = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const send = () => {
        if (next >= capture.messages.length) return controller.close();
        controller.enqueue(encoder.encode(capture.messages[next++]));
        timer = setTimeout(send, gapMs);
      };
      timer = setTimeout(send, gapMs);
    },
    cancel() {
      clearTimeout(timer);
    },
  });
}
