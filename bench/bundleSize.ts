// `npm run size`: prints the minified and gzip sizes of the browser bundle of { streamEvents,
// channel } and what they are made of. `--max-gzip <KB>` exits 1 past that bound.

import { measureBundle } from '../spec/helpers/bundleSize';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function main(): Promise<void> {
  const maxFlag = process.argv.indexOf('--max-gzip');
  const maxGzipKb = maxFlag === -1 ? undefined : Number(process.argv[maxFlag + 1]);
  const size = await measureBundle();
  console.log(`browser bundle of { streamEvents, channel } (esbuild, minified, ESM)`);
  console.log(`  minified: ${kb(size.minified)} (${size.minified} bytes)`);
  console.log(`  gzip:     ${kb(size.gzip)} (${size.gzip} bytes)`);
  console.log(`  minified bytes by origin:`);
  for (const [origin, bytes] of Object.entries(size.byOrigin).sort((a, b) => b[1] - a[1])) {
    console.log(`    ${origin.padEnd(20)} ${kb(bytes).padStart(9)}`);
  }
  if (maxGzipKb !== undefined && size.gzip > maxGzipKb * 1024) {
    console.error(`gzip size ${kb(size.gzip)} is over the bound of ${maxGzipKb} KB`);
    process.exitCode = 1;
  }
}

if (require.main === module) void main();
