// The audit log's folding thread (see AuditLog): folds this process's journal files into
// `core_audit` on a database connection of its own, removes the files the gateway has
// rotated out, folds in journals of processes that are gone, and checkpoints the WAL, so that
// none of that runs on the thread that answers calls.
import { parentPort, workerData } from 'node:worker_threads';
import { JournalFolder } from './audit-fold.js';
import { isOwnJournal } from './audit-journal.js';
import { openDatabase } from './storage.js';

export interface FoldWorkerData {
  readonly database: string;
  readonly journalDir: string;
  readonly foldEveryMs: number;
  readonly sweepEveryMs: number;
  readonly checkpointEveryMs: number;
}

/** From the gateway: a file it now writes, or one it has rotated out and will not touch again. */
export type FoldWorkerMessage = { readonly written: string } | { readonly retired: string };

/** To the gateway, which logs it: this thread has no logger of its own. */
export interface FoldWorkerReport {
  readonly level: 'warn' | 'error';
  readonly msg: string;
  readonly fields: Record<string, unknown>;
}

const options = workerData as FoldWorkerData;
const port = parentPort!;
const report = (level: FoldWorkerReport['level'], msg: string, fields: Record<string, unknown>) =>
  port.postMessage({ level, msg, fields } satisfies FoldWorkerReport);

const db = openDatabase(options.database);
const folder = new JournalFolder(db, (journal, offset) => report('warn', 'an unreadable audit journal line was skipped', { journal, offset }));
const written = new Set<string>();
const retired = new Set<string>();

port.on('message', (message: FoldWorkerMessage) => {
  if ('written' in message) written.add(message.written);
  else {
    written.delete(message.retired);
    retired.add(message.retired);
  }
});

/** Each task keeps its own schedule; a failure (disk full, a lock held past busy_timeout) is reported and retried next time. */
function every(ms: number, what: string, task: () => void): void {
  setInterval(() => {
    try {
      task();
    } catch (err) {
      report('error', `audit ${what} failed; retrying`, { err: { message: (err as Error).message, code: (err as NodeJS.ErrnoException).code } });
    }
  }, ms);
}

every(options.foldEveryMs, 'fold', () => {
  for (const journal of written) folder.fold(options.journalDir, journal);
  for (const journal of retired) {
    folder.foldAndRemove(options.journalDir, journal);
    retired.delete(journal);
  }
});
// Files of this process are the gateway's to settle (several gateways may share a process).
every(options.sweepEveryMs, 'sweep of journals left by other processes', () => folder.recover(options.journalDir, isOwnJournal));
every(options.checkpointEveryMs, 'checkpoint', () => db.pragma('wal_checkpoint(PASSIVE)'));
