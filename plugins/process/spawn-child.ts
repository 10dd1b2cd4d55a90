// Starts one child: its own process group, stdout and stderr into named pipes the gateway
// copies into capped logs (never the gateway's stdout, which carries the protocol), stdin a
// pipe or nothing.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';
import { once } from 'node:events';
import { chmodSync, closeSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RaiseError } from './declaration.js';
import type { Launch } from './launch.js';
import type { StreamName } from './output-log.js';
import { createPipes, openPipe, pipePath, type PipeEnds } from './output-pipe.js';

/** Folders the gateway creates are private to its user. */
export const DIR_MODE = 0o700;

export function logPaths(logDir: string): Record<StreamName, string> {
  return { stdout: join(logDir, 'stdout.log'), stderr: join(logDir, 'stderr.log') };
}

/** The logs folder (parent of every process's folder) and `logDir` itself, both 0700. */
export function makeLogDir(logDir: string): void {
  mkdirSync(logDir, { recursive: true, mode: DIR_MODE });
  // An existing parent (made before folders were private) is tightened too.
  chmodSync(dirname(logDir), DIR_MODE);
}

export interface SpawnedChild {
  readonly child: ChildProcess;
  /** The gateway's read ends of the output pipes (non-blocking fds). */
  readonly output: Readonly<Record<StreamName, number>>;
}

/** Resolves with a child that has a pid, or throws a PROCESS_* error. */
export async function spawnChild(launch: Launch, logDir: string, stdin: 'pipe' | 'ignore', error: RaiseError): Promise<SpawnedChild> {
  makeLogDir(logDir);
  try {
    await createPipes(logDir);
  } catch (cause) {
    throw error('PROCESS_SPAWN_FAILED', `Could not create the output pipes in ${logDir} (${(cause as Error).message}); mkfifo must be on PATH.`, {
      command: launch.command,
      errno: (cause as NodeJS.ErrnoException).code ?? null,
    });
  }
  const opened: PipeEnds[] = [];
  let child: ChildProcess;
  try {
    for (const stream of ['stdout', 'stderr'] as const) opened.push(openPipe(pipePath(logDir, stream)));
    const [out, err] = opened as [PipeEnds, PipeEnds];
    child = spawn(launch.file, [...launch.spawnArgs], {
      cwd: launch.cwd,
      env: launch.env,
      argv0: launch.argv0,
      // The child leads a new process group (and session): signals reach its whole tree.
      detached: true,
      // fds 3 and 4: the read ends, held so that its writes never meet a pipe without reader.
      stdio: [stdin, out.write, err.write, out.read, err.read],
    });
  } catch (cause) {
    for (const ends of opened) closeFds(ends.read);
    throw spawnError(cause, launch, error);
  } finally {
    // The child has its own copies of the write ends now: EOF comes when its group closes them.
    for (const ends of opened) closeFds(ends.write);
  }
  const [out, err] = opened as [PipeEnds, PipeEnds];
  if (child.pid === undefined) {
    closeFds(out.read, err.read);
    const [cause] = (await once(child, 'error')) as [unknown];
    throw spawnError(cause, launch, error);
  }
  return { child, output: { stdout: out.read, stderr: err.read } };
}

function closeFds(...fds: number[]): void {
  for (const fd of fds) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
  }
}

function spawnError(cause: unknown, launch: Launch, error: RaiseError): Error {
  const code = (cause as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT' || code === 'EACCES' || code === 'ENOEXEC') {
    return error('PROCESS_COMMAND_NOT_FOUND', `Command "${launch.command}" could not be executed (${code}); check that it exists and is executable.`, {
      command: launch.command,
      errno: code,
    });
  }
  return error('PROCESS_SPAWN_FAILED', `The system refused to start "${launch.command}" (${code ?? String(cause)}).`, {
    command: launch.command,
    errno: code ?? null,
  });
}

/**
 * Writes `input` to a child's stdin and waits until it is handed to the pipe (or the call is
 * cancelled: a child that never reads would otherwise hold the call once the pipe is full).
 */
export function writeInput(stdin: Writable, input: string, signal: AbortSignal, closed: (cause: string) => Error): Promise<void> {
  if (input.length === 0) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    stdin.write(input, (err) => {
      signal.removeEventListener('abort', onAbort);
      if (err) reject(closed((err as NodeJS.ErrnoException).code ?? err.message));
      else resolve();
    });
  });
}
