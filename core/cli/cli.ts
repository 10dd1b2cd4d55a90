import { parseArgs } from 'node:util';
import { fail, print } from './cli-output.js';
import { loadConfig, OWNER_KEY_NAME, type ApiKeyConfig, type GatewayConfig } from '../config/config.js';
import { checkProfileName } from '../catalog/profiles.js';
import { errorBody, isGatewayError } from '../contract/errors.js';
import { createGateway, type Gateway } from '../gateway/gateway.js';
import { createLogger, type LogLevel } from '../lib/logger.js';
import { BUILTIN_CLI_WORDS } from '../plugins/plugin-commands.js';
import { BUILTIN_REGISTRY_DIR, loadRegistry } from '../plugins/registry.js';
import { toRestData } from '../catalog/tool-result.js';
import { toolEntry, type RegisteredTool } from '../catalog/tool-catalog.js';
import { catalogCost, formatCatalogCost } from '../catalog/catalog-cost.js';
import { parseHostPort, runServe, runStdio } from './serve.js';
import { GATEWAY_VERSION } from '../lib/version.js';

const HELP = `mcp-gateway ${GATEWAY_VERSION} — one MCP tool catalog from many plugins

Usage:
  mcp-gateway --stdio                 serve one MCP session on stdin/stdout (for MCP client configs);
                                      without a workspace set, the client's first MCP root is the workspace
      --profile NAME                    the tools this client sees (default: the config's defaultProfile;
                                        \`all\` is the whole catalog; GET /profiles lists them)
  mcp-gateway serve [options]         serve the transports the config enables (HTTP, TCP, unix socket)
      --http HOST:PORT                  HTTP (REST, /mcp, /events, /docs) here instead of the config's address
      --tcp HOST:PORT                   listen for TCP here instead of the config's address
      --unix PATH                       unix socket path instead of the config's
      --no-http, --no-tcp, --no-unix    leave that transport off
      --profile NAME                    the default profile of MCP clients (/mcp, TCP, the unix socket)
  mcp-gateway tools [--json]          list every tool with its plugin and origin (and schema with --json)
  mcp-gateway tools --cost [--json]   what the tool list costs a client: bytes and approximate tokens
                                      (bytes ÷ 4) of each tools/list entry, per plugin and in all
      --profile NAME                    only the tools that profile lists (default: every tool)
  mcp-gateway call TOOL ['JSON']      call one tool in process and print its result
  mcp-gateway plugins                 list the registry and which plugins are enabled
  mcp-gateway PLUGIN COMMAND [ARGS...]  a command a plugin adds (mcp-gateway PLUGIN --help lists them);
                                      --config and --workspace go before PLUGIN, the rest is the command's
  mcp-gateway keys owner [--http HOST:PORT] [--tcp HOST:PORT]
                                      print the owner key (dataDir/owner.key) with ready-to-paste
                                      lines, for these addresses if the gateway listens elsewhere
                                      than the config says (its start names them)
  mcp-gateway keys create --name NAME [--scope SCOPE]... [--profile NAME]
                                      make another API key; prints it once, with the config lines
  mcp-gateway plugin new NAME [--dir DIR]
                                      write a new plugin package (TypeScript, a tool, its test,
                                      a registry entry) into DIR (default: ./NAME), never over files
  mcp-gateway upstream add NAME [options] -- COMMAND [ARGS...]
  mcp-gateway upstream add NAME --url URL [options]
  mcp-gateway upstream remove NAME | list [--json]
                                      add, remove or list the MCP servers the upstream plugin
                                      federates, in the config file (whose comments are kept);
                                      the options: mcp-gateway upstream --help

Options:
  --config FILE    the config file (default: $MCP_GATEWAY_CONFIG, then ./gateway.config.yaml)
  --workspace DIR  the folder the file and process tools work in (default: the config's
                   workspace; else the working directory, or with --stdio the client's roots)
  --help, --version
`;

const options = {
  config: { type: 'string' },
  workspace: { type: 'string' },
  stdio: { type: 'boolean' },
  http: { type: 'string' },
  tcp: { type: 'string' },
  unix: { type: 'string' },
  'no-http': { type: 'boolean' },
  'no-tcp': { type: 'boolean' },
  'no-unix': { type: 'boolean' },
  name: { type: 'string' },
  dir: { type: 'string' },
  scope: { type: 'string', multiple: true },
  profile: { type: 'string' },
  json: { type: 'boolean' },
  cost: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

type Flags = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>['values'];

export async function main(argv: string[]): Promise<number> {
  const found = commandWord(argv);
  // Any other first word names a plugin whose command parses its own arguments (`--stdio`
  // before it keeps its meaning, as it did before plugins had commands).
  const before = argv.slice(0, found?.index);
  if (found && !BUILTIN_CLI_WORDS.has(found.word) && !before.includes('--stdio')) {
    const { runPluginCommand } = await import('./cli-commands.js');
    return runPluginCommand(before, found.word, argv.slice(found.index + 1));
  }
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    return fail(`${(err as Error).message}\n\n${HELP}`);
  }
  const { values: flags, positionals } = parsed;
  if (flags.help) return print(HELP);
  if (flags.version) return print(`${GATEWAY_VERSION}\n`);
  const command = flags.stdio ? 'stdio' : (positionals[0] ?? 'help');
  switch (command) {
    case 'stdio':
      return runStdio(flags);
    case 'serve':
      return runServe(flags);
    case 'tools':
      return listTools(flags);
    case 'call':
      return callTool(flags, positionals[1], positionals[2]);
    case 'plugins':
      return listPlugins(flags);
    case 'keys':
      if (positionals[1] === 'create') return createKey(flags);
      if (positionals[1] === 'owner') return showOwnerKey(flags);
      return fail(`Usage: mcp-gateway keys owner | keys create --name NAME [--scope SCOPE]... [--profile NAME]\n`);
    case 'plugin':
      if (positionals[1] === 'new') return newPlugin(positionals[2], flags.dir);
      return fail(`Usage: mcp-gateway plugin new NAME [--dir DIR]\n`);
    case 'help':
      return print(HELP);
    default:
      return fail(`Unknown command "${command}".\n\n${HELP}`);
  }
}

/** The command's name and where it is: the first word that is not an option or an option's value. */
function commandWord(argv: string[]): { word: string; index: number } | undefined {
  const end = argv.indexOf('--');
  const { tokens } = parseArgs({ args: end < 0 ? argv : argv.slice(0, end), options, allowPositionals: true, strict: false, tokens: true });
  const first = tokens.find((t) => t.kind === 'positional');
  return first?.kind === 'positional' ? { word: first.value, index: first.index } : undefined;
}

async function boot(flags: Flags, logLevel?: LogLevel): Promise<Gateway> {
  const config = loadConfig({ file: flags.config, workspace: flags.workspace });
  return createGateway({ config, log: createLogger(logLevel ?? config.logLevel) });
}

async function showOwnerKey(flags: Flags): Promise<number> {
  const config = loadConfig({ file: flags.config, unsetWorkspace: 'none' });
  if (config.auth === 'none') return fail('auth: none is set in the config: no key is needed (or checked).\n');
  const { loadOwnerKey, ownerKeyLines } = await import('../auth/owner-key.js');
  const owner = loadOwnerKey(config.dataDir);
  // --http / --tcp: where a running gateway really listens (its start names them), when not where the config says.
  const { http, tcp } = config.transports;
  const address = (given: string | undefined, flag: string, configured: { enabled: boolean; host: string; port: number }) => {
    if (given) {
      const [host, port] = parseHostPort(given, flag);
      return { host, port };
    }
    return configured.enabled ? configured : undefined;
  };
  return print(ownerKeyLines(owner.key, owner.file, address(flags.http, '--http', http), owner.created ? 'created' : 'stored', address(flags.tcp, '--tcp', tcp)));
}

async function listTools(flags: Flags): Promise<number> {
  const gateway = await boot(flags, 'warn');
  try {
    const profile = flags.profile === undefined ? undefined : gateway.profiles.require(flags.profile);
    const tools = gateway.catalog.list().filter((t) => profile?.lists(t) ?? true);
    if (flags.cost) {
      const cost = catalogCost(tools);
      return print(flags.json ? `${JSON.stringify(cost, null, 2)}\n` : formatCatalogCost(cost));
    }
    if (flags.json) return print(`${JSON.stringify(tools.map(toolEntry), null, 2)}\n`);
    // A relayed tool shows where it really runs beside its plugin: `upstream (upstream fs: read_text_file)`.
    const owner = (t: RegisteredTool) => (t.definition.origin === undefined ? t.plugin : `${t.plugin} (${t.definition.origin})`);
    const width = Math.max(4, ...tools.map((t) => t.listing.name.length));
    const ownerWidth = Math.max(12, ...tools.map((t) => owner(t).length));
    const lines = tools.map((t) => `${t.listing.name.padEnd(width)}  ${owner(t).padEnd(ownerWidth)}  ${firstSentence(t.listing.description ?? '')}`);
    return print(`${lines.join('\n')}\n`);
  } finally {
    await gateway.close();
  }
}

async function callTool(flags: Flags, name: string | undefined, json: string | undefined): Promise<number> {
  if (!name) return fail(`Usage: mcp-gateway call TOOL ['{"arg": "value"}']\n`);
  let args: unknown = {};
  if (json !== undefined) {
    try {
      args = JSON.parse(json);
    } catch (err) {
      return fail(`The arguments are not valid JSON: ${(err as Error).message}\n`);
    }
  }
  const gateway = await boot(flags, 'warn');
  try {
    const outcome = await gateway.catalog.call(name, args, { caller: { transport: 'cli', identity: 'cli' } });
    if (outcome.ok) return print(`${JSON.stringify(toRestData(outcome.value), null, 2)}\n`);
    return fail(`${JSON.stringify(errorBody(outcome.error), null, 2)}\n`);
  } finally {
    await gateway.close();
  }
}

/** The registry with each plugin's version and description, read from its module (their one source). */
async function listPlugins(flags: Flags): Promise<number> {
  const config = loadConfig({ file: flags.config, unsetWorkspace: 'none' });
  const registry = loadRegistry([BUILTIN_REGISTRY_DIR, ...config.registries]);
  const lines = await Promise.all(
    [...registry.values()].map(async (entry) => {
      const settings = config.plugins[entry.name];
      const state = settings?.enabled ? 'enabled ' : 'disabled';
      const about = await import(entry.module).then(
        (mod: { default?: { version?: unknown; description?: unknown } }) => `${String(mod.default?.version ?? '?').padEnd(8)} ${firstSentence(String(mod.default?.description ?? ''))}`,
        (err: Error) => `${'?'.padEnd(8)} (cannot import ${entry.module}: ${err.message})`,
      );
      return `${entry.name.padEnd(14)} ${state}  ${about}`;
    }),
  );
  return print(`${lines.join('\n') || '(the registry is empty)'}\n`);
}

async function createKey(flags: Flags): Promise<number> {
  if (!flags.name || !/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(flags.name)) {
    return fail('keys create needs --name NAME (letters, digits, "_", "." or "-").\n');
  }
  const scopes = flags.scope?.length ? flags.scope : ['*'];
  const { createApiKey } = await import('../auth/api-keys.js');
  const { key, hash } = createApiKey();
  const config = loadConfig({ file: flags.config, unsetWorkspace: 'none' });
  const profile = flags.profile;
  if (profile !== undefined) checkProfileName(config.profiles, profile);
  const bound = profile === undefined ? {} : { profile };
  if (config.storage.shared !== 'sqlite') {
    if (flags.name === OWNER_KEY_NAME) return fail(`keys create: "${OWNER_KEY_NAME}" is the owner key's name; choose another.\n`);
    return createSharedKey(config, { name: flags.name, hash, scopes, ...bound }, key);
  }
  return print(
    `API key for "${flags.name}" (shown once; store it now):\n\n  ${key}\n\n` +
      `Add to gateway.config.yaml under apiKeys:\n\n` +
      `  - name: ${flags.name}\n    hash: ${hash}\n    scopes: [${scopes.map((s) => JSON.stringify(s)).join(', ')}]\n` +
      (profile === undefined ? '\n' : `    profile: ${profile}\n\n`) +
      `Send it over HTTP as "Authorization: Bearer <key>" or "X-API-Key: <key>", over TCP in initialize as params._meta.apiKey.\n`,
  );
}

/** With a PostgreSQL store: the key goes to `core_api_keys`, and every gateway on it accepts it. */
async function createSharedKey(config: Pick<GatewayConfig, 'storage' | 'dataDir' | 'file'>, entry: ApiKeyConfig, key: string): Promise<number> {
  const { SharedStore } = await import('../storage/shared-store.js');
  const { addSharedKey } = await import('../auth/shared-api-keys.js');
  const store = await SharedStore.open(config.storage, { dataDir: config.dataDir, log: createLogger('warn'), configWhere: config.file ?? '(default configuration)' });
  try {
    if (!(await addSharedKey(store, entry))) return fail(`keys create: a key named "${entry.name}" is already in the shared store (${store.where}); choose another name.\n`);
  } finally {
    await store.close();
  }
  return print(
    `API key for "${entry.name}" (shown once; store it now):\n\n  ${key}\n\n` +
      `It is in the shared store (${store.where}) with scopes [${entry.scopes.map((s) => JSON.stringify(s)).join(', ')}]${entry.profile ? `, bound to the profile ${entry.profile}` : ''}: every gateway on it accepts it within seconds, no config change needed.\n\n` +
      `Send it over HTTP as "Authorization: Bearer <key>" or "X-API-Key: <key>", over TCP in initialize as params._meta.apiKey.\n`,
  );
}

async function newPlugin(name: string | undefined, dir: string | undefined): Promise<number> {
  if (!name) return fail('Usage: mcp-gateway plugin new NAME [--dir DIR]\n');
  const { scaffoldPlugin } = await import('./scaffold.js');
  let result;
  try {
    result = scaffoldPlugin(name, dir ?? name);
  } catch (err) {
    return fail(`mcp-gateway plugin new: ${(err as Error).message}\n`);
  }
  return print(
    `Wrote the plugin "${name}" in ${result.dir}:\n${result.files.map((f) => `  ${f}`).join('\n')}\n\n` +
      `Build and test it (README.md says more):\n\n  cd ${result.dir}\n  npm install\n  npm run build\n  npm test\n`,
  );
}

function firstSentence(text: string): string {
  const sentence = /^.*?[.!?](\s|$)/.exec(text)?.[0] ?? text;
  return sentence.trim();
}

/** Entry point of bin/mcp-gateway.js. */
export function run(): void {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      const { code, address, port } = err as { code?: string; address?: string; port?: number };
      const message = isGatewayError(err)
        ? `${err.code}: ${err.message}`
        : code === 'EADDRINUSE'
          ? `${address}:${port} is already in use (another gateway?). Choose other ports with --http / --tcp, or MCP_GATEWAY_HTTP_PORT / MCP_GATEWAY_TCP_PORT with the shipped config.`
          : ((err as Error)?.stack ?? String(err));
      process.stderr.write(`mcp-gateway: ${message}\n`);
      process.exitCode = 1;
    },
  );
}
