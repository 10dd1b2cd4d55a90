/**
 * The public types of `ctx.command`: a CLI command a plugin adds, run as
 * `mcp-gateway <plugin> <command> [args...]` (docs/plugins/cli-commands.md).
 */

/** One command of a plugin. */
export interface CommandDefinition {
  /**
   * `^[a-z][a-z0-9-]{0,31}$`, unique within the plugin: the word after the plugin's name
   * (`mcp-gateway brain export`).
   */
  readonly name: string;
  /** One or two sentences saying what the command does; `mcp-gateway <plugin> --help` shows it. */
  readonly description: string;
  /**
   * The synopsis of its arguments, shown after `mcp-gateway <plugin> <command>` in the help:
   * `[--org ORG] > FILE`. Without it the help shows the bare command.
   */
  readonly usage?: string;
}

/**
 * Where a command reads and writes. From the CLI these are the process's own streams: stdout
 * carries the command's output and nothing else (the gateway logs to stderr), so
 * `mcp-gateway brain export > memories.jsonl` holds exactly what the command wrote.
 */
export interface CommandIo {
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  /**
   * Aborted on SIGINT or SIGTERM (a second signal ends the process at once), when stdout is
   * closed under the command (`| head`), or when the gateway shuts down. Pass it on to
   * long-running work and stop early when it fires.
   */
  readonly signal: AbortSignal;
}

/**
 * Runs the command. `args` are the words after the command's name, exactly as typed (the
 * command parses its own options, e.g. with `node:util`'s `parseArgs`). Resolves with the exit
 * status: an integer from 0 to 255, or nothing for 0. A thrown GatewayError (`ctx.error(...)`)
 * is printed as `mcp-gateway: CODE: message` on stderr; any other throw prints its message
 * (its stack goes to the log at level debug); both exit with status 1.
 */
export type CommandRunner = (args: readonly string[], io: CommandIo) => Promise<number | void> | number | void;
