import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { DeliveryReport } from '../../../src/delivery/types';

/**
 * Starts one of this folder's bot scripts as a process of its own (`BOT_TOKEN` = `token`),
 * noting it in `children` so a spec can kill what is left; resolves its exit, and reads the
 * reports it printed (one JSON report a line) so far.
 */
export function startBotProcess(
  children: ChildProcess[],
  script: string,
  token: string,
  args: string[],
) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, script), ...args], {
    cwd: join(__dirname, '..', '..', '..'),
    env: { ...process.env, BOT_TOKEN: token },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  const reports = () =>
    output
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as DeliveryReport);
  return { child, exited, reports };
}
