import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { abandonedJournals, readJournal } from './audit-journal.js';
import type { Database } from './storage.js';

/** The most of a journal one fold transaction reads: bounds its memory and its time holding the lock. */
const MAX_FOLD_BYTES = 8 * 1024 * 1024;

/** The type of each value of an audit row, in column order; `?` where null is allowed. */
const ROW_TYPES = ['string', 'string', 'string?', 'string?', 'string?', 'string', 'string', 'string', 'number', 'string'];

/** Whether a journal line holds a row this version can insert (a file may come from another version). */
function isAuditRow(row: unknown[]): boolean {
  if (row.length !== ROW_TYPES.length) return false;
  return row.every((value, i) => (value === null ? ROW_TYPES[i]!.endsWith('?') : typeof value === ROW_TYPES[i]!.replace('?', '')));
}

/**
 * Moves audit rows from journal files into `core_audit`, on one database connection: the
 * folding thread's (audit-fold-worker.ts) every FOLD_EVERY_MS, or the gateway's own when a
 * reader flushes, at start-up and at close. Any number of folders, in threads or processes,
 * may fold the same file: each fold is one IMMEDIATE transaction that reads the file's
 * recorded offset in `core_audit_folded`, then the file's complete lines past it, inserts
 * them and moves the offset, so no line is folded twice. A file is removed only when folded
 * to its end, and its offset forgotten after that, so a missing offset means a missing file.
 */
export class JournalFolder {
  readonly #fold: (journal: string, path: string) => { next: number; more: boolean };
  readonly #forget: (journal: string) => void;
  /** Per file, how far this folder has seen it folded: a file no longer than that needs no transaction. */
  readonly #seen = new Map<string, number>();

  constructor(db: Database, onBadLine: (journal: string, offset: number) => void) {
    const insert = db.prepare(
      `INSERT INTO core_audit (at, transport, session, caller, plugin, tool, args_digest, args_summary, duration_ms, outcome)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const foldedOf = db.prepare('SELECT offset FROM core_audit_folded WHERE journal = ?').pluck();
    const setFolded = db.prepare(
      'INSERT INTO core_audit_folded (journal, offset) VALUES (?, ?) ON CONFLICT (journal) DO UPDATE SET offset = excluded.offset',
    );
    const fold = db.transaction((journal: string, path: string) => {
      const done = (foldedOf.get(journal) as number | undefined) ?? 0;
      const read = readJournal(path, done, MAX_FOLD_BYTES, isAuditRow, (offset) => onBadLine(journal, offset));
      for (const row of read.rows) insert.run(...row);
      if (read.next > done) setFolded.run(journal, read.next);
      return { next: read.next, more: read.more };
    });
    // IMMEDIATE: the offset is read before anything is written; a deferred transaction would
    // fail with SQLITE_BUSY if another connection committed in between.
    this.#fold = (journal, path) => fold.immediate(journal, path);
    const forget = db.prepare('DELETE FROM core_audit_folded WHERE journal = ?');
    this.#forget = (journal) => {
      forget.run(journal);
      this.#seen.delete(journal);
    };
  }

  /**
   * Folds the complete lines of `dir/journal` not yet in the table, at most MAX_FOLD_BYTES
   * per transaction. Without a transaction when the file has not grown since this folder
   * last saw it folded (idle gateways take no write lock ten times a second).
   */
  fold(dir: string, journal: string): void {
    const path = join(dir, journal);
    const seen = this.#seen.get(journal);
    if (seen !== undefined && sizeOf(path) <= seen) return;
    for (;;) {
      // Remembered only once committed: a failed commit must not make the next fold skip.
      const { next, more } = this.#fold(journal, path);
      this.#seen.set(journal, next);
      if (!more) return;
    }
  }

  /**
   * Folds a journal nobody writes to any more, then removes it and forgets its offset (in
   * that order: an offset without its file is harmless, a file without its offset would be
   * folded again from the start).
   */
  foldAndRemove(dir: string, journal: string): void {
    this.fold(dir, journal);
    rmSync(join(dir, journal), { force: true });
    this.#forget(journal);
  }

  /** Folds in and removes the journals in `dir` whose processes are gone, but those `skip` names. */
  recover(dir: string, skip: (journal: string) => boolean = () => false): void {
    for (const { name } of abandonedJournals(dir)) if (!skip(name)) this.foldAndRemove(dir, name);
  }
}

/** The size of a file, 0 when it is gone. */
function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
