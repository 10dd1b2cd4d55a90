import { dirname } from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { GatewayError } from '../contract/errors.js';
import { makePrivateDir, touchPrivateFile } from '../fs/private-files.js';
import type { Migration } from '../contract/store-types.js';

export type { Database };

/** How long a statement waits for another process's write lock (SQLite's busy timeout). */
const SQLITE_BUSY_TIMEOUT_MS = 5000;


/**
 * Opens (creating if needed) the gateway's machine-local SQLite database (`ctx.db`), with the
 * per-owner migrations table.
 */
export function openDatabase(file: string): Database {
  const db = openSqlite(file);
  db.transaction(() =>
    db.exec(`CREATE TABLE IF NOT EXISTS core_migrations (
      owner TEXT NOT NULL,
      version INTEGER NOT NULL,
      applied_at TEXT NOT NULL,
      PRIMARY KEY (owner, version)
    )`),
  ).immediate();
  return db;
}

/**
 * `journal_mode = WAL`, retried for as long as the busy timeout: while another process opens the
 * same new file, SQLite can answer SQLITE_BUSY at once, without its busy handler (seen once in
 * 20 rounds of two gateways started together on a new data folder).
 */
function switchToWal(db: Database): void {
  const deadline = Date.now() + SQLITE_BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw err;
      // A boot step: a short synchronous pause before the next try.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
}

/**
 * Opens (creating if needed) a SQLite file of the gateway's: gateway.db, or shared.db when the
 * shared store is SQLite. WAL lets readers run beside the writer; synchronous=NORMAL under WAL
 * keeps every committed transaction when the process is killed (only a power cut can lose the
 * last ones), which is what "nothing is lost after a call has returned" needs.
 */
export function openSqlite(file: string): Database {
  makePrivateDir(dirname(file));
  // SQLite gives its -wal and -shm files the database file's mode.
  touchPrivateFile(file);
  const db = new BetterSqlite3(file);
  // First: switching a new file to WAL takes the write lock, and another gateway opening the
  // same new folder at the same moment would otherwise get SQLITE_BUSY at once.
  db.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  switchToWal(db);
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // Checkpoints copy the WAL into the database and fsync it; SQLite's automatic one runs
  // inside whichever commit crosses 1,000 pages, i.e. on some tool call's path. A timer runs
  // it instead (see scheduleCheckpoints). Committed data is in the WAL either way.
  db.pragma('wal_autocheckpoint = 0');
  db.pragma('journal_size_limit = 67108864');
  return db;
}

/** Checkpoints the WAL every `everyMs` off any call's path; returns the stop function. */
export function scheduleCheckpoints(db: Database, everyMs = 1000): () => void {
  const timer = setInterval(() => {
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // A busy or closed database: the next tick (or the close) checkpoints.
    }
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Applies `owner`'s migrations not yet recorded, in order, each with its bookkeeping row in
 * one transaction, so a crash leaves either the whole step or none of it. Each step reads the
 * version inside its transaction, taken with the write lock up front (BEGIN IMMEDIATE): a
 * gateway starting at the same moment on the same file waits for that lock (the busy timeout)
 * and then sees the step done, instead of applying it a second time.
 */
export function migrate(db: Database, owner: string, migrations: readonly Migration[]): number {
  const versionOf = db.prepare('SELECT MAX(version) AS version FROM core_migrations WHERE owner = ?').pluck();
  const record = db.prepare('INSERT INTO core_migrations (owner, version, applied_at) VALUES (?, ?, ?)');
  const nextStep = db.transaction((): boolean => {
    const current = (versionOf.get(owner) as number | null) ?? 0;
    if (current > migrations.length) {
      throw new GatewayError(
        'PLUGIN_LOAD_FAILED',
        `The database has ${owner} at migration ${current}, but this version of ${owner} knows only ${migrations.length}: it was written by a newer version.`,
      );
    }
    if (current === migrations.length) return false;
    const step = migrations[current]!;
    if (typeof step === 'string') db.exec(step);
    else step(db);
    record.run(owner, current + 1, new Date().toISOString());
    return true;
  });
  let applied = 0;
  try {
    while (nextStep.immediate()) applied++;
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'SQLITE_BUSY') throw err;
    const waitedMs = Number(db.pragma('busy_timeout', { simple: true }));
    throw new GatewayError(
      'STORE_CONFLICT',
      `${db.name}: another process held the write lock for over ${waitedMs} ms while ${owner}'s migrations were due; the steps not applied yet (each is whole or not at all) wait for the next start. Start again once the other gateway is up.`,
      { cause: err },
    );
  }
  return applied;
}
