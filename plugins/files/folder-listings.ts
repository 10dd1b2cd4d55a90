import { fstatSync, readdirSync, statfsSync, type BigIntStats, type Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import type { VerifiedDir } from '@mcp-gateway/core';

/**
 * Folders up to this size (fstat's; on ext4 about 1,600 entries of 15-character names) are
 * read on the main thread, larger ones on the thread pool. Its round trip cost more than the
 * read of a folder of a few hundred entries (a quarter more names listings a second over
 * stdio), while a read of 50,000 entries held the thread 30 to 110 ms.
 */
export const READ_ON_MAIN_THREAD_BYTES = 64 * 1024;

/**
 * A folder whose last change is older than this when its read starts may be kept. The kernel
 * stamps a change with a clock that runs up to a tick (1–10 ms) behind; a change made after
 * the read therefore gets a later stamp than one this old, and the kept listing stops matching.
 * A folder changed more recently is read each time: a second change in the same tick could
 * leave its stamps as they were.
 */
export const SETTLED_MS = 1000;

/**
 * Filesystems that stamp a folder's change time whenever an entry is added, removed or
 * renamed in it, by whoever makes the change (linux/magic.h). Not overlayfs: a change in a
 * lower layer shows in the merged folder without stamping it. Network and FUSE filesystems,
 * /proc and the like are read every time.
 */
const STAMPING_FILESYSTEMS: ReadonlySet<number> = new Set([
  0xef53, // ext2, ext3, ext4
  0x58465342, // xfs
  0x9123683e, // btrfs
  0x01021994, // tmpfs
  0xf2f52010, // f2fs
  0x2fc12fc1, // zfs
]);

/** An entry of a folder as its listing typed it. */
export interface FolderEntry {
  readonly name: string;
  readonly kind: 'file' | 'folder' | 'link' | 'other';
}

interface Kept {
  readonly stats: BigIntStats;
  readonly entries: readonly FolderEntry[];
}

/**
 * The entries of opened folders, sorted by name, kept while the folder is unchanged. Agents
 * list the same folders again and again; reading one of a few hundred entries (the kernel's
 * walk of the folder, libuv's sort, an object per entry) was most of what a names listing
 * cost. A kept listing is served only while the fstat of the folder just opened shows the
 * device, inode, change and modification times (to the nanosecond), size and link count it
 * had, and any entry added, removed or renamed changes the change time. Kept are only folders
 * settled for a second, on filesystems known to stamp every change, small enough to be read
 * on the main thread; the most recently listed first, up to `maxEntries` entries in all, a
 * folder of more than a quarter of that never (it would push every other one out).
 */
export class FolderListings {
  readonly #kept = new Map<string, Kept>();
  /** Entries in #kept, all folders together. */
  #entries = 0;

  /** `maxEntries` bounds the memory kept (about 110 bytes an entry of an 18-character name); 0 keeps nothing. */
  constructor(private readonly maxEntries: number) {}

  /** The folder's entries, sorted by name. */
  read(dir: VerifiedDir): readonly FolderEntry[] | Promise<readonly FolderEntry[]> {
    const startedAt = Date.now();
    const stats = fstatSync(dir.fd, { bigint: true });
    const key = `${stats.dev}:${stats.ino}`;
    if (stats.size > READ_ON_MAIN_THREAD_BYTES) {
      this.#drop(key);
      return readdir(dir.self, { withFileTypes: true }).then(sortedEntries);
    }
    const kept = this.#kept.get(key);
    if (kept && unchanged(kept.stats, stats)) {
      this.#keep(key, kept);
      return kept.entries;
    }
    const entries = sortedEntries(readdirSync(dir.self, { withFileTypes: true }));
    const settled = stats.ctimeMs < startedAt - SETTLED_MS;
    // The filesystem is asked at every read that may keep, not once per device: a device
    // number is given again to the next filesystem mounted.
    const fits = this.maxEntries > 0 && entries.length <= this.maxEntries / 4;
    if (settled && fits && stampsChanges(dir)) this.#keep(key, { stats, entries });
    else this.#drop(key);
    return entries;
  }

  /** Keeps (again) `kept` as the most recently listed: last in the map, whose first is dropped first. */
  #keep(key: string, kept: Kept): void {
    this.#drop(key);
    this.#kept.set(key, kept);
    this.#entries += kept.entries.length;
    for (const oldest of this.#kept.keys()) {
      if (this.#entries <= this.maxEntries) break;
      this.#drop(oldest);
    }
  }

  #drop(key: string): void {
    const kept = this.#kept.get(key);
    if (!kept) return;
    this.#kept.delete(key);
    this.#entries -= kept.entries.length;
  }
}

function unchanged(was: BigIntStats, now: BigIntStats): boolean {
  return was.ctimeNs === now.ctimeNs && was.mtimeNs === now.mtimeNs && was.size === now.size && was.nlink === now.nlink;
}

/** Whether the folder is on one of STAMPING_FILESYSTEMS; not if its filesystem cannot be asked. */
export function stampsChanges(dir: VerifiedDir): boolean {
  if (process.platform !== 'linux') return false;
  try {
    return STAMPING_FILESYSTEMS.has(statfsSync(dir.self).type);
  } catch {
    return false;
  }
}

/** Frozen: a kept listing is shared by every call that lists its folder. */
function sortedEntries(found: Dirent[]): readonly FolderEntry[] {
  const entries = found.map((entry): FolderEntry => ({ name: entry.name, kind: kindOf(entry) }));
  return Object.freeze(entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)));
}

function kindOf(entry: Dirent): FolderEntry['kind'] {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'folder';
  return entry.isSymbolicLink() ? 'link' : 'other';
}
