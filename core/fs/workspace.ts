import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, parse, relative, resolve, sep } from 'node:path';
import { GatewayError } from '../contract/errors.js';
import type { Workspace } from '../contract/workspace-types.js';
import { readFileInside } from './workspace-file.js';


export interface WorkspaceOptions {
  /**
   * An entry without a slash is a name, matched against every component of a path below the
   * root (of the whole path, for one outside it); any other entry is a path, relative to the
   * root unless absolute. Nothing is protected by default.
   */
  readonly protectedPaths?: readonly string[];
  /** Refuse regular files with other hard links when reading (see `Workspace.refuseHardLinks`). Default: true. */
  readonly refuseHardLinks?: boolean;
}

const MAX_PATH_LENGTH = 4096;
/** Same bound as Linux's own symlink resolution (ELOOP after 40). */
const MAX_LINK_HOPS = 40;

export function createWorkspace(root: string, options: WorkspaceOptions = {}): Workspace {
  const realRoot = realpathSync(root);
  const contains = (p: string) => isWithin(p, realRoot);
  const entries = options.protectedPaths ?? [];
  const names = new Set(entries.filter((e) => !e.includes('/')));
  // Resolved once, like every path tools give: a protected path reached through a link or
  // `..` compares equal. One that does not exist yet is resolved as far as it exists.
  const paths = entries.filter((e) => e.includes('/')).map((e) => resolveReal(resolve(realRoot, e)));
  const isProtected = (real: string) => {
    if (paths.some((p) => isWithin(real, p))) return true;
    if (names.size === 0) return false;
    return (contains(real) ? relative(realRoot, real) : real).split(sep).some((part) => names.has(part));
  };
  const workspace: Workspace = {
    root: realRoot,
    contains,
    isProtected,
    holdsProtected: (real: string) => isProtected(real) || paths.some((p) => isWithin(p, real)),
    refuseHardLinks: options.refuseHardLinks ?? true,
    async readFile(path, readOptions) {
      const real = workspace.resolve(path);
      return { real, ...(await readFileInside(real, workspace, { shown: path, ...readOptions })) };
    },
    resolve(path: string): string {
      checkPathSyntax(path);
      const real = resolveReal(isAbsolute(path) ? resolve(path) : resolve(realRoot, path));
      if (!contains(real)) {
        throw new GatewayError('OUTSIDE_WORKSPACE', `Path "${path}" is outside the workspace ${realRoot}; use a path inside it.`, {
          details: { path },
        });
      }
      return real;
    },
  };
  return workspace;
}

/** Whether `path` is `base` or lies below it. */
function isWithin(path: string, base: string): boolean {
  return path === base || path.startsWith(base.endsWith(sep) ? base : base + sep);
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

/** The real location of `abs`: its realpath when it exists, else {@link walk}. */
function resolveReal(abs: string): string {
  try {
    return realpathSync.native(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw tooManyLinks();
    if (code === 'ENAMETOOLONG') throw new GatewayError('INVALID_PATH', 'Path is too long.');
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
  }
  return walk(abs);
}

/**
 * Resolves `abs` one component at a time, as the kernel would when creating it. A dangling
 * symlink on the way is followed by hand, because writing through it would create its
 * (possibly outside) target while realpath reports only "not found". A relative target is
 * read from the link's real directory, not the lexical one: with `a/b/up -> ../..` (the root)
 * and a dangling `l -> ../x`, the kernel writes `a/b/up/l` to `x` beside the root, not to `a/b/x`.
 */
function walk(abs: string): string {
  const pending = abs.split(sep).filter(Boolean).reverse();
  let current = parse(abs).root;
  let hops = 0;
  while (pending.length > 0) {
    const part = pending.pop()!;
    if (part === '.') continue;
    // `current` never contains a symlink, so its dirname is the physical parent.
    if (part === '..') {
      current = dirname(current);
      continue;
    }
    const next = join(current, part);
    if (isSymlink(next)) {
      if (++hops > MAX_LINK_HOPS) throw tooManyLinks();
      const target = readLinkIfStill(next);
      // Renamed or replaced since lstat (a concurrent change): look at this component again.
      if (target === undefined) {
        pending.push(part);
        continue;
      }
      if (isAbsolute(target)) current = parse(target).root;
      pending.push(...target.split(sep).filter(Boolean).reverse());
      continue;
    }
    current = next;
  }
  return current;
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    if (code === 'ENAMETOOLONG') throw new GatewayError('INVALID_PATH', 'Path is too long.');
    throw err;
  }
}

/** The link's target, or undefined when `path` is no longer a symlink. */
function readLinkIfStill(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EINVAL' || code === 'ENOTDIR') return undefined;
    throw err;
  }
}

function tooManyLinks(): GatewayError {
  return new GatewayError('INVALID_PATH', 'Too many levels of symbolic links.');
}
