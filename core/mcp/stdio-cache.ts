import { createHash, randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { configFilePath } from '../config/config-path.js';
import { makePrivateDir } from '../fs/private-files.js';
import { GATEWAY_VERSION } from '../lib/version.js';

// Loaded by bin/mcp-gateway.js before the rest of the gateway: node's own modules only.

/** Bumped when the file's shape changes: older files are then ignored. */
const FORMAT = 1;
/** A cache file not used for this long is deleted when another is written. */
const UNUSED_FOR_MS = 30 * 24 * 60 * 60 * 1000;
/** A temporary file lives for the moment of one write: one older than this was a killed writer's. */
const LEFTOVER_FOR_MS = 60 * 60 * 1000;
const SNAPSHOT_NAME = /^stdio-[0-9a-f]{32}\.json$/;
/** writeSnapshot's temporary files: the snapshot's name, the writer's pid, a random part. */
const TEMP_NAME = /^stdio-[0-9a-f]{32}\.json\.\d+\.[0-9a-f]{8}\.tmp$/;

/**
 * What a `--stdio` start answered last time with the same command line, working directory,
 * environment, config file and gateway build: enough to answer `initialize` and `tools/list`
 * again before the gateway has booted (see stdio-early.ts).
 */
export interface CatalogSnapshot {
  readonly format: typeof FORMAT;
  readonly key: string;
  /** `initialize`'s answer less its protocolVersion, which depends on the client's request. */
  readonly serverInfo: { readonly name: string; readonly version: string };
  readonly capabilities: Record<string, unknown>;
  readonly instructions?: string;
  /** The SDK's protocol versions: the first is the latest, answered to an unknown request. */
  readonly protocolVersions: readonly string[];
  /** transports.stdio.maxMessageBytes: the early reader holds no longer line than this. */
  readonly maxMessageBytes: number;
  readonly tools: readonly unknown[];
}

export interface CacheSlot {
  readonly file: string;
  readonly key: string;
}

/**
 * Where this start's snapshot lives, and the key it must carry: a digest of everything a start
 * reads that could change its answers without a rebuild of the gateway — its arguments,
 * working directory, environment (the config interpolates it) and the config file's bytes —
 * and of the build itself (the version, and this module's file, rewritten by every build). Plugins that list
 * different tools from one start to the next (federated servers) are caught after the boot:
 * serveStdio compares and tells the client.
 */
export function stdioCacheSlot(argv: readonly string[] = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): CacheSlot {
  const { values } = parseArgs({ args: [...argv], options: { config: { type: 'string' } }, strict: false, allowPositionals: true });
  const { file: configFile } = configFilePath({ file: typeof values.config === 'string' ? values.config : undefined, env, cwd });
  const build = statSync(fileURLToPath(import.meta.url));
  const hash = createHash('sha256');
  hash.update(JSON.stringify([FORMAT, GATEWAY_VERSION, build.mtimeMs, build.size, argv, cwd, Object.entries(env).sort(([a], [b]) => (a < b ? -1 : 1)), configFile]));
  hash.update(readOrEmpty(configFile));
  const key = hash.digest('hex');
  return { file: join(cacheDir(env), `stdio-${key.slice(0, 32)}.json`), key };
}

/** MCP_GATEWAY_CACHE_DIR, else $XDG_CACHE_HOME/mcp-gateway, else ~/.cache/mcp-gateway. */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MCP_GATEWAY_CACHE_DIR) return env.MCP_GATEWAY_CACHE_DIR;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'mcp-gateway');
}

/** The slot's snapshot, or undefined when there is none or it is not one this build wrote for this key. */
export function readSnapshot(slot: CacheSlot): CatalogSnapshot | undefined {
  let value: unknown;
  try {
    value = JSON.parse(readOwnFile(slot.file));
  } catch {
    return undefined;
  }
  return isSnapshot(value) && value.key === slot.key ? value : undefined;
}

/**
 * The file's text if this user owns it and no one else may write it: a cache folder others can
 * write to (MCP_GATEWAY_CACHE_DIR=/tmp) must not let them choose what the client is told.
 */
function readOwnFile(file: string): string {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const stats = fstatSync(fd);
    if (stats.uid !== process.getuid?.() || (stats.mode & 0o022) !== 0) throw new Error(`${file} is not this user's alone`);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * Stores `snapshot` in its slot (mode 0600 in a 0700 folder: tool descriptions may name the
 * user's folders), through a rename so that a start reading it meanwhile sees the old file or
 * the new one. An unchanged snapshot only has its time renewed. Deletes snapshots unused for
 * 30 days (each combination of arguments, folder and environment has its own).
 */
export function writeSnapshot(slot: CacheSlot, snapshot: Omit<CatalogSnapshot, 'format' | 'key'>): void {
  const text = JSON.stringify({ format: FORMAT, key: slot.key, ...snapshot });
  if (readOrEmpty(slot.file).toString('utf8') === text) {
    const now = new Date();
    try {
      utimesSync(slot.file, now, now);
      return;
    } catch {
      // Pruned by another start since it was read: written again below.
    }
  }
  const dir = join(slot.file, '..');
  makePrivateDir(dir);
  // A name of this write's own: gateways starting at once write the same slot, and a name
  // from the pid alone could be one a killed process left behind (pids are reused).
  const temp = `${slot.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  // 'wx': never through a file or link someone put there first.
  const fd = openSync(temp, 'wx', 0o600);
  try {
    try {
      writeFileSync(fd, text);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, slot.file);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
  pruneUnused(dir);
}

function pruneUnused(dir: string): void {
  const now = Date.now();
  for (const name of readdirSync(dir)) {
    const unusedFor = SNAPSHOT_NAME.test(name) ? UNUSED_FOR_MS : TEMP_NAME.test(name) ? LEFTOVER_FOR_MS : undefined;
    if (unusedFor === undefined) continue;
    try {
      if (statSync(join(dir, name)).mtimeMs < now - unusedFor) unlinkSync(join(dir, name));
    } catch {
      // Deleted by another start meanwhile.
    }
  }
}

function readOrEmpty(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch {
    return Buffer.alloc(0);
  }
}

function isSnapshot(value: unknown): value is CatalogSnapshot {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<Record<keyof CatalogSnapshot, unknown>>;
  const info = v.serverInfo as { name?: unknown; version?: unknown } | undefined;
  return (
    v.format === FORMAT &&
    typeof v.key === 'string' &&
    typeof info === 'object' && info !== null && typeof info.name === 'string' && typeof info.version === 'string' &&
    typeof v.capabilities === 'object' && v.capabilities !== null &&
    (v.instructions === undefined || typeof v.instructions === 'string') &&
    Array.isArray(v.protocolVersions) && v.protocolVersions.length > 0 && v.protocolVersions.every((p) => typeof p === 'string') &&
    typeof v.maxMessageBytes === 'number' &&
    Array.isArray(v.tools)
  );
}
