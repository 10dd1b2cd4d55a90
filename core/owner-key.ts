import { chmodSync, closeSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createApiKey } from './api-keys.js';
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
 * Reads the owner key from `dataDir/owner.key`, or creates it (mode 0600, in a 0700 folder,
 * created exclusively so that two gateways starting at once agree on one key). Like
 * Jupyter's token file: the key is stored as it is, since its owner has to be able to read
 * it again; the file mode is what protects it.
 */
export function loadOwnerKey(dataDir: string): OwnerKey {
  const file = join(dataDir, OWNER_KEY_FILE);
  makePrivateDir(dataDir);
  try {
    const fd = openSync(file, 'wx', 0o600);
    const { key } = createApiKey();
    try {
      writeSync(fd, `${key}\n`);
    } finally {
      closeSync(fd);
    }
    return { key, file, created: true };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const key = readFileSync(file, 'utf8').trim();
  if (!KEY_PATTERN.test(key)) {
    throw new GatewayError('CONFIG_INVALID', `${file} does not hold an owner key; delete it and restart to make a new one.`);
  }
  // Copied or restored with a looser mode: others on this machine could read it.
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  return { key, file, created: false };
}
