/**
 * How CLI commands write. Their own output goes to stdout (a command that is not `--stdio`
 * is not the protocol); failures go to stderr, and the return value is the exit code.
 */
export function print(text: string): number {
  process.stdout.write(text);
  return 0;
}

export function fail(text: string): number {
  process.stderr.write(text);
  return 1;
}
