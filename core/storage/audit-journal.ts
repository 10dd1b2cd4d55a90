import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, ftruncateSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { makePrivateDir } from '../fs/private-files.js';

const SUFFIX = '.jsonl';
/** The journals this process has open: several gateways may run in one process (tests). */
const openHere = new Set<string>();

/**
 * The audit log's write-ahead journal: one append-only file per gateway process, one JSON
 * line per call, the lines of a turn of the event loop written with a single write(2) before
 * those calls' replies leave (AuditLog.record). The kernel keeps the lines when the process
 * is killed right after, as it keeps SQLite's WAL; the rows reach the `core_audit` table in
 * batches later (see AuditLog). Each process has its own file, so two gateways on one data
 * folder (`serve` and a `call` from the CLI) never interleave.
 */
export class AuditJournal {
  readonly #dir: string;
  #name = '';
  #fd = -1;
  #size = 0;

  constructor(dir: string) {
    this.#dir = dir;
    makePrivateDir(dir);
    this.#openNew();
  }

  get dir(): string {
    return this.#dir;
  }

  /** This process's journal file name, the key of its folded offset. */
  get name(): string {
    return this.#name;
  }

  /** Bytes written to the current file. */
  get size(): number {
    return this.#size;
  }

  /** Appends whole lines with one write(2); returns the file's size after them. Throws what write(2) throws. */
  append(line: string): number {
    const written = writeSync(this.#fd, line);
    const length = Buffer.byteLength(line);
    if (written !== length) {
      // A partial line would glue itself to the next one; take it back.
      ftruncateSync(this.#fd, this.#size);
      // A regular file written short has run out of room.
      throw Object.assign(new Error(`audit journal: short write (${written} of ${length} bytes)`), { code: 'ENOSPC' });
    }
    this.#size += written;
    return this.#size;
  }

  /** Whether `bytes` more would fit now: writes them and takes them back. Throws as append does. */
  probe(bytes: number): void {
    const size = this.#size;
    try {
      this.append(' '.repeat(bytes));
    } finally {
      ftruncateSync(this.#fd, size);
      this.#size = size;
    }
  }

  /**
   * Starts a new file and removes the old one (the caller has folded every line of it);
   * returns the old file's name, for the caller to forget. If the new file cannot be opened,
   * the old one stays in use.
   */
  rotate(): string {
    const old = { name: this.#name, fd: this.#fd };
    this.#openNew();
    closeSync(old.fd);
    openHere.delete(old.name);
    rmSync(join(this.#dir, old.name), { force: true });
    return old.name;
  }

  /** Closes the file and leaves it for the next start to fold. */
  close(): void {
    if (this.#fd === -1) return;
    closeSync(this.#fd);
    this.#fd = -1;
    openHere.delete(this.#name);
  }

  /** Closes the file and removes it: the caller has folded every line of it. */
  remove(): void {
    this.close();
    rmSync(join(this.#dir, this.#name), { force: true });
  }

  #openNew(): void {
    // pid first, so recovery can tell a dead owner's file from a live one's.
    const name = `${process.pid}-${randomBytes(6).toString('hex')}${SUFFIX}`;
    const fd = openSync(join(this.#dir, name), 'a', 0o600);
    this.#name = name;
    this.#fd = fd;
    this.#size = fstatSync(fd).size;
    openHere.add(name);
  }
}

/**
 * The journal files in `dir` that nobody appends to any more: their process is gone. A live
 * process folds its own file, so only these need anyone else.
 */
export function abandonedJournals(dir: string): Array<{ name: string; path: string }> {
  return readdirSync(dir)
    .filter((name) => name.endsWith(SUFFIX) && !isWritten(name))
    .map((name) => ({ name, path: join(dir, name) }));
}

/**
 * The complete lines of `path` (none if it is gone), each with the file offset just past it. A
 * line cut short (the machine lost power mid-write) has no newline and is left out; so is a
 * line that does not parse or that `isRow` refuses, which `onBadLine` hears of.
 */
export function readJournal(
  path: string,
  isRow: (row: unknown[]) => boolean,
  onBadLine: (offset: number) => void,
): Array<{ row: unknown[]; end: number }> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const lines: Array<{ row: unknown[]; end: number }> = [];
  let start = 0;
  for (let newline = bytes.indexOf(0x0a, start); newline !== -1; newline = bytes.indexOf(0x0a, start)) {
    try {
      const row: unknown = JSON.parse(bytes.toString('utf8', start, newline));
      if (!Array.isArray(row) || !isRow(row)) throw new Error('not a row');
      lines.push({ row, end: newline + 1 });
    } catch {
      onBadLine(start);
    }
    start = newline + 1;
  }
  return lines;
}

/**
 * Whether some process may still append to the journal `name`: its owner's pid is alive. Our
 * own pid on a file this process did not open means an earlier process had that pid (a
 * container's gateway is often pid 1 at every start).
 */
function isWritten(name: string): boolean {
  const pid = Number(name.split('-')[0]);
  if (pid === process.pid) return openHere.has(name);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
