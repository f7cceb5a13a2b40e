#!/usr/bin/env node
/**
 * The `docshape` command (package.json "bin"). The commands live in
 * src/cli/; this file picks one and turns its outcome into the exit code.
 */
import { USAGE } from './cli/args.js';
import { extractCommand } from './cli/extract-command.js';
import { UsageError } from './cli/usage-error.js';

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'extract') return extractCommand(rest);
  if (command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  throw new UsageError(command === undefined ? 'name a command: docshape extract ...' : `unknown command ${JSON.stringify(command)}; the command is "extract"`);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`docshape: ${error.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`docshape: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
