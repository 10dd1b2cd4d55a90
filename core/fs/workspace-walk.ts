// The folder walk plugins share (core/index.ts): file_find, file_search and dir_tree of the
// files plugin, rag_ingest of the knowledge plugin. It never follows a link, reads each folder
// through a descriptor checked to be that folder, honours nested .gitignore files and stops at
// its limits.
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';
import { openDir, withDir } from './verified-dir.js';
import { readFileInside } from './workspace-file.js';

export interface WalkEntry {
  /** Absolute real path. */
  readonly path: string;
  /** Path relative to the walk's start, with / separators. */
  readonly relative: string;
  readonly name: string;
  readonly isDir: boolean;
  readonly depth: number;
}

export interface WalkOptions {
  /** Glob patterns (matched against the relative path and the name) to leave out. */
  exclude?: readonly string[];
  /** Honour .gitignore files on the way down (and always skip .git). */
  gitignore?: boolean;
  /** 1 = the start folder's entries only. */
  maxDepth?: number;
  /** Stop after this many entries; `truncated` is then set. */
  maxEntries: number;
  /** Leave out .gitignore files with other hard links. Default true; pass the workspace's `refuseHardLinks`. */
  refuseHardLinks?: boolean;
  signal?: AbortSignal;
}

/**
 * Walks a folder breadth-first without following symlinks (a link to outside the sandbox
 * must not be walked into; links are reported as files). Sorted by name at each level so
 * results are stable. `start` is a real path: each folder is checked to be where the walk
 * reached it before it is read.
 */
export async function walk(start: string, options: WalkOptions, visit: (entry: WalkEntry) => boolean | void): Promise<{ truncated: boolean }> {
  const excluded = options.exclude?.length ? picomatch([...options.exclude], { dot: true }) : undefined;
  const queue: Pending[] = [{ dir: start, depth: 1, rules: [] }];
  let seen = 0;
  while (queue.length > 0) {
    options.signal?.throwIfAborted();
    // The next few folders are listed while this one is visited: each listing is several
    // thread-pool round trips (open, readdir, close, the .gitignore), and order is kept.
    for (const pending of queue.slice(0, LIST_AHEAD)) pending.listing ??= list(pending.dir, options);
    const { dir, depth, rules: inherited, listing } = queue.shift()!;
    const listed = await listing!;
    if (listed === undefined) continue; // unreadable, vanished or swapped: skip it, as find(1) does
    const rules = [...inherited, ...listed.gitignore];
    for (const entry of listed.entries) {
      const path = join(dir, entry.name);
      const rel = relative(start, path).split(sep).join('/');
      const isDir = entry.isDirectory();
      if (options.gitignore && (entry.name === '.git' || ignoredBy(rules, path, isDir))) continue;
      if (excluded && (excluded(rel) || excluded(entry.name))) continue;
      if (++seen > options.maxEntries) return { truncated: true };
      if (visit({ path, relative: rel, name: entry.name, isDir, depth }) === false) return { truncated: true };
      if (isDir && (options.maxDepth === undefined || depth < options.maxDepth)) queue.push({ dir: path, depth: depth + 1, rules });
    }
  }
  return { truncated: false };
}

interface Pending {
  dir: string;
  depth: number;
  rules: GitignoreRules;
  listing?: Promise<Listing | undefined>;
}

type GitignoreRules = Array<{ base: string; rules: Ignore }>;

interface Listing {
  /** Sorted by name. */
  entries: Dirent[];
  gitignore: GitignoreRules;
}

/** Folders listed ahead of the one being visited. */
const LIST_AHEAD = 8;

/**
 * The entries of `dir`, read through a descriptor checked to be `dir` (a folder swapped for a
 * link to outside after its parent was listed is skipped, never read), and its .gitignore
 * rules; undefined when it cannot be read. Never rejects: a listing started ahead may never be awaited.
 */
async function list(dir: string, options: WalkOptions): Promise<Listing | undefined> {
  try {
    const [entries, gitignore] = await Promise.all([
      withDir(openDir(dir), (opened) => readdir(opened.self, { withFileTypes: true })),
      options.gitignore ? loadGitignore(dir, options.refuseHardLinks) : [],
    ]);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { entries, gitignore };
  } catch {
    return undefined;
  }
}

/** A .gitignore larger than this is not a .gitignore. */
const MAX_GITIGNORE_BYTES = 1024 * 1024;

async function loadGitignore(dir: string, refuseHardLinks = true): Promise<GitignoreRules> {
  const bytes = await readWalkedFile(join(dir, '.gitignore'), dir, { maxBytes: MAX_GITIGNORE_BYTES, refuseHardLinks });
  return bytes === undefined ? [] : [{ base: dir, rules: ignore().add(bytes.toString('utf8')) }];
}

/**
 * The bytes of a regular file met on a walk, or undefined (skip it): missing, over `maxBytes`,
 * not a regular file, not really under `within`, or (with `refuseHardLinks`, the default)
 * hard-linked. A walk reports a symlink as a file, and following it would read (and quote, or
 * use as ignore rules) whatever it points to, outside the sandbox too; so it is read through
 * core's workspace read (readFileInside), which opens the last component without following it
 * and checks the descriptor before anything is read.
 */
export async function readWalkedFile(
  path: string,
  within: string,
  { maxBytes, refuseHardLinks = true }: { maxBytes: number; refuseHardLinks?: boolean },
): Promise<Buffer | undefined> {
  const under = within.endsWith(sep) ? within : within + sep;
  try {
    // Under `within`, not merely in the workspace: a walk reads only what it walked.
    return (await readFileInside(path, { contains: (real) => real.startsWith(under), refuseHardLinks }, { maxBytes })).bytes;
  } catch {
    return undefined;
  }
}

function ignoredBy(rules: ReadonlyArray<{ base: string; rules: Ignore }>, path: string, isDir: boolean): boolean {
  return rules.some(({ base, rules: ig }) => {
    const rel = relative(base, path).split(sep).join('/');
    return rel !== '' && !rel.startsWith('..') && ig.ignores(isDir ? `${rel}/` : rel);
  });
}
