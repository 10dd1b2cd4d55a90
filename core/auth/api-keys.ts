import { hash, randomBytes } from 'node:crypto';
import { OWNER_KEY_NAME, type ApiKeyConfig } from '../config/config.js';
import { globToRegExp } from '../lib/glob.js';

/** The principal name of the owner key; configured keys may not take it. */

/** Who an API key says the caller is, and what it may do. */
export interface Principal {
  readonly name: string;
  readonly scopes: readonly string[];
  /** The profile the key is bound to: every call it makes sees that profile and no other. */
  readonly profile?: string;
  mayCallTool(tool: string, plugin: string): boolean;
  readonly mayReadEvents: boolean;
  /** Whether the key may read the resources and get the prompts of `plugin`: scope `*` or `plugin:<name>`. */
  mayUsePlugin(plugin: string): boolean;
  /**
   * Whether the key may call a plugin's HTTP routes (and static files and WebSockets):
   * `*`, `plugin:<plugin>`, `route:<plugin>`, or `route:<plugin>:<scope>` for a route of that scope.
   */
  mayCallRoute(plugin: string, scope?: string): boolean;
}

/** A new random key (shown once) and the hash that goes into the config. */
export function createApiKey(): { key: string; hash: string } {
  const key = `mgw_${randomBytes(32).toString('base64url')}`;
  return { key, hash: hashApiKey(key) };
}

/**
 * Keys are 256 random bits, so one SHA-256 is enough to store them safely: there is nothing
 * to brute-force that a slow hash would protect. (Every authenticated request hashes its key:
 * the one-shot `hash` costs a third of a `createHash` object.)
 */
export function hashApiKey(key: string): string {
  return `sha256:${hash('sha256', key)}`;
}

/**
 * The keys a gateway accepts: the owner key (name `owner`, every scope) and the configured
 * ones. Scopes: `*` (everything), `plugin:<name>` (every tool and route of a plugin),
 * `route:<name>` (a plugin's HTTP routes, not its tools), `route:<name>:<scope>` (its routes of
 * that scope), `events` (the /events stream), or a tool name where `*` matches any run of
 * characters (`file_*`).
 */
export class ApiKeys {
  /** Whether requests on network transports must carry a key (config `auth: key`). */
  readonly required: boolean;
  readonly #byHash = new Map<string, Principal>();
  /** Keys from the shared store (PostgreSQL), replaced whole at each refresh. */
  #shared = new Map<string, Principal>();

  constructor(keys: readonly ApiKeyConfig[], ownerKey?: string) {
    this.required = ownerKey !== undefined || keys.length > 0;
    if (ownerKey !== undefined) this.#byHash.set(hashApiKey(ownerKey), principal({ name: OWNER_KEY_NAME, hash: '', scopes: ['*'] }));
    for (const key of keys) this.#byHash.set(key.hash, principal(key));
  }

  /** The principal for a presented key, or undefined for an unknown one. */
  authenticate(presented: string): Principal | undefined {
    const hash = hashApiKey(presented);
    return this.#byHash.get(hash) ?? this.#shared.get(hash);
  }

  /**
   * Replaces the keys read from the shared store (see SharedApiKeys). They are accepted
   * beside the owner key and the config's, which win on the same hash.
   */
  replaceShared(keys: readonly ApiKeyConfig[]): void {
    this.#shared = new Map(keys.map((key) => [key.hash, principal(key)]));
  }
}

function principal(key: ApiKeyConfig): Principal {
  const toolPatterns = key.scopes.filter((s) => !s.includes(':') && s !== 'events').map(globToRegExp);
  const plugins = new Set(key.scopes.filter((s) => s.startsWith('plugin:')).map((s) => s.slice('plugin:'.length)));
  const everything = key.scopes.includes('*');
  const routes = new Set(key.scopes.filter((s) => s.startsWith('route:')).map((s) => s.slice('route:'.length)));
  return {
    name: key.name,
    scopes: key.scopes,
    ...(key.profile === undefined ? {} : { profile: key.profile }),
    mayReadEvents: everything || key.scopes.includes('events'),
    mayCallTool: (tool, plugin) => everything || plugins.has(plugin) || toolPatterns.some((p) => p.test(tool)),
    mayUsePlugin: (plugin) => everything || plugins.has(plugin),
    mayCallRoute: (plugin, scope) => everything || plugins.has(plugin) || routes.has(plugin) || (scope !== undefined && routes.has(`${plugin}:${scope}`)),
  };
}
