// Child-process probe for spec/source/maxBufferSize.spec.ts: feeds `totalBytes` of 'x' with no
// newline, generated lazily chunk by chunk, through fromSse or fromNdjson and reports, as one
// JSON line on stdout, how it ended, how many bytes were read and how much the heap grew.
//
// Run as `node --expose-gc --import tsx spec/source/heapProbe.ts <sse|ndjson> <maxBufferSize>
// <totalBytes> <chunkSize>`. A fresh process with `--expose-gc` measures only this stream: jest's
// worker heap holds the module registry, other specs' leftovers and coverage data, and
// `global.gc` is not available inside jest's sandbox.
import { lastValueFrom } from 'rxjs';
import { fromNdjson } from '../../src/source/fromNdjson';
import { fromSse } from '../../src/source/fromSse';

const [kind, maxBufferSizeText, totalBytesText, chunkSizeText] = process.argv.slice(2);
const maxBufferSize = Number(maxBufferSizeText);
const totalBytes = Number(totalBytesText);
const chunkSize = Number(chunkSizeText);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

function liveHeap(): number {
  gc!();
  return process.memoryUsage().heapUsed;
}

async function main(): Promise<void> {
  let bytesRead = 0;
  let cancelled = false;
  // The heap after a full collection at every chunk boundary: what the source retains.
  let peakLiveHeap = 0;
  const baseline = liveHeap();
  // highWaterMark 0: a chunk is produced only when the source asks for one, so `bytesRead` is
  // exactly what the source pulled.
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        peakLiveHeap = Math.max(peakLiveHeap, liveHeap());
        if (bytesRead >= totalBytes) return controller.close();
        const size = Math.min(chunkSize, totalBytes - bytesRead);
        bytesRead += size;
        controller.enqueue(new Uint8Array(size).fill(0x78));
      },
      cancel() {
        cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  const source =
    kind === 'ndjson' ? fromNdjson(body, { maxBufferSize }) : fromSse(body, { maxBufferSize });
  let code: string | undefined;
  try {
    await lastValueFrom(source, { defaultValue: undefined });
  } catch (error) {
    code = (error as { code?: string }).code;
  }
  const afterHeap = liveHeap();
  process.stdout.write(
    JSON.stringify({
      code,
      bytesRead,
      cancelled,
      peakGrowth: peakLiveHeap - baseline,
      growthAfter: afterHeap - baseline,
    }) + '\n',
  );
}

void main();
