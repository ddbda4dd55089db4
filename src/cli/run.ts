import { errorMessage } from '../errors';
import { CliUsageError, parseCliArgs, usage, usageLine } from './args';
import { demoCommand } from './demo';
import { inspectCommand } from './inspect';
import { packageVersion } from './packageFiles';
import type { CliOutput } from './render';
import { replayCommand } from './replay';

/**
 * Runs one `llm-rx` command line and resolves to its exit code: 0 done, 2 a usage mistake
 * (no command, missing file or one that is not a capture — binary, not UTF-8 —, unknown
 * provider, channel or option, an option the command does not take, `--version` with anything
 * else), 1 a replayed stream that ended `failed`, or an internal error. Errors are one line
 * on `errors` (plus the usage line when the command line itself was malformed), never a stack
 * trace.
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
      case 'version':
        output.write(`${packageVersion()}\n`);
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
    const message = errorMessage(error);
    errors.write(`llm-rx: ${usageMistake ? '' : 'internal error: '}${message.split('\n')[0]}\n`);
    if (usageMistake && error.showUsage) {
      errors.write(`${argv.length === 0 ? usage : usageLine}\n`);
    }
    return usageMistake ? 2 : 1;
  }
}
