// The `llm-rx` command (package.json `bin` → dist/cli.cjs). Built as CJS: no import.meta here.
import { runCli } from './run';
import type { CliOutput } from './render';

function outputOf(stream: NodeJS.WriteStream): CliOutput {
  const interactive = stream.isTTY === true;
  return {
    write: (text) => void stream.write(text),
    color: interactive && !process.env.NO_COLOR,
    interactive,
    columns: stream.columns ?? 120,
  };
}

// `llm-rx replay … | head` closes stdout early: that is the reader's choice, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
});

void runCli(process.argv.slice(2), outputOf(process.stdout), outputOf(process.stderr)).then(
  (code) => {
    process.exitCode = code;
  },
);
