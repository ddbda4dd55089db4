// `npm run bench`: runs every bench/*.bench.ts in its own node process (so one benchmark's
// heap and JIT state never touch another's), with --expose-gc, and prints each one's tables.

import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const files = readdirSync(__dirname)
  .filter((name) => name.endsWith('.bench.ts'))
  .sort();
const failures: string[] = [];
const started = performance.now();
for (const file of files) {
  const fileStarted = performance.now();
  console.log(`\n# ${file}`);
  const child = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', join(__dirname, file)],
    { stdio: 'inherit', cwd: join(__dirname, '..') },
  );
  const seconds = ((performance.now() - fileStarted) / 1000).toFixed(1);
  console.log(`(${file}: ${seconds} s, exit ${child.status ?? child.signal})`);
  if (child.status !== 0) failures.push(file);
}
console.log(`\nAll benchmarks: ${((performance.now() - started) / 1000).toFixed(1)} s.`);
if (failures.length > 0) {
  console.error(`Failed: ${failures.join(', ')}`);
  process.exitCode = 1;
}
