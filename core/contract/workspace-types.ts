import type { Stats } from 'node:fs';

// The workspace as plugins see it (ctx.workspace): the sandbox every file tool works in, and
// the rules of one read from it. core/fs/ implements them.

/** What a read from the workspace must pass, checked on the opened descriptor. */
export interface FileReadRules {
  /** Whether a real path lies in the sandbox: a workspace's `contains`, or the union of a plugin's roots. */
  readonly contains: (real: string) => boolean;
  /** Refuse a regular file with more than one link (HARD_LINK_REFUSED): another may be an outside file. */
  readonly refuseHardLinks: boolean;
}

export interface FileReadOptions<Skip = never> {
  /** The largest file read, in bytes: a larger one is refused (FILE_TOO_LARGE) before any byte of it is read. */
  readonly maxBytes: number;
  /** The setting that raises `maxBytes`, named in the FILE_TOO_LARGE message (e.g. "maxReadBytes"). */
  readonly maxBytesSetting?: string;
  /** The path as messages show it; default: the last component of the real path. */
  readonly shown?: string;
  /**
   * The caller's own test of the opened file, given its fstat once core's rules passed and
   * before the size cap and any read: throw to refuse the file, return a value to skip it
   * (readFileInside then resolves `{ skipped }`, nothing read). E.g. that it is still the file
   * an earlier lstat saw (same `ino` and `dev`), or that its size fits a budget of the caller's.
   * Name `Skip` where it returns one (`readFileInside<Reason>(...)`): it is never inferred.
   */
  readonly check?: (info: Stats) => NoInfer<Skip> | undefined;
}

/** A file read whole: its bytes (as long as fstat said it was) and that fstat. */
export interface FileContent {
  readonly bytes: Buffer;
  readonly info: Stats;
}

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
  /**
   * Whether tools must not write, create, delete or rename the resolved path `realPath`: it is
   * (or is inside) the gateway's config file, its dataDir or a `protectedPaths` entry. Reading
   * stays allowed. Pass a real path (from `resolve`), so that links and `..` cannot dodge it.
   */
  isProtected(realPath: string): boolean;
  /**
   * `isProtected`, or `realPath` holds a protected path (config file, dataDir, an entry with a
   * slash): moving or deleting it would move or delete them too. A folder holding a protected
   * *name* such as .git is not counted: the name stays protected wherever the folder goes.
   */
  holdsProtected(realPath: string): boolean;
  /**
   * Whether reads refuse a regular file with other hard links (HARD_LINK_REFUSED): the top-level
   * `refuseHardLinks` setting, on by default. Pass it to `walk` and `readWalkedFile`, and to
   * `readFileInside` (this object is its `FileReadRules`).
   */
  readonly refuseHardLinks: boolean;
  /**
   * Reads the file at `path` (taken as `resolve` takes it) through core's one workspace read,
   * `readFileInside`: resolved inside the root, opened without following a link, then checked
   * on its descriptor: inside the root, a regular file, no other hard link (unless
   * `refuseHardLinks` is off), at most `maxBytes`. Throws GatewayErrors (OUTSIDE_WORKSPACE,
   * INVALID_PATH, IS_A_DIRECTORY, NOT_A_REGULAR_FILE, HARD_LINK_REFUSED, FILE_TOO_LARGE), or the
   * errno error of a failed open (ENOENT...). Messages show `path` as given. `real` is where it
   * resolved.
   */
  readFile(path: string, options: FileReadOptions): Promise<FileContent & { readonly real: string }>;
}
