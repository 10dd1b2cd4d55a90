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

/** To the gateway: a line for its log (this thread has no logger), or a retired file now removed. */
export type FoldWorkerReport =
  | { readonly level: 'warn' | 'error'; readonly msg: string; readonly fields: Record<string, unknown> }
  | { readonly removed: string };

const options = workerData as FoldWorkerData;
const port = parentPort!;
const report = (level: 'warn' | 'error', msg: string, fields: Record<string, unknown>) =>
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

/** After a failure, a task waits this long, doubled at each further failure up to MAX_BACKOFF_MS. */
const FIRST_BACKOFF_MS = 5000;
const MAX_BACKOFF_MS = 60_000;

/**
 * Runs `task` every `ms`. A failure (disk full, a lock held past busy_timeout) is reported and
 * the task waits before it tries again, longer each time, so a lasting fault is not retried,
 * nor logged, ten times a second.
 */
function every(ms: number, what: string, task: () => void): void {
  let backoff = 0;
  let resumeAt = 0;
  setInterval(() => {
    if (performance.now() < resumeAt) return;
    try {
      task();
      if (backoff > 0) report('warn', `audit ${what} works again`, {});
      backoff = 0;
    } catch (err) {
      backoff = Math.min(MAX_BACKOFF_MS, backoff === 0 ? FIRST_BACKOFF_MS : backoff * 2);
      resumeAt = performance.now() + backoff;
      report('error', `audit ${what} failed; retrying in ${backoff / 1000} s`, { err: { message: (err as Error).message, code: (err as NodeJS.ErrnoException).code } });
    }
  }, ms);
}

every(options.foldEveryMs, 'fold', () => {
  for (const journal of written) folder.fold(options.journalDir, journal);
  for (const journal of retired) {
    folder.foldAndRemove(options.journalDir, journal);
    retired.delete(journal);
    port.postMessage({ removed: journal } satisfies FoldWorkerReport);
  }
});
// Files of this process are the gateway's to settle (several gateways may share a process).
every(options.sweepEveryMs, 'sweep of journals left by other processes', () => folder.recover(options.journalDir, isOwnJournal));
every(options.checkpointEveryMs, 'checkpoint', () => db.pragma('wal_checkpoint(PASSIVE)'));
