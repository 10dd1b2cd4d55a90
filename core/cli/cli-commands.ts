import { constants } from 'node:os';
import { parseArgs } from 'node:util';
import { fail, print } from './cli-output.js';
import { loadConfig, type GatewayConfig } from '../config/config.js';
import { GatewayError, isGatewayError } from '../contract/errors.js';
import { createGateway, type Gateway } from '../gateway/gateway.js';
import { createLogger } from '../lib/logger.js';
import type { CommandIo } from '../contract/command-types.js';
import { commandLabel, runCommand, type RegisteredCommand } from '../plugins/plugin-commands.js';
import { importPlugin } from '../plugins/plugin-module.js';
import { BUILTIN_REGISTRY_DIR, loadRegistry, type RegistryEntry } from '../plugins/registry.js';
import { openPluginConfig } from '../config/plugin-config-file.js';
import type { ConfigCommandIo } from '../contract/config-command-types.js';

/** The gateway's own options, which go before the plugin's name; all after it is the command's. */
const gatewayOptions = {
  config: { type: 'string' },
  workspace: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const SYNOPSIS = 'mcp-gateway [--config FILE] [--workspace DIR] PLUGIN COMMAND [ARGS...]';

/**
 * `mcp-gateway [--config FILE] [--workspace DIR] <plugin> [<command> [args...]]`: boots the
 * gateway from the config (no transport served), runs one command a plugin recorded with
 * `ctx.command` on the process's stdin, stdout and stderr, closes the gateway and gives the
 * command's exit status. `<plugin>` alone, or with `--help`, lists its commands. cli.ts has
 * split the command line at the plugin's name: `before` it are the gateway's options, `after`
 * it the command and its arguments, verbatim.
 */
export async function runPluginCommand(before: readonly string[], plugin: string, after: readonly string[]): Promise<number> {
  // A shipped plugin's config command runs before anything reads the config: it may be the
  // command that makes the file, or mends it.
  const shipped = loadRegistry([BUILTIN_REGISTRY_DIR]).get(plugin);
  if (shipped) {
    const ran = await runConfigCommand(shipped, [...before, ...after]);
    if (ran !== undefined) return ran;
  }
  let flags;
  try {
    flags = parseArgs({ args: [...before], options: gatewayOptions, strict: true, allowPositionals: false }).values;
  } catch (err) {
    return fail(`${(err as Error).message}\nBefore a plugin's name only --config FILE and --workspace DIR are accepted: ${SYNOPSIS}\n`);
  }
  const [word, ...args] = after;
  const wantsHelp = flags.help === true || word === undefined || word === '--help' || word === '-h';
  const config = loadConfig({ file: flags.config, workspace: flags.workspace });
  const registry = loadRegistry([BUILTIN_REGISTRY_DIR, ...config.registries]);
  const entry = registry.get(plugin);
  if (!entry) return unknownWord(plugin, after, config);
  if (!shipped) {
    const ran = await runConfigCommand(entry, [...before, ...after]);
    if (ran !== undefined) return ran;
  }
  if (!config.plugins[plugin]?.enabled) {
    return fail(
      `Plugin "${plugin}" is in the registry but not enabled in ${config.file ?? 'the (default) configuration'}; ` +
        `enable it under plugins: (${plugin}: {}) to use its commands. mcp-gateway plugins lists the registry.\n`,
    );
  }
  const gateway = await boot(config);
  try {
    const skipped = gateway.plugins.skipped.find((s) => s.name === plugin);
    if (skipped) return fail(`Plugin "${plugin}" did not load (it is optional, so the gateway started without it): ${skipped.code}: ${skipped.reason}\n`);
    const commands = gateway.commands.of(plugin);
    if (commands.length === 0) return fail(`Plugin "${plugin}" adds no commands. ${pluginsWithCommands(gateway)}\n`);
    if (wantsHelp) return print(pluginHelp(plugin, commands));
    const command = gateway.commands.get(plugin, word);
    if (!command) return fail(`Plugin "${plugin}" has no command "${word}". Its commands:\n\n${commandList(plugin, commands)}`);
    return await runWithProcessIo(gateway, command, args);
  } finally {
    await gateway.close();
  }
}

/**
 * Runs the plugin's config command on `args` (the command line without the plugin's name),
 * with no gateway started and whether or not the plugin is enabled; undefined when it has none.
 */
async function runConfigCommand(entry: RegistryEntry, args: readonly string[]): Promise<number | undefined> {
  const run = (await importPlugin(entry)).configCommand;
  if (!run) return undefined;
  const io: ConfigCommandIo = {
    stdout: process.stdout,
    stderr: process.stderr,
    openConfig: (file) => openPluginConfig(entry.name, file),
  };
  return runCommand(entry.name, run, args, io, createLogger('warn'));
}

/**
 * At most warn, so that stdout-only use is quiet on stderr too (as `tools` and `call`), unless
 * the config asks for debug or trace: then a failing command's stack is in the log.
 */
async function boot(config: GatewayConfig): Promise<Gateway> {
  return createGateway({ config, log: createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel) });
}

/** Neither a built-in command nor a plugin: most likely a typo, so say what exists. */
async function unknownWord(word: string, after: readonly string[], config: GatewayConfig): Promise<number> {
  let known: string;
  try {
    const gateway = await boot(config);
    try {
      known = pluginsWithCommands(gateway);
    } finally {
      await gateway.close();
    }
  } catch (err) {
    const reason = isGatewayError(err) ? `${err.code}: ${err.message}` : (err as Error).message;
    known = `(The gateway did not start, so the plugins' commands are unknown: ${reason})`;
  }
  const misplaced = after.some((a) => /^--(config|workspace)(=|$)/.test(a)) ? `\n--config and --workspace go before the plugin's name: ${SYNOPSIS}` : '';
  return fail(
    `Unknown command "${word}": it is neither a command of mcp-gateway (mcp-gateway --help lists them) nor a plugin in the registry.\n${known}${misplaced}\n`,
  );
}

function pluginsWithCommands(gateway: Gateway): string {
  const plugins = gateway.commands.plugins();
  if (plugins.length === 0) return 'None of the enabled plugins adds commands.';
  const each = plugins.map((p) => `${p} (${gateway.commands.of(p).map((c) => c.definition.name).join(', ')})`);
  return `Enabled plugins with commands: ${each.join(', ')}. mcp-gateway PLUGIN --help lists a plugin's commands.`;
}

function pluginHelp(plugin: string, commands: readonly RegisteredCommand[]): string {
  return (
    `The commands of the plugin "${plugin}":\n\n${commandList(plugin, commands)}\n` +
    `The gateway's options go before the plugin's name (${SYNOPSIS}); all after the command is the command's own.\n`
  );
}

function commandList(plugin: string, commands: readonly RegisteredCommand[]): string {
  return commands
    .map(({ definition: { name, usage, description } }) => `  mcp-gateway ${plugin} ${name}${usage ? ` ${usage}` : ''}\n      ${description}\n`)
    .join('');
}

/**
 * Runs the command on the process's streams. SIGINT and SIGTERM abort its signal once; the
 * listeners are `once`, so a second signal finds none and ends the process the default way
 * (a command that ignores its signal can still be stopped). A command that fails after a
 * signal exits 128 + the signal's number, as a shell expects.
 */
async function runWithProcessIo(gateway: Gateway, command: RegisteredCommand, args: readonly string[]): Promise<number> {
  const interrupt = new AbortController();
  let received: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    received = signal;
    interrupt.abort(new GatewayError('CANCELLED', `Interrupted by ${signal}.`));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // A promise left pending with nothing to wait for lets Node exit, with status 0: an export
  // cut short would pass for a success.
  const onEarlyExit = () => {
    process.stderr.write(`mcp-gateway: ${command.plugin} ${command.definition.name}: the command never finished (its promise was pending with nothing left to wait for).\n`);
    process.exitCode = 1;
  };
  process.once('exit', onEarlyExit);
  // `export | head` closes stdout under the command: stop it rather than crash on EPIPE. Never
  // removed, as writes still pending would report the same error after the command.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => interrupt.abort(new GatewayError('CANCELLED', `stdout was closed (${err.code ?? err.message}).`)));
  let stdinUsed = false;
  const io: CommandIo = {
    // Made on first use: an unread stdin must not become a handle that keeps the process alive.
    get stdin() {
      stdinUsed = true;
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    signal: AbortSignal.any([interrupt.signal, gateway.signal]),
  };
  try {
    const code = await runCommand(commandLabel(command), command.run, args, io, gateway.log);
    return received && code !== 0 ? 128 + constants.signals[received] : code;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('exit', onEarlyExit);
    // A command that read only part of stdin leaves it flowing or paused with its handle open.
    if (stdinUsed) process.stdin.destroy();
  }
}
