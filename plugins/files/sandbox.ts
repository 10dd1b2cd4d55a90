import { constants, realpathSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join, relative, resolve as resolvePath, sep } from 'node:path';
import {
  checkHardLinks,
  checkOpenedInside,
  checkReadable,
  createWorkspace,
  GatewayError,
  isGatewayError,
  openDir,
  openDirCreating,
  openFolderInside,
  openNoFollow,
  openResolvedDir,
  readFileInside,
  realPathOf,
  withDir,
  writeAtomicIn,
  type FileReadRules,
  type VerifiedDir,
  type Workspace,
} from '@mcp-gateway/core';

/**
 * The files plugin's sandbox: one or more roots. Every path is checked after resolving the
 * symlinks of each existing component; an escape is refused (OUTSIDE_WORKSPACE), never
 * clamped. On top of core's checks it refuses paths that are legal on Linux but almost
 * always a mistake or an attack when they come from a model: Windows-style paths,
 * URL-encoded separators, control characters and `~`, which no shell here will expand.
 */
export class Sandbox {
  readonly #workspaces: Workspace[];
  readonly #protection: Pick<Workspace, 'isProtected' | 'holdsProtected'> | undefined;
  /** What core's workspace read checks on every file this sandbox reads: inside a root, and the hard-link rule. */
  readonly #rules: FileReadRules;

  constructor(roots: readonly string[], options: SandboxOptions = {}) {
    const refuseHardLinks = options.refuseHardLinks ?? true;
    this.#workspaces = roots.map((root) => createWorkspace(root, { refuseHardLinks }));
    this.#protection = options.protection;
    this.#rules = { contains: (real) => this.contains(real), refuseHardLinks };
  }

  /** Whether regular files with other hard links are refused (the gateway's refuseHardLinks). */
  get refuseHardLinks(): boolean {
    return this.#rules.refuseHardLinks;
  }

  /** Refuses (HARD_LINK_REFUSED, core's rule) a regular file with other hard links, unless refuseHardLinks is off. */
  checkLinks(real: string, info: Stats): void {
    checkHardLinks(info, this.#rules, this.display(real));
  }

  /**
   * Refuses (PROTECTED_PATH) to change the real path `real` (`given` by the caller) when it is
   * protected; with `holds`, also when it holds a protected path (a delete or a move's source).
   */
  checkChangeable(real: string, given: string, holds = false): void {
    const refused = holds ? this.#protection?.holdsProtected(real) : this.#protection?.isProtected(real);
    if (refused) {
      throw new GatewayError(
        'PROTECTED_PATH',
        `"${given}" is ${holds ? 'or holds ' : ''}a protected path (the gateway's config, its data folder, or a protectedPaths entry such as .git); tools may read it but never write, create, delete or move it.`,
        { details: { path: given } },
      );
    }
  }

  get roots(): string[] {
    return this.#workspaces.map((w) => w.root);
  }

  /** The real path of `path` (relative to the first root), or a GatewayError. */
  resolve(path: string): string {
    checkPathRules(path);
    const [first, ...others] = this.#workspaces;
    if (!path.startsWith('/') || others.length === 0) return first!.resolve(path);
    let refusal: unknown;
    for (const workspace of this.#workspaces) {
      try {
        return workspace.resolve(path);
      } catch (err) {
        if (!isGatewayError(err) || err.code !== 'OUTSIDE_WORKSPACE') throw err;
        refusal = err;
      }
    }
    throw refusal;
  }

  /**
   * The folder at `path`, opened and checked to be inside a root. The kernel resolves the
   * path's links in the open and the descriptor tells where it landed (`openFolderInside`),
   * the same real path `resolve` gives at a fraction of the system calls. A path that does not
   * open as a folder inside a root goes the long way, `resolve` and then `openResolvedDir`,
   * whose errors say why: outside the workspace, not found, not a folder. Errno errors are
   * thrown as they are, for the caller's mapping.
   */
  async openFolder(path: string): Promise<VerifiedDir> {
    checkPathRules(path);
    if (path !== '') {
      // As `resolve`: normalised (`..` by the name) before any link is followed; a relative
      // path must stay in the first root, an absolute one may be in any.
      const [first] = this.#workspaces;
      const inside = path.startsWith('/') ? (real: string) => this.contains(real) : (real: string) => first!.contains(real);
      const opened = openFolderInside(resolvePath(first!.root, path), inside);
      if (opened) return opened;
    }
    return openResolvedDir(this.resolve(path));
  }

  /**
   * The path of the directory entry itself, for operations on a link rather than its
   * target (delete, rename, info): the parent is resolved, the last component kept.
   */
  resolveEntry(path: string): string {
    checkPathRules(path);
    const name = basename(path.replace(/\/+$/, ''));
    if (name === '' || name === '.' || name === '..') return this.resolve(path);
    let parent: string;
    try {
      parent = this.resolve(dirname(path));
    } catch (err) {
      // A root named by its own path (`/abs/root`, or `../root` from inside it) has its parent
      // outside every root; it is the root itself, to be described or refused as one.
      const root = this.#rootAt(dirname(path), name);
      if (root === undefined) throw err;
      return root;
    }
    return join(parent, name);
  }

  /** The root that is the entry `name` of the folder `parent`, if it is one. */
  #rootAt(parent: string, name: string): string | undefined {
    try {
      const entry = join(realpathSync(resolvePath(this.roots[0]!, parent)), name);
      return this.isRoot(entry) ? entry : undefined;
    } catch {
      return undefined;
    }
  }

  contains(real: string): boolean {
    return this.#workspaces.some((w) => w.contains(real));
  }

  isRoot(real: string): boolean {
    return this.roots.includes(real);
  }

  /** Whether deleting `real` would delete a root, the user's home, or a folder holding either. */
  holdsRootOrHome(real: string): boolean {
    const home = homedir();
    return [...this.roots, home].some((p) => p === real || p.startsWith(real.endsWith(sep) ? real : real + sep));
  }

  /** A path as results show it: relative to the first root when inside it, else absolute. */
  display(real: string): string {
    const root = this.roots[0]!;
    if (real === root) return '.';
    return real.startsWith(root + sep) ? relative(root, real) : real;
  }

  /**
   * `display` of the entries of the real folder `dir`, as a function of the entry's name: a
   * listing works out the folder's prefix once, not a relative path per entry.
   */
  entryDisplay(dir: string): (name: string) => string {
    const root = this.roots[0]!;
    const inDir = dir === sep ? sep : dir + sep;
    const prefix = inDir.startsWith(root + sep) ? inDir.slice(root.length + 1) : inDir;
    return (name) => prefix + name;
  }

  /**
   * Opens an existing file for reading without following a symlink in its last component,
   * then checks where the descriptor really points: a directory swapped for a symlink
   * between `resolve` and `open` is caught here. Refuses a device, FIFO or socket.
   */
  async openRead(real: string): Promise<FileHandle> {
    const shown = this.display(real);
    const handle = await openNoFollow(() => open(real, READ_FLAGS | constants.O_NOFOLLOW), shown);
    try {
      checkOpenedInside(realPathOf(handle.fd), real, this.#rules, shown);
      this.#checkKind(real, await handle.stat());
      return handle;
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  /**
   * The bytes of the regular file at `real`, through core's workspace read (readFileInside, the
   * one every plugin's reads go through): opened and checked as by `openRead`, in one read of the
   * size fstat gave (a file that grew meanwhile is given as long as it was then). Refuses a folder
   * (IS_A_DIRECTORY) and a file over `maxBytes` (FILE_TOO_LARGE).
   */
  readFile(real: string, maxBytes: number): Promise<{ bytes: Buffer; info: Stats }> {
    return readFileInside(real, this.#rules, { maxBytes, maxBytesSetting: 'maxReadBytes', shown: this.display(real) });
  }

  /** A device or FIFO has no size to cap and may never end: only files (checkReadable, hard links too) and folders pass. */
  #checkKind(real: string, info: Stats): void {
    if (!info.isDirectory()) checkReadable(info, this.#rules, this.display(real));
  }

  /** The innermost root holding the real path `real` (which `resolve` returned). */
  rootOf(real: string): string {
    const holding = this.roots.filter((root) => real === root || real.startsWith(root + sep));
    return holding.reduce((a, b) => (b.length > a.length ? b : a));
  }

  /** The folder holding `real`, opened and checked; with `create`, made first (mkdir -p) without leaving the root. */
  async openParent(real: string, create = false): Promise<VerifiedDir> {
    const root = this.rootOf(real);
    // A root's parent is outside every root: it is opened only to reach the root's own entry.
    if (!create || real === root) return openDir(dirname(real));
    return (await openDirCreating(root, dirname(real))).dir;
  }

  /** Replaces the existing file `real` atomically (see writeAtomicIn), in its checked folder. */
  writeAtomic(real: string, data: string | Uint8Array, mode?: number): Promise<void> {
    return withDir(this.openParent(real), (dir) => writeAtomicIn(dir, basename(real), data, mode));
  }
}

// O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, holding one of
// libuv's four pool threads for good; a few such calls would stall every file operation.
const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

export interface SandboxOptions {
  /** The gateway workspace's protected paths (ctx.workspace); nothing is protected without it. */
  readonly protection?: Pick<Workspace, 'isProtected' | 'holdsProtected'>;
  /** Refuse regular files with more than one hard link: the gateway's refuseHardLinks (ctx.workspace). Default true. */
  readonly refuseHardLinks?: boolean;
}

const RULES: Array<[RegExp, string]> = [
  [/[\u0000-\u001f\u007f]/, 'contains a control character'],
  [/\\/, 'contains a backslash: this is not Windows, separate folders with /'],
  [/^[a-zA-Z]:/, 'starts with a drive letter: this is not Windows, use a path inside the workspace'],
  [/%(2e|2f|5c|00)/i, 'looks URL-encoded (%2e, %2f, %5c): decode it first'],
  [/^~/, 'starts with ~, which is not expanded here: use a path inside the workspace'],
];

/** Linux's NAME_MAX, in bytes. */
const MAX_NAME_BYTES = 255;

function checkPathRules(path: string): void {
  if (typeof path !== 'string') throw new GatewayError('INVALID_PATH', 'Path must be a string.');
  for (const [pattern, why] of RULES) {
    if (pattern.test(path)) throw new GatewayError('INVALID_PATH', `Path ${why}.`, { details: { path: path.slice(0, 200) } });
  }
  // Refused here rather than by the kernel, which would only object after mkdir -p had
  // created the missing folders before the long name.
  if (path.split('/').some((name) => Buffer.byteLength(name) > MAX_NAME_BYTES)) {
    throw new GatewayError('INVALID_PATH', `Path has a name longer than ${MAX_NAME_BYTES} bytes.`, { details: { path: path.slice(0, 200) } });
  }
}
