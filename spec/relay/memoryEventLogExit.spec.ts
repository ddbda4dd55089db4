import { spawn } from 'node:child_process';
import { join } from 'node:path';

describe('memoryEventLog holds no process open', () => {
  it('a script that records into memoryEventLog() and ends exits by itself, with its output', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(__dirname, 'children', 'recordAndEnd.ts')],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    // Far below the log's one-hour TTL: a TTL timer would keep the script alive past it.
    let bound: NodeJS.Timeout | undefined;
    const stuck = new Promise<'still running'>((resolve) => {
      bound = setTimeout(() => resolve('still running'), 30_000);
    });
    const outcome = await Promise.race([exited, stuck]);
    clearTimeout(bound);
    if (outcome === 'still running') child.kill('SIGKILL');
    expect(outcome).toBe(0);
    expect(JSON.parse(output)).toEqual({
      latest: 'r1',
      replayed: [
        { type: 'text-delta', id: 't', delta: 'Hello' },
        { type: 'completed', finishReason: 'stop' },
      ],
    });
  });
});
