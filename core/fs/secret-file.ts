import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, fsyncSync, linkSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { GatewayError } from '../contract/errors.js';
import { makePrivateDir } from './private-files.js';

/** A secret the gateway keeps in its dataDir: what it is called in messages, its file, its form. */
export interface SecretFileSpec {
  /** `owner key`, `requestState key`: for messages. */
  readonly label: string;
  readonly name: string;
  readonly pattern: RegExp;
  /** A new secret, matching `pattern`. */
  readonly make: () => string;
}

/**
 * Reads a secret from `dataDir/<name>`, or creates it (mode 0600, in a 0700 folder). Created
 * whole or not at all: written to a temporary file, then linked into place, which fails if
 * another gateway starting at the same moment got there first (and then its secret is used).
 */
export function loadSecretFile(dataDir: string, spec: SecretFileSpec): { secret: string; file: string; created: boolean } {
  makePrivateDir(dataDir);
  const file = join(dataDir, spec.name);
  const existing = readSecretFile(file, spec);
  if (existing !== undefined) return { secret: existing, file, created: false };
  const secret = spec.make();
  const temporary = join(dataDir, `.${spec.name}.${process.pid}.${randomBytes(4).toString('hex')}`);
  const fd = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    try {
      writeSync(fd, `${secret}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    // link(2), unlike rename(2), never replaces: of gateways starting at once, one secret wins.
    linkSync(temporary, file);
    return { secret, file, created: true };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    unlinkSync(temporary);
  }
  return { secret: readSecretFile(file, spec)!, file, created: false };
}

/**
 * The secret in `file` (undefined when there is none yet), which must be a regular file of this
 * user's that no one else can read: a symlink or a file someone else planted is refused.
 */
function readSecretFile(file: string, spec: SecretFileSpec): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    const reason = (err as NodeJS.ErrnoException).code === 'ELOOP' ? 'is a symlink' : `cannot be read (${(err as NodeJS.ErrnoException).code})`;
    throw new GatewayError('CONFIG_INVALID', `${file} ${reason}; delete it and restart to make a new ${spec.label}.`, { cause: err });
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.uid !== process.getuid?.() || (stats.mode & 0o077) !== 0) {
      throw new GatewayError(
        'CONFIG_INVALID',
        `${file} must be a regular file of this user's with mode 0600 (others could read or replace the ${spec.label}); delete it and restart to make a new one.`,
      );
    }
    const secret = readFileSync(fd, 'utf8').trim();
    if (!spec.pattern.test(secret)) throw new GatewayError('CONFIG_INVALID', `${file} does not hold the ${spec.label} it should; delete it and restart to make a new one.`);
    return secret;
  } finally {
    closeSync(fd);
  }
}
