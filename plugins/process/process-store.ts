// Process records in the gateway's SQLite database: the only module with process SQL, so a
// shared store (PostgreSQL) later is a port of this file.
import type { Database } from 'better-sqlite3';
import type { StreamName } from './output-log.js';
import type { ProcessIdentity } from './process-group.js';

/**
 * `start`: process_start; `run`: process_run; `plugin`: started by another plugin through the
 * API (api.ts). Only `start` processes are listed and may outlive the gateway (onShutdown: keep).
 */
export type ProcessKind = 'start' | 'run' | 'plugin';

/** Whether a process of this kind may be left running at shutdown (and adopted next start). */
export const mayOutliveGateway = (kind: ProcessKind): boolean => kind === 'start';
export type ProcessStatus = 'starting' | 'running' | 'exited' | 'failed' | 'killed' | 'unknown';

// Index 0 is migration 1; append only.
export const migrations = [
  `CREATE TABLE process_processes (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     kind TEXT NOT NULL,
     command TEXT NOT NULL,
     args TEXT NOT NULL,
     cwd TEXT NOT NULL,
     shell INTEGER NOT NULL,
     tags TEXT NOT NULL,
     ports TEXT NOT NULL,
     pid INTEGER,
     start_ticks TEXT,
     boot_id TEXT,
     status TEXT NOT NULL,
     exit_code INTEGER,
     signal TEXT,
     started_at TEXT NOT NULL,
     exited_at TEXT,
     log_dir TEXT NOT NULL,
     stdout_start INTEGER NOT NULL DEFAULT 0,
     stderr_start INTEGER NOT NULL DEFAULT 0
   );
   CREATE INDEX process_processes_status ON process_processes (status, seq);`,
  // The members (pid and start ticks) of a group that outlived its leader, until they end.
  `ALTER TABLE process_processes ADD COLUMN lingering TEXT;`,
];

export interface ProcessRow {
  readonly seq: number;
  readonly kind: ProcessKind;
  readonly command: string;
  readonly args: string;
  readonly cwd: string;
  readonly shell: number;
  readonly tags: string;
  readonly ports: string;
  readonly pid: number | null;
  readonly start_ticks: string | null;
  readonly boot_id: string | null;
  readonly status: ProcessStatus;
  readonly exit_code: number | null;
  readonly signal: string | null;
  readonly started_at: string;
  readonly exited_at: string | null;
  readonly log_dir: string;
  readonly stdout_start: number;
  readonly stderr_start: number;
  /** JSON [pid, startTicks][] of the group's members still running after its leader ended. */
  readonly lingering: string | null;
}

/** What the tools return for a process. */
export interface ProcessView {
  id: string;
  command: string;
  args: string[];
  cwd: string;
  shell: boolean;
  tags: Record<string, string>;
  ports: number[];
  pid: number | null;
  status: Exclude<ProcessStatus, 'starting'>;
  exit_code: number | null;
  signal: string | null;
  started_at: string;
  exited_at: string | null;
  logs: { stdout: string; stderr: string };
  /** Processes of its group still running after it (the leader) ended. */
  lingering_pids: number[];
}

/** A group member as recorded: [pid, start ticks]. */
export type MemberRecord = [number, string | null];

export interface NewProcess {
  readonly kind: ProcessKind;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly shell: boolean;
  readonly tags: Readonly<Record<string, string>>;
  readonly ports: readonly number[];
  /** The folder for its logs, given the id. */
  readonly logDir: (id: string) => string;
}

export interface ListFilter {
  readonly runningOnly: boolean;
  readonly tags: Readonly<Record<string, string>>;
  /** Leave out processes that exited before this ISO time. */
  readonly exitedAfter?: string;
  readonly limit: number;
}

export const idOf = (seq: number): string => `proc-${seq}`;

/** The seq inside an id, or undefined for a string that is not one of ours. */
export function seqOf(id: string): number | undefined {
  const match = /^proc-([1-9][0-9]{0,15})$/.exec(id);
  return match ? Number(match[1]) : undefined;
}

export function toView(row: ProcessRow): ProcessView {
  const logDir = row.log_dir;
  return {
    id: idOf(row.seq),
    command: row.command,
    args: JSON.parse(row.args) as string[],
    cwd: row.cwd,
    shell: row.shell === 1,
    tags: JSON.parse(row.tags) as Record<string, string>,
    ports: JSON.parse(row.ports) as number[],
    pid: row.pid,
    status: row.status === 'starting' ? 'running' : row.status,
    exit_code: row.exit_code,
    signal: row.signal,
    started_at: row.started_at,
    exited_at: row.exited_at,
    logs: { stdout: `${logDir}/stdout.log`, stderr: `${logDir}/stderr.log` },
    lingering_pids: lingeringOf(row).map(([pid]) => pid),
  };
}

export function lingeringOf(row: ProcessRow): MemberRecord[] {
  return row.lingering === null ? [] : (JSON.parse(row.lingering) as MemberRecord[]);
}

export class ProcessStore {
  readonly #db: Database;
  readonly #insert;
  readonly #setLogDir;
  readonly #setSpawned;
  readonly #finish;
  readonly #remove;
  readonly #get;
  readonly #live;
  readonly #outputStart;
  readonly #setLingering;
  readonly #lingering;
  #closed = false;

  constructor(db: Database) {
    this.#db = db;
    this.#insert = db.prepare(
      `INSERT INTO process_processes (kind, command, args, cwd, shell, tags, ports, status, started_at, log_dir)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'starting', ?, '')`,
    );
    this.#setLogDir = db.prepare('UPDATE process_processes SET log_dir = ? WHERE seq = ?');
    this.#setSpawned = db.prepare(
      "UPDATE process_processes SET pid = ?, start_ticks = ?, boot_id = ?, status = 'running', started_at = ? WHERE seq = ?",
    );
    this.#finish = db.prepare(
      "UPDATE process_processes SET status = ?, exit_code = ?, signal = ?, exited_at = ? WHERE seq = ? AND status IN ('starting', 'running')",
    );
    this.#remove = db.prepare('DELETE FROM process_processes WHERE seq = ?');
    this.#get = db.prepare('SELECT * FROM process_processes WHERE seq = ?');
    this.#live = db.prepare("SELECT * FROM process_processes WHERE status IN ('starting', 'running') ORDER BY seq");
    this.#setLingering = db.prepare('UPDATE process_processes SET lingering = ? WHERE seq = ?');
    this.#lingering = db.prepare('SELECT * FROM process_processes WHERE lingering IS NOT NULL ORDER BY seq');
    this.#outputStart = {
      stdout: db.prepare('UPDATE process_processes SET stdout_start = ? WHERE seq = ?'),
      stderr: db.prepare('UPDATE process_processes SET stderr_start = ? WHERE seq = ?'),
    };
  }

  /** Records a process about to be spawned; returns its row (status `starting`). */
  insert(spec: NewProcess): ProcessRow {
    return this.#db.transaction(() => {
      const seq = Number(
        this.#insert.run(
          spec.kind,
          spec.command,
          JSON.stringify(spec.args),
          spec.cwd,
          spec.shell ? 1 : 0,
          JSON.stringify(spec.tags),
          JSON.stringify(spec.ports),
          new Date().toISOString(),
        ).lastInsertRowid,
      );
      this.#setLogDir.run(spec.logDir(idOf(seq)), seq);
      return this.#get.get(seq) as ProcessRow;
    })();
  }

  spawned(seq: number, identity: ProcessIdentity): void {
    if (this.#closed) return;
    this.#setSpawned.run(identity.pid, identity.startTicks, identity.bootId, new Date().toISOString(), seq);
  }

  /** Records how a process ended; a row that already ended keeps its first outcome. */
  finish(seq: number, status: Exclude<ProcessStatus, 'starting' | 'running'>, exitCode: number | null, signal: string | null): void {
    if (this.#closed) return;
    this.#finish.run(status, exitCode, signal, new Date().toISOString(), seq);
  }

  remove(seq: number): void {
    if (!this.#closed) this.#remove.run(seq);
  }

  setOutputStart(seq: number, stream: StreamName, start: number): void {
    if (!this.#closed) this.#outputStart[stream].run(start, seq);
  }

  /** Records the members of a group that outlived its leader; null once they are gone. */
  setLingering(seq: number, members: readonly MemberRecord[] | null): void {
    if (!this.#closed) this.#setLingering.run(members === null || members.length === 0 ? null : JSON.stringify(members), seq);
  }

  /** Rows whose group outlived its leader when last written. */
  lingering(): ProcessRow[] {
    return this.#lingering.all() as ProcessRow[];
  }

  get(seq: number): ProcessRow | undefined {
    return this.#get.get(seq) as ProcessRow | undefined;
  }

  /** Rows that were starting or running when last written. */
  live(): ProcessRow[] {
    return this.#live.all() as ProcessRow[];
  }

  /** Started (not run) processes, newest first. */
  list(filter: ListFilter): ProcessRow[] {
    const where = ["kind = 'start'"];
    const params: unknown[] = [];
    if (filter.runningOnly) where.push("status IN ('starting', 'running')");
    if (filter.exitedAfter !== undefined) {
      where.push("(status IN ('starting', 'running') OR exited_at IS NULL OR exited_at >= ?)");
      params.push(filter.exitedAfter);
    }
    for (const [key, value] of Object.entries(filter.tags)) {
      where.push('EXISTS (SELECT 1 FROM json_each(tags) WHERE json_each.key = ? AND json_each.value = ?)');
      params.push(key, value);
    }
    const sql = `SELECT * FROM process_processes WHERE ${where.join(' AND ')} ORDER BY seq DESC LIMIT ?`;
    return this.#db.prepare(sql).all(...params, filter.limit) as ProcessRow[];
  }

  /** Deletes all but the newest `keep` ended processes; returns their log folders. */
  prune(keep: number): string[] {
    if (this.#closed) return [];
    return this.#db.transaction(() => {
      const old = this.#db
        .prepare("SELECT seq, log_dir FROM process_processes WHERE status NOT IN ('starting', 'running') AND lingering IS NULL ORDER BY seq DESC LIMIT -1 OFFSET ?")
        .all(keep) as Array<{ seq: number; log_dir: string }>;
      for (const row of old) this.#remove.run(row.seq);
      return old.map((row) => row.log_dir);
    })();
  }

  /** After shutdown: late exit events must not touch the (closing) database. */
  close(): void {
    this.#closed = true;
  }
}
