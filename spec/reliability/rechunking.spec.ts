import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { type StreamEvent } from '../../src/events';
import { isTerminal } from '../../src/terminalEvents';
import { streamEvents } from '../../src/streamEvents';
import { chunksOf, collect, randomSplits, utf8 } from '../helpers/bytes';

// Re-chunking invariance over the project's own fixtures, through the whole of streamEvents
// with the provider detected (SSE) or named (NDJSON). The real captures get the same check,
// per wire format, in spec/providers/*.corpus.spec.ts.

const fixturesDir = join(__dirname, '../../fixtures');

function listFixtures(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listFixtures(path);
    return /\.(sse|ndjson)$/.test(entry.name) ? [path] : [];
  });
}

function decode(chunks: Uint8Array[], ndjson: boolean): Promise<StreamEvent[]> {
  return collect(streamEvents(chunksOf(chunks), ndjson ? { provider: 'ollama' } : {}));
}

const fixtures = listFixtures(fixturesDir).sort();

describe('re-chunking the project fixtures gives identical events', () => {
  it('finds the fixtures', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(15);
  });

  it.each(fixtures.map((path) => [relative(fixturesDir, path), path]))(
    '%s',
    async (_name, path) => {
      const bytes = utf8(readFileSync(path, 'utf8'));
      const ndjson = path.endsWith('.ndjson');
      const whole = await decode([bytes], ndjson);
      expect(whole.filter(isTerminal)).toHaveLength(1);
      expect(isTerminal(whole[whole.length - 1])).toBe(true);
      const byteByByte = await decode(
        Array.from(bytes, (byte) => Uint8Array.of(byte)),
        ndjson,
      );
      expect(byteByByte).toEqual(whole);
      for (const split of randomSplits(bytes, 200, 1234)) {
        expect(await decode(split, ndjson)).toEqual(whole);
      }
    },
  );
});
