import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { parse as parseYaml, YAMLParseError } from '../vendor/yaml.js';
import { gatewayConfigSchema } from './config-schema.js';
import { GatewayError } from '../contract/errors.js';
import type { LogLevel } from '../lib/logger.js';
import { createSchemaCompiler, describeSchemaErrors, pointerToKeyPath } from '../lib/schema.js';
import { profileNames, type ProfileConfig } from './profile-config.js';
import { resolveStorageConfig, type StorageConfig } from '../storage/store-config.js';
import { CONFIG_ENV_VAR, configFilePath, DEFAULT_CONFIG_FILE } from './config-path.js';

/** The name of the owner key (dataDir/owner.key): no key of the config may take it. */
export const OWNER_KEY_NAME = 'owner';

/**
 * What tools/list carries of each tool (`tools.listing` in the config). `lean`: what a model
 * reads to call the tool (what to send, what comes back), nothing the gateway enforces
 * anyway; every session pays for the list in context before its first call. `full`: the
 * definitions as written, for clients that show them to people. REST, OpenAPI and the
 * checks of every call and every result always work from the full definition.
 */

export type ListingForm = 'lean' | 'full';

export { CONFIG_ENV_VAR, configFilePath, DEFAULT_CONFIG_FILE } from './config-path.js';

export interface ListenerConfig {
  readonly enabled: boolean;
  readonly maxConnections: number;
  readonly maxMessageBytes: number;
  readonly maxReplyBytes: number;
}

export interface ApiKeyConfig {
  readonly name: string;
  /** `sha256:<hex>` of the key; the key itself is never stored. */
  readonly hash: string;
  readonly scopes: readonly string[];
  /** The profile every call with this key sees (profiles.ts). */
  readonly profile?: string;
}

export interface HttpConfig {
  readonly enabled: boolean;
  readonly host: string;
  readonly port: number;
  readonly bodyLimitBytes: number;
  readonly maxConnections: number;
  readonly maxConnectionsPerAddress: number;
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  readonly allowedHosts: readonly string[];
  readonly allowedOrigins: readonly string[];
  readonly rateLimit: { readonly max: number; readonly timeWindowMs: number };
  readonly mcpSessionIdleMs: number;
  readonly maxMcpSessions: number;
  readonly maxMcpSessionsPerKey: number;
  readonly events: { readonly maxQueuedBytes: number; readonly pingIntervalMs: number; readonly maxClients: number };
  /** Plugin WebSocket routes, all together. */
  readonly pluginSockets: { readonly maxClients: number; readonly pingIntervalMs: number };
}

export interface PluginSettings {
  readonly enabled: boolean;
  /** Overrides the registry's `optional`: a failing optional plugin is skipped, not fatal. */
  readonly optional?: boolean;
  readonly config: Readonly<Record<string, unknown>>;
  /** Tool names (globs) of the plugin never offered. */
  readonly exclude?: readonly string[];
}

export interface BreakerDefaults {
  readonly timeoutMs: number;
  readonly errorThresholdPercentage: number;
  readonly resetTimeoutMs: number;
  readonly volumeThreshold: number;
  readonly rollingCountTimeoutMs: number;
}

/** gateway.config.yaml after validation: defaults applied, paths absolute, frozen. */
export interface GatewayConfig {
  /** The file it came from, or undefined when the defaults were used. */
  readonly file?: string;
  readonly dataDir: string;
  /** Whether network transports need an API key (see docs/configuration.md, "Authentication"). */
  readonly auth: 'key' | 'none';
  /** Keys besides the owner key, for HTTP and TCP; only with `auth: key`. */
  readonly apiKeys: readonly ApiKeyConfig[];
  /** The sandbox root: `--workspace`, else the config's `workspace`, else the working directory. */
  readonly workspace: string;
  /** As written: names (no slash) and workspace-relative paths; see Workspace.isProtected. */
  readonly protectedPaths: readonly string[];
  /** Whether every plugin's reads of workspace files refuse files with other hard links (Workspace.refuseHardLinks). */
  readonly refuseHardLinks: boolean;
  readonly logLevel: LogLevel;
  readonly registries: readonly string[];
  readonly setupTimeoutMs: number;
  readonly shutdownTimeoutMs: number;
  readonly tools: { readonly timeoutMs: number; readonly audit: boolean; readonly auditFailOpen: boolean; readonly auditRetentionDays: number; readonly listing: ListingForm; readonly search: boolean };
  readonly breakers: BreakerDefaults;
  /** The shared store's back end (`ctx.store`); see docs/storage.md. */
  readonly storage: StorageConfig;
  readonly transports: {
    readonly stdio: { readonly maxMessageBytes: number; readonly catalogCache: boolean };
    readonly tcp: ListenerConfig & { readonly host: string; readonly port: number; readonly authTimeoutMs: number };
    readonly unix: ListenerConfig & { readonly path: string };
    readonly http: HttpConfig;
  };
  readonly plugins: Readonly<Record<string, PluginSettings>>;
  /** Named tool sets besides `all` (core/catalog/profiles.ts). */
  readonly profiles: Readonly<Record<string, ProfileConfig>>;
  /** The profile of MCP clients that name none; `all` when unset. */
  readonly defaultProfile?: string;
}

export interface LoadConfigOptions {
  /** An explicit file (`--config`); otherwise MCP_GATEWAY_CONFIG, then ./gateway.config.yaml. */
  file?: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** `--workspace`: wins over the config's, relative to the working directory. */
  workspace?: string;
  /**
   * What an unset workspace becomes: the working directory (default), or nothing, for --stdio
   * (the client's roots name it) and commands that need no workspace.
   */
  unsetWorkspace?: UnsetWorkspace;
}

export type UnsetWorkspace = 'cwd' | 'none';

/** A config loaded with `unsetWorkspace: 'none'`: no workspace when neither `--workspace` nor the file sets one. */
export type ConfigWithoutWorkspace = Omit<GatewayConfig, 'workspace'> & { readonly workspace: string | undefined };

/**
 * Finds, reads and validates the configuration. Throws CONFIG_INVALID naming file and key, and
 * CONFIG_NOT_FOUND when no file is named and the working directory has none: a gateway on
 * the bare defaults serves no plugin, and its data folder would land wherever a client started
 * it (`/` for Claude Desktop). Embedders pass an object to resolveConfig instead.
 */
export function loadConfig(options: LoadConfigOptions & { unsetWorkspace: 'none' }): ConfigWithoutWorkspace;
export function loadConfig(options?: LoadConfigOptions): GatewayConfig;
export function loadConfig(options: LoadConfigOptions = {}): GatewayConfig | ConfigWithoutWorkspace {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const file = findConfigFile(configFilePath({ file: options.file, env, cwd }), cwd);
  return resolveConfig(readYamlFile(file), { file, env, cwd, workspace: options.workspace, unsetWorkspace: options.unsetWorkspace });
}

function findConfigFile({ file, named }: { file: string; named: boolean }, cwd: string): string {
  if (existsSync(file)) return file;
  if (named) throw new GatewayError('CONFIG_INVALID', `Config file ${file} does not exist.`);
  // One line that says what to pass: over stdio it is all a desktop client shows of the failure.
  const shipped = shippedConfigFile();
  const example = shipped ? `${shipped} (the shipped one) or your own` : `/path/to/${DEFAULT_CONFIG_FILE}`;
  throw new GatewayError(
    'CONFIG_NOT_FOUND',
    `No config file: neither --config nor ${CONFIG_ENV_VAR} names one, and the working directory ${resolve(cwd)} has no ${DEFAULT_CONFIG_FILE} (MCP clients start servers in a folder of their own choosing). ` +
      `Pass --config ${example}; in an MCP client's config, add "--config" and the file's path to the server's args.`,
  );
}

/**
 * The config the `mcp-gateway` command package ships beside its bin/ folder, when this process
 * is that command (core itself ships none: it serves whoever embeds it).
 */
function shippedConfigFile(): string | undefined {
  const bin = process.argv[1];
  if (!bin || !existsSync(bin)) return undefined;
  const file = join(dirname(dirname(realpathSync(bin))), DEFAULT_CONFIG_FILE);
  return existsSync(file) ? file : undefined;
}

export function readYamlFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new GatewayError('CONFIG_INVALID', `Cannot read ${file}: ${(err as Error).message}`, { cause: err });
  }
  try {
    return parseYaml(text, { prettyErrors: true }) ?? {};
  } catch (err) {
    const detail = err instanceof YAMLParseError ? err.message : String(err);
    throw new GatewayError('CONFIG_INVALID', `${file} is not valid YAML: ${detail}`, { cause: err });
  }
}

// Config comes from YAML and environment variables, where `port: ${PORT}` is a string;
// coercing scalars here (and only here: tool arguments are never coerced) lets that work.
const validateGatewayConfig = createSchemaCompiler({ useDefaults: true, coerceTypes: true, allErrors: true }).compile(
  gatewayConfigSchema,
);

interface ResolveContext {
  file?: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  workspace?: string;
  unsetWorkspace?: UnsetWorkspace;
  /** The user's home directory (os.homedir() unless a test says otherwise). */
  home?: string;
}

/** Validates an already-parsed config object. Exported for tests and embedding. */
export function resolveConfig(raw: unknown, ctx: ResolveContext & { unsetWorkspace: 'none' }): ConfigWithoutWorkspace;
export function resolveConfig(raw: unknown, ctx: ResolveContext): GatewayConfig;
export function resolveConfig(raw: unknown, ctx: ResolveContext): GatewayConfig | ConfigWithoutWorkspace {
  const where = ctx.file ?? '(default configuration)';
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new GatewayError('CONFIG_INVALID', `${where}: the top level must be a mapping of keys.`);
  }
  const data = interpolateEnv(structuredClone(raw), ctx.env, where, '') as Record<string, unknown>;
  if ((data.transports as { http?: { apiKeys?: unknown } } | undefined)?.http?.apiKeys !== undefined) {
    throw new GatewayError('CONFIG_INVALID', `${where}: transports.http.apiKeys moved to apiKeys at the top level (keys now guard TCP as well as HTTP); move the list there.`);
  }
  const files = (data.plugins as { files?: { config?: { refuseHardLinks?: unknown } } } | undefined)?.files;
  if (files?.config?.refuseHardLinks !== undefined) {
    throw new GatewayError('CONFIG_INVALID', `${where}: plugins.files.config.refuseHardLinks moved to refuseHardLinks at the top level (one rule for every plugin's reads of workspace files, on by default); move it there.`);
  }
  if (!validateGatewayConfig(data)) {
    const lines = describeSchemaErrors(validateGatewayConfig.errors).map(
      (p) => `${pointerToKeyPath(p.path)}: ${p.message}`,
    );
    throw new GatewayError('CONFIG_INVALID', `${where}: ${lines.join('; ')}`, { details: lines });
  }
  const http = (data.transports as { http: { headersTimeoutMs: number; requestTimeoutMs: number } }).http;
  if (http.headersTimeoutMs > http.requestTimeoutMs) {
    throw new GatewayError('CONFIG_INVALID', `${where}: transports.http.headersTimeoutMs (${http.headersTimeoutMs}) must not be above requestTimeoutMs (${http.requestTimeoutMs}): the headers are part of the request.`);
  }
  if ((data.apiKeys as Array<{ name: string }>).some((k) => k.name === OWNER_KEY_NAME)) {
    throw new GatewayError('CONFIG_INVALID', `${where}: apiKeys: the name "${OWNER_KEY_NAME}" is the owner key's (dataDir/owner.key); choose another name.`);
  }
  checkProfiles(data, where);
  if (data.auth === 'none' && (data.apiKeys as unknown[]).length > 0) {
    throw new GatewayError('CONFIG_INVALID', `${where}: auth: none turns API keys off, yet apiKeys lists some; remove auth: none to use them, or the keys.`);
  }
  // Relative paths in a config file are relative to that file, so that a client that starts
  // the gateway from any directory gets the same data; without a file, to the working dir.
  const baseDir = ctx.file ? dirname(ctx.file) : ctx.cwd;
  const at = (p: string) => (isAbsolute(p) ? p : resolve(baseDir, p));
  const dataDir = at(data.dataDir as string);
  const transports = data.transports as { unix: { path?: string } };
  transports.unix.path = transports.unix.path ? at(transports.unix.path) : join(dataDir, 'gateway.sock');
  const config = {
    ...data,
    file: ctx.file,
    dataDir,
    workspace: resolveWorkspace(data.workspace as string | undefined, ctx, at, where),
    registries: (data.registries as string[]).map(at),
    storage: resolveStorageConfig(data.storage as StorageConfig, at, where),
  };
  return deepFreeze(config) as unknown as GatewayConfig;
}

/** Every profile selects something, and every name that refers to one names one that exists. */
function checkProfiles(data: Record<string, unknown>, where: string): void {
  const profiles = data.profiles as Record<string, ProfileConfig>;
  const names = profileNames(profiles);
  for (const [name, profile] of Object.entries(profiles)) {
    if (!profile.plugins?.length && !profile.tools?.length) {
      throw new GatewayError('CONFIG_INVALID', `${where}: profiles.${name} selects no tools; give it plugins: or tools:.`);
    }
  }
  const unknown = (name: string | undefined) => name !== undefined && !names.includes(name);
  const refer = (key: string, name: string) =>
    new GatewayError('CONFIG_INVALID', `${where}: ${key}: no profile is named "${name}"; the profiles are: ${names.join(', ')}.`);
  if (unknown(data.defaultProfile as string | undefined)) throw refer('defaultProfile', data.defaultProfile as string);
  for (const [i, key] of (data.apiKeys as ApiKeyConfig[]).entries()) {
    if (unknown(key.profile)) throw refer(`apiKeys[${i}].profile`, key.profile!);
  }
}

/**
 * `--workspace` (from the working directory), else the config's (from its file), else the
 * working directory, which is refused when it is `/` or the home directory: MCP clients start
 * servers there (Claude Desktop in `/`, others in $HOME), and a workspace that silently became
 * the whole filesystem or home would hand every file to the tools.
 */
function resolveWorkspace(configured: string | undefined, ctx: ResolveContext, at: (p: string) => string, where: string): string | undefined {
  if (ctx.workspace !== undefined) return resolve(ctx.cwd, ctx.workspace);
  if (configured !== undefined) return at(configured);
  if (ctx.unsetWorkspace === 'none') return undefined;
  const cwd = resolve(ctx.cwd);
  // Real paths: a home reached through a symlink (/home → /data/home, say) is still home.
  const home = realOrResolved(ctx.home ?? homedir());
  const realCwd = realOrResolved(cwd);
  if (realCwd === '/' || realCwd === home) {
    const what = cwd === '/' ? 'the whole filesystem' : 'your whole home directory';
    throw new GatewayError(
      'CONFIG_INVALID',
      `${where}: workspace is not set and the working directory is ${cwd}, which would make ${what} the workspace. Pass --workspace DIR, or set workspace: in the config (e.g. workspace: . for the config file's folder).`,
    );
  }
  return cwd;
}

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

const ENV_REF = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Replaces `${NAME}` and `${NAME:-default}` in every string value; `$${` is a literal `${`.
 * A variable that is unset and has no default is an error naming its key, not an empty
 * string that would, say, silently disable an API key.
 */
function interpolateEnv(value: unknown, env: NodeJS.ProcessEnv, where: string, pointer: string): unknown {
  if (typeof value === 'string') {
    return value.replace(ENV_REF, (match, name: string | undefined, fallback: string | undefined) => {
      if (match === '$${') return '${';
      const found = env[name!];
      // As in the shell, `:-` also replaces a variable that is set but empty.
      if (found !== undefined && (found !== '' || fallback === undefined)) return found;
      if (fallback !== undefined) return fallback;
      throw new GatewayError(
        'CONFIG_INVALID',
        `${where}: ${pointerToKeyPath(pointer)}: environment variable ${name} is not set (write \${${name}:-default} for a fallback).`,
      );
    });
  }
  if (Array.isArray(value)) return value.map((v, i) => interpolateEnv(v, env, where, `${pointer}/${i}`));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = interpolateEnv(v, env, where, `${pointer}/${k}`);
    return out;
  }
  return value;
}

export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
