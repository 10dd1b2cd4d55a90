// Starts one child: its own process group, stdout and stderr straight into log files (never
// the gateway's stdout, which carries the protocol), stdin a pipe or nothing.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';
import { once } from 'node:events';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type { RaiseError } from './errors.js';
import type { Launch } from './launch.js';

export function logPaths(logDir: string): { stdout: string; stderr: string } {
  return { stdout: join(logDir, 'stdout.log'), stderr: join(logDir, 'stderr.log') };
}

/** Resolves with a child that has a pid, or throws a PROCESS_* error. */
export async function spawnChild(launch: Launch, logDir: string, stdin: 'pipe' | 'ignore', error: RaiseError): Promise<ChildProcess> {
  mkdirSync(logDir, { recursive: true });
  const paths = logPaths(logDir);
  // O_APPEND: the child always writes at the end, even after a retention cut truncates it.
  const out = openSync(paths.stdout, 'a');
  const err = openSync(paths.stderr, 'a');
  let child: ChildProcess;
  try {
    child = spawn(launch.file, [...launch.spawnArgs], {
      cwd: launch.cwd,
      env: launch.env,
      argv0: launch.argv0,
      // The child leads a new process group (and session): signals reach its whole tree.
      detached: true,
      stdio: [stdin, out, err],
    });
  } catch (cause) {
    throw spawnError(cause, launch, error);
  } finally {
    // The child has its own copies now.
    closeSync(out);
    closeSync(err);
  }
  if (child.pid === undefined) {
    const [cause] = (await once(child, 'error')) as [unknown];
    throw spawnError(cause, launch, error);
  }
  return child;
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
