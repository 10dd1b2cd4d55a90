import { createApiKey } from './api-keys.js';
import { loadSecretFile } from '../fs/secret-file.js';

export const OWNER_KEY_FILE = 'owner.key';
const KEY_PATTERN = /^mgw_[A-Za-z0-9_-]{43}$/;

/** The key of whoever runs the gateway: full scope, kept in dataDir for that user alone. */
export interface OwnerKey {
  readonly key: string;
  readonly file: string;
  /** True when this start made it: the moment to show it with ready-to-paste lines. */
  readonly created: boolean;
}

/**
 * Reads the owner key from `dataDir/owner.key`, or creates it (mode 0600, in a 0700 folder).
 * Like Jupyter's token file, the key is stored as it is, since its owner has to be able to
 * read it again; the file mode protects it (secret-file.ts).
 */
export function loadOwnerKey(dataDir: string): OwnerKey {
  const { secret, file, created } = loadSecretFile(dataDir, { label: 'owner key', name: OWNER_KEY_FILE, pattern: KEY_PATTERN, make: () => createApiKey().key });
  return { key: secret, file, created };
}

/**
 * The MCP Inspector the pasted lines run. Its CLI has `--header` from 0.16.6, and every release
 * since declares Node 22 in its engines, so on Node 20 an unpinned `npx` picks an older one
 * without `--header`. 0.22.0 runs on Node 20 (npm only warns EBADENGINE); README.md names the same.
 */
export const INSPECTOR_PACKAGE = '@modelcontextprotocol/inspector@0.22.0';

interface HostPort {
  readonly host: string;
  readonly port: number;
}

/**
 * The owner key with lines a person can paste into a shell, Claude Code, the Inspector, a
 * browser, each with the addresses given: the ones the gateway listens on, not the config's.
 */
export function ownerKeyLines(key: string, file: string, http: HostPort | undefined, how: 'created' | 'stored', tcp?: HostPort): string {
  const lines = [`mcp-gateway: owner API key (${how === 'created' ? 'created now' : 'stored'} in ${file}, mode 0600; it can call every tool):`, '', `  ${key}`, ''];
  if (http) {
    const base = `http://${hostPort(http)}`;
    lines.push(
      `  curl -X POST ${base}/tools/gateway_status -H 'Authorization: Bearer ${key}'`,
      `  claude mcp add --transport http gateway ${base}/mcp --header 'Authorization: Bearer ${key}'`,
      `  npx -y ${INSPECTOR_PACKAGE} --cli ${base}/mcp --header 'Authorization: Bearer ${key}' --method tools/list`,
      `  explorer: ${base}/docs?key=${key}`,
    );
  }
  lines.push(`  TCP${tcp ? ` ${hostPort(tcp)}` : ''}: send it in initialize as params._meta.apiKey. stdio and the unix socket need no key.`, '');
  return `${lines.join('\n')}\n`;
}

/** `host:port`, an IPv6 host in brackets. */
export function hostPort({ host, port }: HostPort): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}
