import { readFileSync } from 'node:fs';
import { median, summarise, type Comparison } from './stats.js';

/** /proc/<pid>/stat counts CPU time in clock ticks (USER_HZ), 100 a second on Linux. */
const MICROS_PER_TICK = 10_000;

/** CPU time (user + system) the process `pid` has used so far, in µs, to the tick (10 ms). */
export function cpuMicrosOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name, in parentheses, may hold spaces: fields are counted after its ') '.
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * MICROS_PER_TICK;
}

/**
 * A side's run that also gives the CPU time its server process spent per call. The bench
 * client's cost and the host's swings are in the throughput ratios; the server's own CPU per
 * call is what the server controls.
 * Without a pid (a server inside the bench process) it is NaN.
 */
export async function withServerCpu<T extends { calls: number }>(pid: number | undefined, run: () => Promise<T>): Promise<T & { cpuPerCall: number }> {
  const before = pid === undefined ? 0 : cpuMicrosOf(pid);
  const result = await run();
  return { ...result, cpuPerCall: pid === undefined ? Number.NaN : (cpuMicrosOf(pid) - before) / result.calls };
}

/** `summarise` of costed rounds' throughputs, with each side's median server CPU per call (µs). */
export function summariseCosted(comparison: Comparison<{ perSecond: number; cpuPerCall: number }>): ReturnType<typeof summarise> & { cpuA: number; cpuB: number } {
  const { rounds } = comparison;
  return {
    ...summarise({ rounds: rounds.map(([a, b]) => [a.perSecond, b.perSecond]) }),
    cpuA: median(rounds.map(([a]) => a.cpuPerCall)),
    cpuB: median(rounds.map(([, b]) => b.cpuPerCall)),
  };
}
