import { runCli } from '../../src/cli/run';
import type { CliOutput } from '../../src/cli/render';

/** What one in-process `llm-rx` run printed, and its exit code. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in this process, with plain (non-TTY) outputs. */
export async function runCliInProcess(argv: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const plain = (append: (text: string) => void): CliOutput => ({
    write: append,
    color: false,
    interactive: false,
    columns: 100,
  });
  const code = await runCli(
    argv,
    plain((text) => (stdout += text)),
    plain((text) => (stderr += text)),
  );
  return { code, stdout, stderr };
}
