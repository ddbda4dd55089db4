import { CliUsageError, parseCliArgs, usage } from './args';
import { demoCommand } from './demo';
import { inspectCommand } from './inspect';
import type { CliOutput } from './render';
import { replayCommand } from './replay';

/**
 * Runs one `llm-rx` command line and resolves to its exit code: 0 done, 2 a usage mistake
 * (missing file, unknown provider or channel, bad flag), 1 an internal error. Errors are one
 * line on `errors`, never a stack trace.
 */
export async function runCli(
  argv: string[],
  output: CliOutput,
  errors: CliOutput,
): Promise<number> {
  try {
    const command = parseCliArgs(argv);
    switch (command.command) {
      case 'help':
        output.write(`${usage}\n`);
        return 0;
      case 'replay':
        return await replayCommand(command, output);
      case 'inspect':
        return await inspectCommand(command, output);
      case 'demo':
        return await demoCommand(command, output);
    }
  } catch (error) {
    const usageMistake = error instanceof CliUsageError;
    const message = error instanceof Error ? error.message : String(error);
    errors.write(`llm-rx: ${usageMistake ? '' : 'internal error: '}${message.split('\n')[0]}\n`);
    return usageMistake ? 2 : 1;
  }
}
