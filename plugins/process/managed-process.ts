// The in-memory side of one process the supervisor watches: its child handle (if it is our
// child), its logs, and a promise that settles when its exit is recorded.
import type { ChildProcess } from 'node:child_process';
import { OutputLog, type StreamName } from './output-log.js';
import type { ProcessIdentity } from './process-group.js';
import { idOf, type ProcessKind, type ProcessRow } from './process-store.js';
import { logPaths } from './spawn-child.js';

export interface Managed {
  readonly id: string;
  readonly seq: number;
  readonly kind: ProcessKind;
  readonly identity: ProcessIdentity;
  /** Absent for a process adopted from an earlier gateway: not our child, no stdin. */
  readonly child?: ChildProcess;
  readonly logs: Readonly<Record<StreamName, OutputLog>>;
  readonly startedMs: number;
  /** Whether the group leader still runs. */
  running: boolean;
  /** The last signal we sent its group. */
  lastSignal?: NodeJS.Signals;
  /** Resolves once the leader's exit is recorded (or the supervisor closed). */
  readonly exited: Promise<void>;
  readonly markExited: () => void;
}

/** `onRotate` persists a stream's new oldest offset after a retention cut. */
export function createManaged(
  row: ProcessRow,
  identity: ProcessIdentity,
  child: ChildProcess | undefined,
  onRotate: (stream: StreamName, start: number) => void,
): Managed {
  const paths = logPaths(row.log_dir);
  const log = (stream: StreamName, start: number) => new OutputLog(paths[stream], start, (next) => onRotate(stream, next));
  let markExited!: () => void;
  const exited = new Promise<void>((resolve) => (markExited = resolve));
  return {
    id: idOf(row.seq),
    seq: row.seq,
    kind: row.kind,
    identity,
    child,
    logs: { stdout: log('stdout', row.stdout_start), stderr: log('stderr', row.stderr_start) },
    startedMs: Date.parse(row.started_at),
    running: true,
    exited,
    markExited,
  };
}
