import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, fsyncSync, linkSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createApiKey } from './http/api-keys.js';
import { GatewayError } from './errors.js';
import { makePrivateDir } from './private-files.js';

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
 * read it again; the file mode protects it. Created whole or not at all: written to a
 * temporary file, then linked into place, which fails if another gateway starting at the
 * same moment got there first (and then its key is used).
 */
export function loadOwnerKey(dataDir: string): OwnerKey {
  makePrivateDir(dataDir);
  const file = join(dataDir, OWNER_KEY_FILE);
  const existing = readOwnerKey(file);
  if (existing !== undefined) return { key: existing, file, created: false };
  const { key } = createApiKey();
  const temporary = join(dataDir, `.owner.key.${process.pid}.${randomBytes(4).toString('hex')}`);
  const fd = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    try {
      writeSync(fd, `${key}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    // link(2), unlike rename(2), never replaces: of gateways starting at once, one key wins.
    linkSync(temporary, file);
    return { key, file, created: true };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    unlinkSync(temporary);
  }
  return { key: readOwnerKey(file)!, file, created: false };
}

/**
 * The key in `file` (undefined when there is none yet), which must be a regular file of this
 * user's that no one else can read: a symlink or a file someone else planted is refused.
 */
function readOwnerKey(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    const reason = (err as NodeJS.ErrnoException).code === 'ELOOP' ? 'is a symlink' : `cannot be read (${(err as NodeJS.ErrnoException).code})`;
    throw new GatewayError('CONFIG_INVALID', `${file} ${reason}; delete it and restart to make a new owner key.`, { cause: err });
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.uid !== process.getuid?.() || (stats.mode & 0o077) !== 0) {
      throw new GatewayError('CONFIG_INVALID', `${file} must be a regular file of this user's with mode 0600 (others could read or replace the key); delete it and restart to make a new one.`);
    }
    const key = readFileSync(fd, 'utf8').trim();
    if (!KEY_PATTERN.test(key)) throw new GatewayError('CONFIG_INVALID', `${file} does not hold an owner key; delete it and restart to make a new one.`);
    return key;
  } finally {
    closeSync(fd);
  }
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
