import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { buildSync } from 'esbuild';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Bundles `dir/worker.mjs` (workerd resolves no node_modules) and serves it with `workerd serve`
 * on a free port of 127.0.0.1; resolves to the body of one GET of `/`, after the process exited.
 */
export async function fetchFromWorker(workerd: string, dir: string): Promise<string> {
  buildSync({
    entryPoints: [join(dir, 'worker.mjs')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    outfile: join(dir, 'worker.bundle.mjs'),
    logLevel: 'warning',
  });
  const port = await freePort();
  writeFileSync(
    join(dir, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .smoke) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const smoke :Workerd.Worker = (
  modules = [ (name = "worker", esModule = embed "worker.bundle.mjs") ],
  compatibilityDate = "2026-11-01",
);
`,
  );
  const child = spawn(workerd, ['serve', 'config.capnp'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  try {
    // Bounded: 100 tries, 100 ms apart, while workerd starts listening.
    for (let attempt = 0; attempt < 100; attempt++) {
      if (child.exitCode !== null) break;
      try {
        const response = await fetch(`http://127.0.0.1:${port}/`);
        return await response.text();
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    throw new Error(`workerd did not answer on port ${port}:\n${output}`);
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
}
