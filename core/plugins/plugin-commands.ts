import { GatewayError, isGatewayError } from '../contract/errors.js';
import type { Logger } from '../lib/logger.js';
import type { CommandDefinition, CommandIo, CommandRunner } from '../contract/command-types.js';

/**
 * The first words of `mcp-gateway` that are its own commands (core/cli/cli.ts). A plugin of one of
 * these names could never be reached as `mcp-gateway <plugin> <command>`, so it may not add
 * commands. `stdio` is here because `mcp-gateway stdio` runs `--stdio`.
 */
export const BUILTIN_CLI_WORDS: ReadonlySet<string> = new Set(['serve', 'stdio', 'tools', 'call', 'plugins', 'keys', 'plugin', 'help']);

const COMMAND_NAME = /^[a-z][a-z0-9-]{0,31}$/;

/** A checked command, ready to join the gateway's commands. */
export interface RegisteredCommand {
  readonly plugin: string;
  /** A frozen copy: what the plugin passed cannot change the help afterwards. */
  readonly definition: CommandDefinition;
  readonly run: CommandRunner;
}

/**
 * Checks a command definition and its runner. Throws COMMAND_DEFINITION_INVALID saying what
 * to fix; uniqueness within the plugin is its scope's check (plugin-context.ts).
 */
export function prepareCommand(plugin: string, definition: CommandDefinition, run: CommandRunner): RegisteredCommand {
  const shown = typeof definition === 'object' && definition !== null ? String(definition.name) : String(definition);
  const fail = (why: string): never => {
    throw new GatewayError('COMMAND_DEFINITION_INVALID', `Plugin "${plugin}", command "${shown}": ${why}`);
  };
  if (BUILTIN_CLI_WORDS.has(plugin)) fail(`"mcp-gateway ${plugin}" is a built-in command, so a plugin of that name cannot add commands: they could never be run.`);
  if (typeof definition !== 'object' || definition === null) fail('the definition must be an object {name, description, usage?}.');
  const { name, description, usage } = definition;
  if (typeof name !== 'string' || !COMMAND_NAME.test(name)) fail('the name must match ^[a-z][a-z0-9-]{0,31}$ (lower case, digits and "-", starting with a letter).');
  if (typeof description !== 'string' || description.trim() === '') fail('a description is required (mcp-gateway <plugin> --help shows it).');
  if (usage !== undefined && (typeof usage !== 'string' || usage.trim() === '')) fail('usage, when given, must be a non-empty string such as "[--org ORG] > FILE".');
  if (typeof run !== 'function') fail('the runner must be a function (args, io) => exit status.');
  return { plugin, definition: Object.freeze({ name, description, ...(usage === undefined ? {} : { usage }) }), run };
}

/**
 * The CLI commands plugins added in their setup, by plugin. They matter only to
 * `mcp-gateway <plugin> <command>` (cli-commands.ts); no transport serves them.
 */
export class PluginCommands {
  readonly #byPlugin = new Map<string, RegisteredCommand[]>();

  /** Adds the commands a plugin recorded, once its setup has succeeded. */
  add(commands: readonly RegisteredCommand[]): void {
    for (const command of commands) {
      const list = this.#byPlugin.get(command.plugin);
      if (list) list.push(command);
      else this.#byPlugin.set(command.plugin, [command]);
    }
  }

  /** A plugin's commands in the order it recorded them (empty when it has none). */
  of(plugin: string): readonly RegisteredCommand[] {
    return this.#byPlugin.get(plugin) ?? [];
  }

  get(plugin: string, name: string): RegisteredCommand | undefined {
    return this.of(plugin).find((c) => c.definition.name === name);
  }

  /** The plugins that have commands, sorted by name. */
  plugins(): string[] {
    return [...this.#byPlugin.keys()].sort();
  }
}

/**
 * Runs one command and gives its exit status: what it returned (nothing is 0), or 1 when it
 * threw or returned something that is not a status, with the reason on `io.stderr`. A
 * GatewayError is shown as `mcp-gateway: CODE: message`; any other error by its message alone,
 * its stack logged at debug (it is the plugin's bug, not the user's to read). `label` names the
 * command in those lines: `brain export`, or `upstream` for a plugin's config command.
 */
export async function runCommand<Io extends { readonly stderr: NodeJS.WritableStream }>(
  label: string,
  run: (args: readonly string[], io: Io) => unknown,
  args: readonly string[],
  io: Io,
  log: Logger,
): Promise<number> {
  let result: unknown;
  try {
    // A copy, frozen: the command may not edit what the next caller (a test) passes.
    result = await run(Object.freeze([...args]), io);
  } catch (err) {
    if (isGatewayError(err)) {
      io.stderr.write(`mcp-gateway: ${err.code}: ${err.message}\n`);
      return 1;
    }
    log.debug({ err, command: label }, 'plugin command failed');
    io.stderr.write(`mcp-gateway: ${label}: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  if (result === undefined) return 0;
  if (typeof result === 'number' && Number.isInteger(result) && result >= 0 && result <= 255) return result;
  const shown = JSON.stringify(result) ?? String(result);
  io.stderr.write(`mcp-gateway: ${label}: the command returned ${shown}, which is not an exit status (an integer from 0 to 255, or nothing for 0).\n`);
  return 1;
}

/** How runCommand names a command a plugin recorded with ctx.command. */
export const commandLabel = (command: RegisteredCommand): string => `${command.plugin} ${command.definition.name}`;
