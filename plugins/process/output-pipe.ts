// The named pipes (FIFOs) a child writes its stdout and stderr into. The gateway reads them
// and writes the capped logs itself, so the cap holds on disk whatever the child prints,
// and a child that prints faster than the logs are written waits in its write() (pipe
// backpressure) instead of filling the disk or the gateway's memory.
//
// Why named pipes rather than the anonymous pipes spawn() makes: a pipe with no reader
// kills its writer with SIGPIPE, and a process kept across a gateway restart (onShutdown:
// keep, or a gateway killed with SIGKILL) must survive that. The child is handed the read
// ends too (fds 3 and 4, which it never reads), so a reader always exists: while no
// gateway reads, its output waits in the pipe, and once the pipe is full (64 KiB on Linux)
// its writes block until the next gateway opens the FIFO by its path and drains it.
import { execFile } from 'node:child_process';
import { constants, existsSync, openSync } from 'node:fs';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { StreamName } from './output-log.js';

const run = promisify(execFile);

export function pipePath(logDir: string, stream: StreamName): string {
  return join(logDir, `${stream}.pipe`);
}

/** Creates both FIFOs (mode 0600). Node has no mkfifo(), so the POSIX utility does it. */
export async function createPipes(logDir: string): Promise<void> {
  await run('mkfifo', ['-m', '600', pipePath(logDir, 'stdout'), pipePath(logDir, 'stderr')]);
}

export interface PipeEnds {
  /** Non-blocking read end, for the gateway (and inherited by the child as fd 3 or 4). */
  readonly read: number;
  /** Blocking write end: the child's stdout or stderr. */
  readonly write: number;
}

/** Opens both ends; the read end first, else opening the write end would block. */
export function openPipe(path: string): PipeEnds {
  const read = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  return { read, write: openSync(path, constants.O_WRONLY) };
}

/**
 * A readable stream over a FIFO's read end (the event loop polls it; no thread is held).
 * Opens the FIFO by path when no fd is given: a process adopted after a restart. Returns
 * undefined when there is no FIFO (a process started by a gateway older than the pipes).
 */
export function pipeReader(path: string, fd?: number): Socket | undefined {
  if (fd === undefined) {
    if (!existsSync(path)) return undefined;
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  }
  return new Socket({ fd, readable: true, writable: false });
}
