// Turns a tool's {command, args, cwd, env, shell} into what spawn needs, refusing what the
// config does not allow: cwd outside the workspace, a denied command, a missing executable.
import { accessSync, constants, statSync } from 'node:fs';
import { basename, delimiter, isAbsolute, resolve } from 'node:path';
import type { ProcessConfig } from './config.js';
import type { RaiseError } from './declaration.js';

export interface LaunchRequest {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  readonly env: Readonly<Record<string, string>>;
  readonly shell: boolean;
}

/** A checked request: spawn `file` with `spawnArgs` and `argv0`. */
export interface Launch {
  readonly command: string;
  readonly args: readonly string[];
  readonly shell: boolean;
  readonly file: string;
  /** What the program sees as its own name: the command as given, or the shell. */
  readonly argv0: string;
  readonly spawnArgs: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
}

export interface LaunchDeps {
  readonly config: ProcessConfig;
  /** Resolves `cwd` (default "."), throwing when it is not a place processes may run in. */
  readonly resolveCwd: (cwd: string) => string;
  readonly error: RaiseError;
}

export function prepareLaunch(request: LaunchRequest, deps: LaunchDeps): Launch {
  const { config, error } = deps;
  checkCommandSize(request, config.maxCommandBytes, error);
  // The tools' resolver throws OUTSIDE_WORKSPACE / INVALID_PATH (core codes) for a cwd that escapes.
  const cwd = deps.resolveCwd(request.cwd ?? '.');
  if (!isDirectory(cwd)) {
    throw error('PROCESS_CWD_NOT_FOUND', `cwd "${request.cwd}" does not exist or is not a directory; create it or pick another.`, {
      cwd: request.cwd,
    });
  }
  const env = { ...process.env, ...request.env };
  const base = { command: request.command, args: request.args, shell: request.shell, cwd, env };

  if (request.shell) {
    if (!config.allowShell) {
      throw error('PROCESS_NOT_ALLOWED', 'shell: true is disabled by the process plugin config (allowShell); pass command and args without a shell.', {
        command: request.command,
      });
    }
    const line = [request.command, ...request.args.map(shellQuote)].join(' ');
    // A script can run anything, so only whole-line patterns (with a space) allow one.
    checkPolicy(config, { allow: [line], deny: [line], wholeLineOnly: true }, request.command, error);
    const shell = process.env.SHELL || '/bin/sh';
    return { ...base, file: shell, argv0: shell, spawnArgs: ['-c', line] };
  }

  const file = which(request.command, cwd, env.PATH);
  if (file === undefined) {
    throw error(
      'PROCESS_COMMAND_NOT_FOUND',
      `Command "${request.command}" was not found${request.command.includes('/') ? '' : ' on PATH'} or is not executable; check the name, or pass shell: true for a shell built-in.`,
      { command: request.command },
    );
  }
  const args = request.args.join(' ');
  const line = (name: string) => (args === '' ? name : `${name} ${args}`);
  // A bare name counts for `allow` only when it means the same file as on the gateway's own
  // PATH: otherwise a script named `node` in the workspace (or env.PATH) would pass "node".
  const trusted = which(basename(file), cwd, process.env.PATH, true) === file;
  checkPolicy(
    config,
    {
      allow: trusted ? [line(file), line(basename(file))] : [line(file)],
      deny: [line(request.command), line(file), line(basename(file))],
    },
    request.command,
    error,
  );
  return { ...base, file, argv0: request.command, spawnArgs: request.args };
}

/**
 * Refuses (PROCESS_COMMAND_TOO_LARGE) a command line over `limit` bytes, before anything is
 * stored: the command and its args are kept in the process's record and sent in every view of
 * it (process_list answers up to 500) and in its events, so the schema's own bounds (1000 args of
 * 32 KiB) would let one call store 32 MiB.
 */
function checkCommandSize(request: Pick<LaunchRequest, 'command' | 'args'>, limit: number, error: RaiseError): void {
  const command = Buffer.byteLength(request.command);
  // One byte between the parts, as the command line shows them.
  const length = request.args.reduce((sum, arg) => sum + 1 + Buffer.byteLength(arg), command);
  if (length <= limit) return;
  const field = command > limit ? 'command' : 'args';
  throw error(
    'PROCESS_COMMAND_TOO_LARGE',
    `The ${field === 'command' ? 'command' : 'command and its args'} take ${length} bytes; at most ${limit} (plugins.process.config.maxCommandBytes). Put long input in a file and pass its path, or send it to stdin with process_input.`,
    { field, limit, length },
  );
}

/**
 * A pattern with no space matches the command name alone; one with spaces matches the whole
 * command line (`name arg1 arg2`). `*` matches any text, `?` one character.
 */
function checkPolicy(
  config: ProcessConfig,
  lines: { allow: readonly string[]; deny: readonly string[]; wholeLineOnly?: boolean },
  command: string,
  error: RaiseError,
): void {
  const denied = config.deny.find((pattern) => lines.deny.some((l) => patternMatches(pattern, l)));
  if (denied !== undefined) {
    throw error('PROCESS_NOT_ALLOWED', `Command "${command}" is denied by the pattern "${denied}" in the process plugin config.`, {
      command,
      pattern: denied,
    });
  }
  const allowing = lines.wholeLineOnly ? config.allow.filter((p) => /\s/.test(p)) : config.allow;
  if (config.allow.length > 0 && !allowing.some((pattern) => lines.allow.some((l) => patternMatches(pattern, l)))) {
    throw error('PROCESS_NOT_ALLOWED', `Command "${command}" matches none of the allowed patterns: ${config.allow.join(', ')}.`, {
      command,
      allow: config.allow,
    });
  }
}

export function patternMatches(pattern: string, line: string): boolean {
  const subject = /\s/.test(pattern) ? line : firstWord(line);
  const source = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[\\s\\S]*').replace(/\?/g, '[\\s\\S]');
  return new RegExp(`^${source}$`).test(subject);
}

function firstWord(line: string): string {
  return line.split(/\s/, 1)[0]!;
}

/**
 * The executable `command` names: a path (relative to cwd) or a name searched on PATH.
 * `absoluteDirsOnly` skips relative PATH entries (".", ""), which would point into cwd.
 */
function which(command: string, cwd: string, path: string | undefined, absoluteDirsOnly = false): string | undefined {
  if (command.includes('/')) {
    const file = resolve(cwd, command);
    return isExecutable(file) ? file : undefined;
  }
  for (const dir of (path ?? '').split(delimiter)) {
    if (absoluteDirsOnly && !isAbsolute(dir)) continue;
    // An empty PATH entry means the current directory, as in the shell.
    const file = resolve(cwd, dir === '' ? '.' : dir, command);
    if (isExecutable(file)) return file;
  }
  return undefined;
}

function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Quotes one argument for a POSIX shell, leaving plain words as they are. */
export function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_\/.,:=@%+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
