import { parseArgs } from 'node:util';
import type { ConfigCommandIo, PluginConfigFile } from '@mcp-gateway/core';
import { serverSchema } from './config.js';
import { prefixOf } from './names.js';

/**
 * `mcp-gateway upstream add|remove|list`, the plugin's config command: the servers of
 * `plugins.upstream.config.servers`, edited in the config file without touching the rest of it
 * and without starting a gateway. Entries are checked here as far as the command line can say;
 * the plugin validates them in full at boot.
 */

export const UPSTREAM_HELP = `Usage:
  mcp-gateway upstream add NAME [options] -- COMMAND [ARGS...]
                                      add an MCP server the gateway starts over stdio; everything
                                      after -- is its command line, as it is
      --env KEY=VALUE                   an environment variable for it (repeat for more)
      --cwd DIR                         its working directory, relative to the workspace
  mcp-gateway upstream add NAME --url URL [options]
                                      add a Streamable HTTP MCP server
      --header 'NAME: VALUE'            a header sent with each request (repeat for more); write
                                        secrets as '\${VAR}' (single quotes) to keep them out of the file
    options of both:
      --prefix P                        prefix of its tool names (default: NAME_)
      --timeout MS                      time limit of its calls, in milliseconds
      --optional                        a server that fails to start is skipped, not fatal
  mcp-gateway upstream remove NAME    remove a server
  mcp-gateway upstream list [--json]  list the servers: name, kind, command or URL, prefix, state

They are the list plugins.upstream.config.servers of the config file (--config FILE, else
$MCP_GATEWAY_CONFIG, else ./gateway.config.yaml, made if missing); comments and the rest of the
file are kept. The gateway reads them when it starts: restart it after a change.
`;

const SERVERS = ['config', 'servers'] as const;
const NAME = new RegExp(serverSchema.properties.name.pattern);
// Empty leaves the upstream's names as they are.
const PREFIX = new RegExp(serverSchema.properties.prefix.pattern);
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Keys of a new entry written as `args: ["-y", "pkg"]` and `env: {KEY: value}`, as the docs show them.
const STYLE = { flow: ['args', 'env', 'headers'], quoted: ['args'] };

const options = {
  config: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  json: { type: 'boolean' },
  prefix: { type: 'string' },
  timeout: { type: 'string' },
  optional: { type: 'boolean' },
  env: { type: 'string', multiple: true },
  cwd: { type: 'string' },
  url: { type: 'string' },
  header: { type: 'string', multiple: true },
} as const;

type Flags = ReturnType<typeof parseArgs<{ options: typeof options; tokens: true; allowPositionals: true }>>['values'];

const ALLOWED: Record<string, ReadonlyArray<keyof Flags>> = {
  add: ['config', 'prefix', 'timeout', 'optional', 'env', 'cwd', 'url', 'header'],
  remove: ['config'],
  list: ['config', 'json'],
};

/** What the command prints: on stdout for 0, on stderr for 1; each returns the exit status. */
interface Output {
  print(text: string): number;
  fail(text: string): number;
}

/**
 * Runs `mcp-gateway upstream ...`; `args` is the command line without the program's and the
 * plugin's names. Returns the exit status; throws CONFIG_INVALID for a config file it cannot
 * read, parse or write.
 */
export function runUpstreamCommand(args: readonly string[], io: ConfigCommandIo): number {
  const out: Output = {
    print: (text) => (io.stdout.write(text), 0),
    fail: (text) => (io.stderr.write(text), 1),
  };
  const argv = [...args];
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true, tokens: true });
  } catch (err) {
    // Node's message goes on about `--` for positionals; for `add`, `--` starts the server's command.
    const first = (err as Error).message.split(/\.\s/)[0];
    const adding = parseArgs({ args: argv, options, allowPositionals: true, strict: false }).positionals[0] === 'add';
    const advice = adding ? "a server's command and its own options go after --: mcp-gateway upstream add NAME -- COMMAND [ARGS...]" : 'see mcp-gateway upstream --help';
    return out.fail(`mcp-gateway upstream: ${first}; ${advice}\n`);
  }
  const { values: flags, tokens } = parsed;
  // Everything after `--` is the wrapped server's command line, never read as our options.
  const end = tokens.find((t) => t.kind === 'option-terminator')?.index ?? Infinity;
  const words = tokens.flatMap((t) => (t.kind === 'positional' && t.index < end ? [t.value] : []));
  const command = tokens.flatMap((t) => (t.kind === 'positional' && t.index > end ? [t.value] : []));
  const [sub, name, ...extra] = words;
  if (flags.help) return out.print(UPSTREAM_HELP);
  if (!sub || !(sub in ALLOWED)) return out.fail(`mcp-gateway upstream: ${sub ? `unknown command "${sub}"` : 'add, remove or list?'}\n\n${UPSTREAM_HELP}`);
  const refuse = (message: string) => out.fail(`mcp-gateway upstream ${sub}: ${message}\n`);
  const stray = (Object.keys(flags) as Array<keyof Flags>).find((flag) => !ALLOWED[sub]!.includes(flag));
  if (stray) return refuse(`--${stray} is not an option of "upstream ${sub}" (see mcp-gateway upstream --help).`);
  if (sub === 'add' && extra.length > 0) return refuse(`unexpected "${extra[0]}": the server's command goes after --, as in: mcp-gateway upstream add ${name} -- ${extra.join(' ')}`);
  const unexpected = sub === 'list' ? [name, ...command] : sub === 'remove' ? [...extra, ...command] : [];
  if (unexpected.some((word) => word !== undefined)) return refuse(`unexpected "${unexpected.find((word) => word !== undefined)}".`);
  if (sub !== 'list' && !name) return refuse(`which server? mcp-gateway upstream ${sub} NAME`);
  // Only a new name is checked: remove must also take out an entry written by hand with a bad one.
  if (sub === 'add' && !NAME.test(name!)) return refuse(`"${name}" is not a server name: lowercase letters, digits, "_" and "-", starting with a letter, at most 32 characters.`);
  if (sub === 'list') return listServers(io.openConfig(flags.config), flags.json === true, out);
  if (sub === 'remove') return removeServer(io.openConfig(flags.config), name!, refuse, out);
  const entry = serverEntry(name!, flags, command);
  if (typeof entry === 'string') return refuse(entry);
  return addServer(io.openConfig(flags.config), entry, refuse, out);
}

type ServerEntry = Record<string, unknown> & { name: string };

/** The new list entry from the flags, or why they do not make one. */
function serverEntry(name: string, flags: Flags, command: string[]): ServerEntry | string {
  if (command.length > 0 && flags.url !== undefined) return 'give either a command after -- (a stdio server) or --url (an HTTP server), not both.';
  if (command.length === 0 && flags.url === undefined) return `give the server's command after -- (mcp-gateway upstream add ${name} -- npx -y PACKAGE) or --url URL.`;
  if (command[0] === '') return 'the command after -- is empty.';
  if (flags.url !== undefined && (flags.env || flags.cwd !== undefined)) return '--env and --cwd are for a server started as a command (after --); an HTTP server takes --header.';
  if (flags.url === undefined && flags.header) return '--header is for an HTTP server (--url); a command takes --env.';
  const entry: ServerEntry = { name };
  if (flags.url !== undefined) {
    // A URL may hold `${VAR}` (the loader expands it), which is no valid URL yet: check the scheme then.
    if (!/^https?:\/\//i.test(flags.url) || (!flags.url.includes('${') && !URL.canParse(flags.url))) {
      return `--url must be an http:// or https:// URL, not "${flags.url}".`;
    }
    entry.url = flags.url;
    const headers = pairs(flags.header, ':', HEADER_NAME, 'header', `--header 'Authorization: Bearer \${TOKEN}'`);
    if (typeof headers === 'string') return headers;
    if (headers) entry.headers = headers;
  } else {
    entry.command = command[0];
    if (command.length > 1) entry.args = command.slice(1);
    const env = pairs(flags.env, '=', ENV_NAME, 'environment variable', '--env KEY=VALUE');
    if (typeof env === 'string') return env;
    if (env) entry.env = env;
    if (flags.cwd !== undefined) {
      if (flags.cwd === '') return '--cwd needs a folder.';
      entry.cwd = flags.cwd;
    }
  }
  if (flags.prefix !== undefined) {
    if (!PREFIX.test(flags.prefix)) return `--prefix "${flags.prefix}": lowercase letters, digits and "_", at most 32 characters (may be empty).`;
    entry.prefix = flags.prefix;
  }
  if (flags.timeout !== undefined) {
    if (!/^[1-9][0-9]*$/.test(flags.timeout)) return `--timeout is in milliseconds, a whole number above 0, not "${flags.timeout}".`;
    entry.timeoutMs = Number(flags.timeout);
  }
  if (flags.optional) entry.optional = true;
  return entry;
}

/** `NAME<sep>VALUE` strings as a mapping; a string says what is wrong. */
function pairs(items: string[] | undefined, separator: string, pattern: RegExp, what: string, example: string): Record<string, string> | undefined | string {
  if (!items) return undefined;
  const out: Record<string, string> = {};
  for (const item of items) {
    const at = item.indexOf(separator);
    // Header names and values are trimmed as HTTP does; an environment value is kept as typed.
    const header = separator === ':';
    const key = at < 0 ? '' : header ? item.slice(0, at).trim() : item.slice(0, at);
    if (!pattern.test(key)) return `"${item}" is not ${header ? 'a' : 'an'} ${what} (${example}).`;
    if (Object.keys(out).some((k) => (header ? k.toLowerCase() === key.toLowerCase() : k === key))) return `the ${what} ${key} is given twice.`;
    out[key] = header ? item.slice(at + 1).trim() : item.slice(at + 1);
  }
  return out;
}

function addServer(file: PluginConfigFile, entry: ServerEntry, refuse: (message: string) => number, out: Output): number {
  if (servers(file).some((s) => s.name === entry.name)) {
    return refuse(`a server named "${entry.name}" is already in ${file.path}; run \`mcp-gateway upstream remove ${entry.name}\` first.`);
  }
  const existed = file.exists;
  file.append(SERVERS, entry, STYLE);
  const tools = `mcp-gateway tools${file.named ? ` --config ${shellWord(file.path)}` : ''}`;
  const notes = [...secretHints(entry, file.path), ...pluginState(file)];
  const lines = [
    `${existed ? 'Updated' : 'Created'} ${file.path}: added the upstream server "${entry.name}".`,
    '',
    ...table([entry]).map((row) => `  ${row}`),
    '',
    ...notes.flatMap((note) => [note, '']),
    `Next: restart the gateway, then \`${tools}\` lists its tools (${prefixOfEntry(entry) ? `named ${prefixOfEntry(entry)}…` : 'under their own names'}).`,
  ];
  return out.print(`${lines.join('\n')}\n`);
}

function removeServer(file: PluginConfigFile, name: string, refuse: (message: string) => number, out: Output): number {
  if (!file.exists) return refuse(`there is no ${file.path}, so no server "${name}" in it.`);
  // The index in the file's list, which may hold entries that are no mapping.
  const all = file.list(SERVERS);
  const index = all.findIndex((s) => isEntry(s) && s.name === name);
  if (index < 0) {
    const names = all.filter(isEntry).map((s) => s.name).filter(Boolean);
    return refuse(`no server "${name}" in ${file.path} (${names.length ? `there are: ${names.join(', ')}` : 'it lists none'}).`);
  }
  file.remove(SERVERS, index);
  return out.print(`Updated ${file.path}: the upstream server "${name}" is removed. Restart the gateway for it to stop serving its tools.\n`);
}

function listServers(file: PluginConfigFile, json: boolean, out: Output): number {
  const list = servers(file);
  if (json) return out.print(`${JSON.stringify(list.map(summary), null, 2)}\n`);
  if (list.length === 0) {
    const where = file.exists ? `none in ${file.path}` : `there is no ${file.path}`;
    return out.print(`No upstream servers (${where}). Add one: mcp-gateway upstream add NAME -- COMMAND [ARGS...]\n`);
  }
  return out.print(`${[...table(list), ...pluginState(file).flatMap((note) => ['', note])].join('\n')}\n`);
}

/** Name, kind, prefix, state and command line (or URL) of each server, in aligned columns under a header. */
function table(list: ServerEntry[]): string[] {
  const rows = [['NAME', 'KIND', 'PREFIX', 'STATE', 'COMMAND OR URL'], ...list.map(describe)];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i < r.length - 1 ? cell.padEnd(widths[i]!) : cell)).join('  '));
}

/** The entries of the list, as written (with `${VAR}` unexpanded); what is not a mapping is left out. */
function servers(file: PluginConfigFile): ServerEntry[] {
  return file.list(SERVERS).filter(isEntry);
}

function isEntry(value: unknown): value is ServerEntry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What `list --json` shows: env and header names only, since their values may be secrets. */
function summary(entry: ServerEntry): Record<string, unknown> {
  const { name, env, headers, ...rest } = entry;
  return {
    name,
    kind: kindOf(entry),
    ...rest,
    prefix: prefixOfEntry(entry),
    enabled: entry.enabled !== false,
    optional: entry.optional === true,
    ...(env && typeof env === 'object' ? { env: Object.keys(env) } : {}),
    ...(headers && typeof headers === 'object' ? { headers: Object.keys(headers) } : {}),
  };
}

/** A server's cells of the table. */
function describe(entry: ServerEntry): string[] {
  const state = `${entry.enabled === false ? 'disabled' : 'enabled'}${entry.optional === true ? ', optional' : ''}`;
  const target = kindOf(entry) === 'http' ? String(entry.url) : [entry.command, ...(Array.isArray(entry.args) ? entry.args : [])].map((w) => shellWord(String(w))).join(' ');
  return [String(entry.name), kindOf(entry), prefixOfEntry(entry) || '(none)', state, target];
}

function kindOf(entry: ServerEntry): 'stdio' | 'http' {
  return entry.url !== undefined ? 'http' : 'stdio';
}

function prefixOfEntry(entry: ServerEntry): string {
  return prefixOf({ name: String(entry.name), prefix: typeof entry.prefix === 'string' ? entry.prefix : undefined });
}

/** A line for each header or env value written as a literal that looks like a credential. */
function secretHints(entry: ServerEntry, file: string): string[] {
  const values = { ...(entry.headers as Record<string, string> | undefined), ...(entry.env as Record<string, string> | undefined) };
  return Object.entries(values)
    .filter(([key, value]) => !value.includes('${') && (/auth|token|key|secret|pass|cookie|session/i.test(key) || /[A-Za-z0-9_\-+/=.]{24,}/.test(value)))
    .map(([key]) => `Hint: ${key} is written to ${file} as typed; '\${VAR}' (in single quotes, so the shell leaves it) keeps the secret in the environment and out of the file.`);
}

/** A line when the file turns the plugin off, since its servers then do not run. */
function pluginState(file: PluginConfigFile): string[] {
  const enabled = file.get(['enabled']);
  return enabled === false ? ['Note: the upstream plugin is disabled in this file (plugins.upstream.enabled: false); no server runs until it is enabled.'] : [];
}

function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
