import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { GatewayError } from '../contract/errors.js';

/**
 * The gateway's own state (database, journals, keys, plugin data) is its user's alone: folders
 * 0700, files 0600. Set explicitly rather than through the process umask, which children and
 * the files the tools write on a user's behalf would inherit.
 */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stats = statSync(dir);
  if ((stats.mode & 0o077) === 0) return;
  // A folder left by an older version (or made by hand) keeps its mode: narrow it if ours. One
  // that others may write to and that is not ours could have its files swapped: refuse it.
  if (stats.uid === process.getuid?.()) chmodSync(dir, 0o700);
  else if ((stats.mode & 0o022) !== 0) {
    throw new GatewayError('CONFIG_INVALID', `${dir} belongs to another user and others may write to it: the gateway's data (keys, audit) would not be safe there. Choose another dataDir.`);
  }
}

/** Creates `file` empty with mode 0600 if it does not exist (SQLite then opens it as it is). */
export function touchPrivateFile(file: string): void {
  closeSync(openSync(file, 'a', 0o600));
}
