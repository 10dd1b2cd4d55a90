import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { GatewayError } from './errors.js';

export interface Workspace {
  /** The sandbox root, absolute and with symlinks resolved. */
  readonly root: string;
  /**
   * Resolves `path` (relative paths against the root) to an absolute path with every
   * symlink of its existing part resolved, and refuses one that lands outside the root
   * (OUTSIDE_WORKSPACE) or is malformed (INVALID_PATH). The returned path is the one to use.
   */
  resolve(path: string): string;
  /** Whether an absolute, already-resolved path lies inside the root. */
  contains(resolvedPath: string): boolean;
}

const MAX_PATH_LENGTH = 4096;
/** Same bound as Linux's own symlink resolution (ELOOP after 40). */
const MAX_LINK_HOPS = 40;

export function createWorkspace(root: string): Workspace {
  const realRoot = realpathSync(root);
  const contains = (p: string) => p === realRoot || p.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep);
  return {
    root: realRoot,
    contains,
    resolve(path: string): string {
      checkPathSyntax(path);
      const real = resolveReal(isAbsolute(path) ? resolve(path) : resolve(realRoot, path), 0);
      if (!contains(real)) {
        throw new GatewayError('OUTSIDE_WORKSPACE', `Path "${path}" is outside the workspace ${realRoot}; use a path inside it.`, {
          details: { path },
        });
      }
      return real;
    },
  };
}

export function checkPathSyntax(path: unknown): asserts path is string {
  if (typeof path !== 'string' || path.length === 0) {
    throw new GatewayError('INVALID_PATH', 'Path must be a non-empty string.');
  }
  if (path.includes('\0')) throw new GatewayError('INVALID_PATH', 'Path contains a null byte.');
  if (path.length > MAX_PATH_LENGTH) {
    throw new GatewayError('INVALID_PATH', `Path is longer than ${MAX_PATH_LENGTH} characters.`);
  }
}

/**
 * The real location of `abs`: realpath of the longest existing prefix plus the rest. A
 * dangling symlink on the way is followed by hand, because writing through it would create
 * its (possibly outside) target while realpath reports only "not found".
 */
function resolveReal(abs: string, hops: number): string {
  if (hops > MAX_LINK_HOPS) throw new GatewayError('INVALID_PATH', 'Too many levels of symbolic links.');
  try {
    return realpathSync(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new GatewayError('INVALID_PATH', 'Too many levels of symbolic links.');
    if (code === 'ENAMETOOLONG') throw new GatewayError('INVALID_PATH', 'Path is too long.');
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
  }
  let stat;
  try {
    stat = lstatSync(abs);
  } catch {
    stat = undefined;
  }
  if (stat?.isSymbolicLink()) return resolveReal(resolve(dirname(abs), readlinkSync(abs)), hops + 1);
  const parent = dirname(abs);
  if (parent === abs) return abs;
  return join(resolveReal(parent, hops), basename(abs));
}
