// Low-level process and process-group probes for POSIX. Every child leads its own group
// (spawned with `detached: true`), so a group id is the leader's pid.
import { readdirSync, readFileSync } from 'node:fs';

/** What identifies one process across time: a pid alone can be reused by the kernel. */
export interface ProcessIdentity {
  readonly pid: number;
  /** Field 22 of /proc/<pid>/stat (clock ticks after boot); null where /proc is missing. */
  readonly startTicks: string | null;
  /** /proc/sys/kernel/random/boot_id: a start time means nothing after a reboot. */
  readonly bootId: string | null;
}

interface ProcStat {
  readonly state: string;
  readonly pgrp: number;
  readonly startTicks: string;
}

/** The kernel's boot id, or null where there is no /proc (then only kill(pid, 0) is used). */
export function readBootId(): string | null {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return null;
  }
}

/** Parsed /proc/<pid>/stat, or undefined when it cannot be read (gone, or no /proc). */
function readStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may itself contain spaces and ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state), so field n is fields[n - 3].
  return { state: fields[0]!, pgrp: Number(fields[2]), startTicks: fields[19]! };
}

export function identify(pid: number): ProcessIdentity {
  return { pid, startTicks: readStat(pid)?.startTicks ?? null, bootId: readBootId() };
}

/** Zombies (exited, not yet reaped) count as gone: an orphan's reaper may never come. */
function isDeadState(state: string): boolean {
  return state === 'Z' || state === 'X' || state === 'x';
}

/**
 * Whether the process `identity` describes still runs. A pid that now belongs to another
 * process (a different start time or boot) is not ours, so it counts as gone.
 */
export function isAlive(identity: ProcessIdentity): boolean {
  if (!signalExists(identity.pid)) return false;
  const stat = readStat(identity.pid);
  if (stat === undefined) return readBootId() === null; // no /proc: kill(pid, 0) is all we have
  if (isDeadState(stat.state)) return false;
  if (identity.bootId !== null && identity.bootId !== readBootId()) return false;
  return identity.startTicks === null || identity.startTicks === stat.startTicks;
}

/** Whether any live (non-zombie) process is still in the group `pgid`. */
export function groupAlive(pgid: number): boolean {
  if (!signalExists(-pgid)) return false;
  if (readBootId() === null) return true;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat && stat.pgrp === pgid && !isDeadState(stat.state)) return true;
  }
  return false;
}

/**
 * The live members of group `pgid`, each with its start time: what tells them apart from the
 * members of an unrelated group that reused the id later. Empty where there is no /proc.
 */
export function groupMembers(pgid: number): ProcessIdentity[] {
  const bootId = readBootId();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const members: ProcessIdentity[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat && stat.pgrp === pgid && !isDeadState(stat.state)) members.push({ pid: Number(entry), startTicks: stat.startTicks, bootId });
  }
  return members;
}

/** Sends `signal` to every process of the group; false when the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw err;
  }
}

/** kill(target, 0): ESRCH means nothing there; EPERM means something is (not ours to signal). */
function signalExists(target: number): boolean {
  try {
    process.kill(target, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Polls `done` until it is true (resolves true) or `timeoutMs` passes (resolves false). */
export async function waitFor(done: () => boolean, timeoutMs: number, intervalMs = 25): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (done()) return true;
    if (Date.now() >= deadline) return false;
    await sleep(Math.min(intervalMs, Math.max(1, deadline - Date.now())));
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
