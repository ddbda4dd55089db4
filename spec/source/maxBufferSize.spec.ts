import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

// 100 MB without a newline must fail with max-buffer-size-exceeded, in the chunk that
// overflowed, while the heap grows by less than 3 × maxBufferSize. The measurement runs in a
// fresh `node --expose-gc` child (spec/source/heapProbe.ts): there `global.gc` exists and the heap
// holds nothing but this stream, so a full collection at every chunk boundary gives the memory
// the source really retains. Inside a jest worker the heap also holds the module registry and
// other specs' garbage, and `gc` is not exposed to the sandbox.

const run = promisify(execFile);
const root = join(__dirname, '..', '..');
const MiB = 1024 * 1024;
const TOTAL = 100 * MiB;
const CHUNK = 64 * 1024;

interface ProbeResult {
  code?: string;
  bytesRead: number;
  cancelled: boolean;
  peakGrowth: number;
  growthAfter: number;
}

async function probe(kind: 'sse' | 'ndjson', maxBufferSize: number): Promise<ProbeResult> {
  const { stdout } = await run(
    process.execPath,
    [
      '--expose-gc',
      '--import',
      'tsx',
      join('spec', 'source', 'heapProbe.ts'),
      kind,
      String(maxBufferSize),
      String(TOTAL),
      String(CHUNK),
    ],
    { cwd: root, timeout: 120_000 },
  );
  return JSON.parse(stdout.trim().split('\n').pop()!) as ProbeResult;
}

describe.each([
  ['sse', 1 * MiB],
  ['sse', 8 * MiB],
  ['ndjson', 1 * MiB],
] as const)('%s: 100 MB without a newline, maxBufferSize %d', (kind, maxBufferSize) => {
  let result: ProbeResult;
  // A child process start on a busy machine can take a while; the probe itself takes ~1 s.
  beforeAll(async () => {
    result = await probe(kind, maxBufferSize);
  }, 150_000);

  it('fails with max-buffer-size-exceeded and releases the body', () => {
    expect(result.code).toBe('max-buffer-size-exceeded');
    expect(result.cancelled).toBe(true);
  });

  it('reads exactly up to the chunk that overflowed, not one more', () => {
    // Chunks up to maxBufferSize characters fit; the next one overflows and is the last read.
    expect(result.bytesRead).toBe((Math.floor(maxBufferSize / CHUNK) + 1) * CHUNK);
  });

  it('grows the heap by less than 3 × maxBufferSize, and frees it after the error', () => {
    expect(result.peakGrowth).toBeLessThan(3 * maxBufferSize);
    expect(result.growthAfter).toBeLessThan(maxBufferSize / 2);
  });
});
