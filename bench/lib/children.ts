import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const GATEWAY_BIN = join(ROOT, 'bin', 'mcp-gateway.js');
export const BARE_SERVER = join(ROOT, 'bench', 'servers', 'bare-server.js');
export const BENCH_REGISTRY = join(ROOT, 'bench', 'plugins', 'bench-echo', 'registry');

/**
 * Everything the bench starts, so that it can all be stopped on any exit path: children are
 * killed by pid (never by name) and temp folders removed.
 */
const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();

export function tempDir(prefix = 'mcpgw-bench-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

export function cleanUp(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  children.clear();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

export interface Child {
  readonly process: ChildProcess;
  readonly pid: number;
  /** The last stderr lines, for error messages. */
  readonly stderrTail: string[];
  readonly exited: Promise<number | null>;
  /** Resolves with the addresses of the first `count` "listening" lines on stderr. */
  listening(count: number, timeoutMs?: number): Promise<ListeningAddress[]>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
  stop(graceMs?: number): Promise<void>;
}

type HostPort<K extends string> = { kind: K; host: string; port: number };
export type ListeningAddress = HostPort<'tcp'> | HostPort<'http'> | HostPort<'rest'> | { kind: 'unix'; path: string };

/** The CPUs every server runs on (lib/cpu-pinning.ts); undefined: wherever the scheduler puts them. */
let serverCpus: string | undefined;

export function runServersOn(cpus: string | undefined): void {
  serverCpus = cpus;
}

/**
 * `command args` as the bench starts a server or a baseline's work: on the servers' CPUs when
 * they are pinned (taskset executes the command in its own process, so the pid is the
 * command's, and whatever the command starts inherits the CPUs).
 */
export function serverCommand(command: string, args: string[]): [string, string[]] {
  return serverCpus === undefined ? [command, args] : ['taskset', ['-c', serverCpus, command, ...args]];
}

/** Spawns `node [nodeArgs] script [args]` with stdin/stdout piped; stderr is always drained. */
export function spawnNode(script: string, args: string[], options: { nodeArgs?: string[]; cwd?: string; env?: NodeJS.ProcessEnv } = {}): Child {
  const spawnOptions: SpawnOptions = {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  };
  const child = spawn(...serverCommand(process.execPath, [...(options.nodeArgs ?? []), script, ...args]), spawnOptions);
  return track(child);
}

export function track(child: ChildProcess): Child {
  children.add(child);
  const stderrTail: string[] = [];
  const addresses: ListeningAddress[] = [];
  const waiters = new Set<() => void>();
  let pending = '';
  // A child whose stderr pipe fills up blocks on its next log line: always read it.
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      stderrTail.push(line);
      if (stderrTail.length > 40) stderrTail.shift();
      if (line.includes('"listening"')) {
        try {
          const entry = JSON.parse(line) as { msg?: string; address?: ListeningAddress };
          if (entry.msg === 'listening' && entry.address) addresses.push(entry.address);
        } catch {
          // not a log line
        }
      }
    }
    for (const wake of waiters) wake();
  });
  child.stdin?.on('error', () => {});
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      children.delete(child);
      for (const wake of waiters) wake();
      resolve(code);
    }),
  );
  const listening = async (count: number, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    while (addresses.length < count) {
      if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
        throw new Error(`child ${child.pid} did not start listening:\n${stderrTail.join('\n')}`);
      }
      await new Promise<void>((resolve) => {
        waiters.add(resolve);
        setTimeout(() => {
          waiters.delete(resolve);
          resolve();
        }, 100);
      });
    }
    return addresses.slice(0, count);
  };
  const stop = async (graceMs = 5000) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
  return { process: child, pid: child.pid!, stderrTail, exited, listening, stop };
}

/** Writes a gateway config file (YAML) into `dir` and returns its path. */
export function writeGatewayConfig(dir: string, config: Record<string, unknown>, name = 'gateway.config.yaml'): string {
  const file = join(dir, name);
  writeFileSync(file, stringify(config));
  return file;
}

/** The resident set size of a process, in bytes, from /proc/<pid>/status. */
export async function rssOf(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1]);
  if (!Number.isFinite(kib)) throw new Error(`no VmRSS for pid ${pid}`);
  return kib * 1024;
}

/** Heap in use after full collections, from a child preloaded with bench/lib/heap-probe.js (it answers SIGUSR2 on stderr). */
export async function retainedHeap(child: Child): Promise<number> {
  child.stderrTail.length = 0;
  child.process.kill('SIGUSR2');
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
    const line = child.stderrTail.find((l) => l.includes('"heap after gc"'));
    if (line) return (JSON.parse(line) as { heapUsed: number }).heapUsed;
  }
  throw new Error(`no heap figures from ${child.pid}`);
}
