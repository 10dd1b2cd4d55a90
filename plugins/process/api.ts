// What the process plugin offers other plugins (`requires: ['process']`, then
// `ctx.api('process')`; consumers import the types only: `import type {} from '@mcp-gateway/plugin-process/api'`).
// The children it starts are the supervisor's like any other: their own process group, output
// in capped logs, the same allow/deny policy and maxProcesses, and always stopped at shutdown.

/** How a process ended, as its record says. `unknown`: the gateway shut down before it saw the end. */
export interface ProcessExit {
  readonly status: 'exited' | 'failed' | 'killed' | 'unknown';
  readonly exit_code: number | null;
  readonly signal: string | null;
}

export interface ManagedProcessRequest {
  /** The program: a name looked up on PATH or a path. Run directly (execve), never through a shell. */
  readonly command: string;
  /** Arguments, passed as they are: each element is one argv element, nothing is split or expanded. */
  readonly args?: readonly string[];
  /**
   * Working directory: relative to the workspace root, or absolute inside the workspace or
   * inside the gateway's data folder (where plugins keep their own files: collab's worktrees).
   * Default: the workspace root. Throws OUTSIDE_WORKSPACE elsewhere, PROCESS_CWD_NOT_FOUND when missing.
   */
  readonly cwd?: string;
  /** Variables added to (or overriding) the gateway's environment. */
  readonly env?: Readonly<Record<string, string>>;
  /** A name for people and logs (`collab worker tester-1`); recorded as the tag `label`. */
  readonly label: string;
}

/** One child started through the API. */
export interface ManagedProcessHandle {
  /** The process plugin's id (`proc-12`): process_output and process_stop take it too. */
  readonly id: string;
  readonly pid: number;
  readonly label: string;
  /** When it started (ms since the epoch). */
  readonly startedMs: number;
  /** Whether its group leader still runs. */
  readonly running: boolean;
  /**
   * Writes `input` to its stdin and resolves once the pipe took it. Rejects with
   * PROCESS_EXITED (it ended) or PROCESS_STDIN_CLOSED (the child closed its stdin), and with
   * `signal`'s reason when aborted first (a child that never reads fills the pipe).
   */
  write(input: string, signal?: AbortSignal): Promise<void>;
  /**
   * The last `maxBytes` bytes (or fewer) of one stream, as text: what it printed recently.
   * A character cut at the start of the window is dropped.
   */
  tail(stream: 'stdout' | 'stderr', maxBytes: number): string;
  /** When it last wrote to stdout or stderr (ms since the epoch); undefined while it has written nothing. */
  lastOutputMs(): number | undefined;
  /** Resolves once its exit is recorded (or the gateway shut down); never rejects. */
  readonly exited: Promise<ProcessExit>;
  /** Calls `listener` once with its exit (at once, later, if it has already exited); returns the unsubscribe. */
  onExit(listener: (exit: ProcessExit) => void): () => void;
  /**
   * SIGTERM to its whole group, SIGKILL after `graceMs` (default: the plugin's
   * defaultGraceMs), then resolves with its exit. On a process that has already ended it
   * resolves with that exit: stopping twice is not an error.
   */
  stop(graceMs?: number): Promise<ProcessExit>;
}

export interface ProcessApi {
  /**
   * Starts a managed child with a stdin pipe. Throws PROCESS_NOT_ALLOWED (the plugin's
   * allow/deny), PROCESS_COMMAND_NOT_FOUND, PROCESS_CWD_NOT_FOUND, OUTSIDE_WORKSPACE,
   * PROCESS_LIMIT_REACHED (maxProcesses, which these count towards) or PROCESS_SPAWN_FAILED.
   */
  start(request: ManagedProcessRequest): Promise<ManagedProcessHandle>;
}

declare module '@mcp-gateway/core' {
  interface PluginApis {
    process: ProcessApi;
  }
}
