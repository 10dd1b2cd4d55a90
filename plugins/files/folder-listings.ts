import { fstatSync, readdirSync, statfsSync, type Dirent, type Stats } from 'node:fs';
import { readdir } from 'node:fs/promises';
import type { VerifiedDir } from '../../core/index.js';

/**
 * Folders up to this size (fstat's, about 1,600 entries of 15-character names on ext4) are
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
 * Filesystems that stamp a folder's change and modification times whenever an entry is
 * added, removed or renamed in it, for every change, by whoever makes it (linux/magic.h).
 * Network and FUSE filesystems, /proc and the like are read every time.
 */
export const STAMPING_FILESYSTEMS: ReadonlySet<number> = new Set([
  0xef53, // ext2, ext3, ext4
  0x58465342, // xfs
  0x9123683e, // btrfs
  0x01021994, // tmpfs
  0xf2f52010, // f2fs
  0x2fc12fc1, // zfs
  0x794c7630, // overlayfs
]);

interface Kept {
  readonly stats: Stats;
  readonly entries: readonly Dirent[];
}

const byName = (a: Dirent, b: Dirent) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * The entries of opened folders, sorted by name, kept while the folder is unchanged. Agents
 * list the same folders again and again; reading one of a few hundred entries (the kernel's
 * walk of the folder, libuv's sort, an object per entry) was most of what a names listing
 * cost. A kept listing is served only while the folder's device, inode, change and
 * modification times, size and link count are all what they were, which any added, removed or
 * renamed entry changes; so a listing is never older than the folder. Only folders on
 * filesystems known to stamp those times, settled for a second, and small enough to be read
 * on the main thread are kept, the most recently listed first, up to `maxEntries` entries in all.
 */
export class FolderListings {
  readonly #kept = new Map<string, Kept>();
  /** Entries in #kept, all folders together. */
  #entries = 0;

  /** `maxEntries` bounds the memory kept: about 150 bytes an entry of a short name. */
  constructor(private readonly maxEntries = 20_000) {}

  /** The folder's entries, sorted by name. Shared between calls: do not change the array. */
  read(dir: VerifiedDir): readonly Dirent[] | Promise<readonly Dirent[]> {
    const startedAt = Date.now();
    const stats = fstatSync(dir.fd);
    if (stats.size > READ_ON_MAIN_THREAD_BYTES) return readdir(dir.self, { withFileTypes: true }).then((found) => found.sort(byName));
    const key = `${stats.dev}:${stats.ino}`;
    const kept = this.#kept.get(key);
    if (kept && unchanged(kept.stats, stats)) {
      this.#keep(key, kept);
      return kept.entries;
    }
    const entries = readdirSync(dir.self, { withFileTypes: true }).sort(byName);
    // The filesystem is asked on every read that may keep (a few µs beside the read): a device
    // number is reused when another filesystem is mounted after one was unmounted.
    if (stats.ctimeMs < startedAt - SETTLED_MS && stampsChanges(dir)) this.#keep(key, { stats, entries });
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

function unchanged(was: Stats, now: Stats): boolean {
  return was.ctimeMs === now.ctimeMs && was.mtimeMs === now.mtimeMs && was.size === now.size && was.nlink === now.nlink;
}

/** Whether the folder is on one of STAMPING_FILESYSTEMS; not if its filesystem cannot be asked. */
function stampsChanges(dir: VerifiedDir): boolean {
  if (process.platform !== 'linux') return false;
  try {
    return STAMPING_FILESYSTEMS.has(statfsSync(dir.self).type);
  } catch {
    return false;
  }
}
