/**
 * A problem with how the command was called or configured (a flag, a path,
 * the schema file, the environment, a service that cannot be reached or
 * refuses the key): reported as one line and exit code 2, before or instead
 * of any file's work. A problem with one input file is not one of these: the
 * file fails and the run goes on.
 */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
