// The in-memory side of one process the supervisor watches: its child handle (if it is our
// child), its logs and the writers that fill them, and a promise that settles when its exit
// is recorded.
import type { ChildProcess } from 'node:child_process';
import { LogWriter } from './log-writer.js';
import { OutputLog, type StreamName } from './output-log.js';
import { pipePath, pipeReader } from './output-pipe.js';
import type { ProcessIdentity } from './process-group.js';
import { idOf, type ProcessKind, type ProcessRow } from './process-store.js';
import { logPaths } from './spawn-child.js';

const STREAMS: readonly StreamName[] = ['stdout', 'stderr'];

export interface Managed {
  readonly id: string;
  readonly seq: number;
  readonly kind: ProcessKind;
  readonly identity: ProcessIdentity;
  /** Absent for a process adopted from an earlier gateway: not our child, no stdin. */
  readonly child?: ChildProcess;
  readonly logs: Readonly<Record<StreamName, OutputLog>>;
  /** What copies each output pipe into its log; absent for a process without pipes. */
  readonly writers: Partial<Record<StreamName, LogWriter>>;
  readonly startedMs: number;
  /** Whether the group leader still runs. */
  running: boolean;
  /** The last signal we sent its group. */
  lastSignal?: NodeJS.Signals;
  /** Resolves once the leader's exit is recorded (or the supervisor closed). */
  readonly exited: Promise<void>;
  readonly markExited: () => void;
}

export interface ManagedOptions {
  readonly child?: ChildProcess;
  /** Read ends of the output pipes of a child just spawned; an adopted one's are opened by path. */
  readonly output?: Readonly<Record<StreamName, number>>;
  readonly maxOutputBytes: number;
  /** Persists a stream's new oldest offset after a rotation. */
  readonly onRotate: (stream: StreamName, start: number) => void;
  readonly onWriteError: (stream: StreamName, err: unknown) => void;
}

export function createManaged(row: ProcessRow, identity: ProcessIdentity, options: ManagedOptions): Managed {
  const paths = logPaths(row.log_dir);
  const start = { stdout: row.stdout_start, stderr: row.stderr_start };
  const logs = {} as Record<StreamName, OutputLog>;
  const writers: Partial<Record<StreamName, LogWriter>> = {};
  for (const stream of STREAMS) {
    logs[stream] = new OutputLog(paths[stream], start[stream], (next) => options.onRotate(stream, next));
    const source = pipeReader(pipePath(row.log_dir, stream), options.output?.[stream]);
    if (source) writers[stream] = new LogWriter(logs[stream], source, options.maxOutputBytes, (err) => options.onWriteError(stream, err));
  }
  let markExited!: () => void;
  const exited = new Promise<void>((resolve) => (markExited = resolve));
  return {
    id: idOf(row.seq),
    seq: row.seq,
    kind: row.kind,
    identity,
    child: options.child,
    logs,
    writers,
    startedMs: Date.parse(row.started_at),
    running: true,
    exited,
    markExited,
  };
}

/** Waits until what the process printed before now is in its logs (see LogWriter.settle). */
export async function settleOutput(m: Managed): Promise<void> {
  await Promise.all(Object.values(m.writers).map((w) => w.settle(50, 1000)));
}

/** Stops copying its output (at shutdown): the child keeps what it prints in its pipes. */
export async function closeWriters(m: Managed): Promise<void> {
  await Promise.all(Object.values(m.writers).map((w) => w.close()));
}

/** When the process last wrote to stdout or stderr (ms since the epoch); undefined if never (seen by this gateway). */
export function lastOutputMs(m: Managed): number | undefined {
  const times = Object.values(m.writers).map((w) => w.lastOutputMs).filter((t): t is number => t !== undefined);
  return times.length === 0 ? undefined : Math.max(...times);
}
