import { readFileSync } from 'node:fs';
import { firstValueFrom, toArray } from 'rxjs';
import { streamEvents } from './src/streamEvents';
(async () => {
for (const f of process.argv.slice(2)) {
  const ev = await firstValueFrom(streamEvents(new Response(readFileSync(f, 'utf8'))).pipe(toArray()));
  console.log('==', f); for (const e of ev) console.log(JSON.stringify(e));
}})();
