import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, lstatSync, renameSync, rmSync, type Stats } from 'node:fs';
import { connect, type Server } from 'node:net';
import { basename, dirname, join } from 'node:path';
import { GatewayError } from '../contract/errors.js';

/** A unix socket this gateway holds at its path; `release` removes the path if it is still ours. */
export interface ClaimedSocket {
  release(): void;
}

/** Tries to link before giving up: each retry means another start is racing this one. */
const CLAIM_ATTEMPTS = 5;
/** Tries to bind under a private name before giving up: a short one may be taken already. */
const BIND_ATTEMPTS = 5;
/** The private name's length at most, in bytes: a dot and 13 random characters (78 bits). */
const PRIVATE_NAME_BYTES = 14;

/**
 * The longest unix socket path, in bytes: the size of sun_path (108 on Linux, 104 on macOS and
 * the BSDs). Node binds a longer one cut short, without a word, on a path nobody would look for.
 */
export const MAX_UNIX_PATH_BYTES = process.platform === 'linux' ? 108 : 104;

/**
 * Makes `server` listen on the unix socket `path` without ever taking the path from a gateway
 * that serves on it, however many start at once. Binding straight on `path` cannot be made
 * safe: two gateways that found the same stale file would both remove it, and the second
 * removal would take the first one's new socket away. So the socket is bound under a name of
 * its own in the same folder, then hard-linked to `path`, which fails if the path exists. A
 * file at `path` is removed only after a connection to it was refused (nothing listens
 * there), and only if it is still the file that refused. A live one fails the start with
 * SOCKET_IN_USE; a path over MAX_UNIX_PATH_BYTES with CONFIG_INVALID.
 */
export async function listenUnix(server: Server, path: string): Promise<ClaimedSocket> {
  checkLength(path);
  const own = await bindPrivately(server, path);
  try {
    const ino = lstatSync(own).ino;
    await claim(own, path);
    return { release: () => removeIfSame(path, ino) };
  } catch (err) {
    server.close();
    throw err;
  } finally {
    // The socket stays reachable through `path`; its own name is no longer needed.
    rmSync(own, { force: true });
  }
}

function checkLength(path: string): void {
  const bytes = Buffer.byteLength(path);
  if (bytes > MAX_UNIX_PATH_BYTES) {
    throw new GatewayError(
      'CONFIG_INVALID',
      `The unix socket path ${path} is ${bytes} bytes; a unix socket path holds at most ${MAX_UNIX_PATH_BYTES} here. Choose a shorter transports.unix.path (or --unix), or start with --no-unix.`,
    );
  }
}

/** Binds `server` under a private name (privateName) in the folder of `path`; returns that name's path. */
async function bindPrivately(server: Server, path: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const own = join(dirname(path), privateName(basename(path)));
    try {
      await bind(server, own);
      return own;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === BIND_ATTEMPTS) throw err;
    }
  }
}

/**
 * A random hidden name no longer in bytes than `name`, so that the private path fits wherever
 * `path` does (a configured path may be right at MAX_UNIX_PATH_BYTES), and never `name` itself.
 */
function privateName(name: string): string {
  const length = Math.min(Buffer.byteLength(name), PRIVATE_NAME_BYTES);
  for (;;) {
    // base64url: letters, digits, `-` and `_`, one byte each; never a dot, so never `.` or `..`.
    const random = randomBytes(length).toString('base64url');
    const own = length > 1 ? `.${random.slice(0, length - 1)}` : random.slice(0, 1);
    if (own !== name) return own;
  }
}

function bind(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    // umask makes the socket file 0600 from the moment it exists; chmod afterwards would
    // leave a window in which another local user could connect.
    const previous = process.umask(0o177);
    try {
      server.listen(path, () => {
        server.off('error', reject);
        chmodSync(path, 0o600);
        resolve();
      });
    } finally {
      process.umask(previous);
    }
  });
}

async function claim(own: string, path: string): Promise<void> {
  for (let attempt = 1; attempt <= CLAIM_ATTEMPTS; attempt++) {
    try {
      linkSync(own, path);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const found = lstatOrUndefined(path);
    if (!found) continue;
    if (!found.isSocket()) {
      throw new GatewayError('CONFIG_INVALID', `${path} exists and is not a socket; refusing to replace it. Choose another transports.unix.path.`);
    }
    if ((await probe(path)) !== 'refused') throw inUse(path);
    removeStale(path, found.ino);
  }
  throw inUse(path);
}

/**
 * `refused` when nothing listens at `path`. Any other failure (EAGAIN: a live server whose
 * backlog is full; EACCES) is not proof of a dead socket, and counts as live.
 */
function probe(path: string): Promise<'answered' | 'refused' | 'unknown'> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve('answered');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => {
      resolve(err.code === 'ECONNREFUSED' || err.code === 'ENOENT' ? 'refused' : 'unknown');
    });
  });
}

/**
 * Removes the stale socket file `ino` from `path`. Another start may have replaced it with its
 * live socket since the probe, and no call removes a path only if it is a given file: the file
 * is moved aside first (atomic), and put back if it is not the one that refused.
 */
function removeStale(path: string, ino: number): void {
  if (lstatOrUndefined(path)?.ino !== ino) return;
  const aside = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.stale`);
  try {
    renameSync(path, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  try {
    if (lstatSync(aside).ino !== ino) linkSync(aside, path);
  } catch {
    // A third gateway linked its socket in the instant between the move and the link back:
    // it keeps the path, and the socket moved aside is lost to its gateway. That takes three
    // starts within microseconds of each other, and the lstat above has narrowed it further.
  } finally {
    rmSync(aside, { force: true });
  }
}

/** Removes `path` if it is still the socket file `ino` (not one a later gateway put there). */
function removeIfSame(path: string, ino: number): void {
  if (lstatOrUndefined(path)?.ino === ino) rmSync(path, { force: true });
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function inUse(path: string): GatewayError {
  return new GatewayError(
    'SOCKET_IN_USE',
    `Another process is serving on ${path} (another gateway on this data folder?). This gateway does not take it over: stop the other one, choose another transports.unix.path (or --unix), or start with --no-unix.`,
  );
}
