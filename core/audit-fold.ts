import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { abandonedJournals, readJournal } from './audit-journal.js';
import type { Database } from './storage.js';

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
  readonly #fold: (journal: string, path: string) => number;
  readonly #forget: (journal: string) => void;
  readonly #offset: (journal: string) => number;
  readonly #onBadLine: (journal: string, offset: number) => void;

  constructor(db: Database, onBadLine: (journal: string, offset: number) => void) {
    this.#onBadLine = onBadLine;
    const insert = db.prepare(
      `INSERT INTO core_audit (at, transport, session, caller, plugin, tool, args_digest, args_summary, duration_ms, outcome)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const foldedOf = db.prepare('SELECT offset FROM core_audit_folded WHERE journal = ?').pluck();
    const setFolded = db.prepare(
      'INSERT INTO core_audit_folded (journal, offset) VALUES (?, ?) ON CONFLICT (journal) DO UPDATE SET offset = excluded.offset',
    );
    this.#offset = (journal) => (foldedOf.get(journal) as number | undefined) ?? 0;
    const fold = db.transaction((journal: string, path: string) => {
      const done = this.#offset(journal);
      const lines = readJournal(path, done, isAuditRow, (offset) => this.#onBadLine(journal, offset));
      for (const { row } of lines) insert.run(...row);
      if (lines.length > 0) setFolded.run(journal, lines[lines.length - 1]!.end);
      return lines.length;
    });
    // IMMEDIATE: the offset is read before anything is written; a deferred transaction would
    // fail with SQLITE_BUSY if another connection committed in between.
    this.#fold = (journal, path) => fold.immediate(journal, path);
    const forget = db.prepare('DELETE FROM core_audit_folded WHERE journal = ?');
    this.#forget = (journal) => forget.run(journal);
  }

  /** Folds the complete lines of `dir/journal` not yet in the table; returns how many. */
  fold(dir: string, journal: string): number {
    return this.#fold(journal, join(dir, journal));
  }

  /**
   * Folds a journal nobody writes to any more, then removes it and forgets its offset. A
   * line bad enough to be skipped does not keep the file: it was reported, and nothing after
   * a writer's end can complete it.
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
