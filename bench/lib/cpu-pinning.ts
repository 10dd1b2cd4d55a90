import { execFileSync } from 'node:child_process';

/**
 * Where the bench's processes run: the bench process (the clients and load generators of every
 * comparison) on one CPU, every server it starts on the others. Left to the scheduler on a
 * machine of two cores, a server shares its core with the load generator in some rounds and
 * not in others, moves between cores, and the side with the larger working set loses more to
 * that than the other (bench/analysis.md section 21); one machine for the load and another for
 * the server is the usual set-up, and this is the nearest one machine has. Both sides of
 * every comparison are servers started the same way, so both run on the same CPUs.
 */
export interface Pinning {
  /** The bench process's CPU list, as taskset writes it. */
  readonly client: string;
  /** The servers' CPU list. */
  readonly servers: string;
}

/**
 * Pins this process to the first CPU it may run on and returns the split, or undefined (and
 * pins nothing) when it may run on fewer than two CPUs or taskset (util-linux) is missing.
 */
export function pinBench(): Pinning | undefined {
  let cpus: number[];
  try {
    // "pid 123's current affinity list: 0-3,6"
    const list = execFileSync('taskset', ['-cp', String(process.pid)], { encoding: 'utf8' }).split(':').pop()!.trim();
    cpus = expandCpuList(list);
  } catch {
    return undefined;
  }
  if (cpus.length < 2) return undefined;
  const pinning = { client: String(cpus[0]), servers: cpus.slice(1).join(',') };
  // -a: every thread this process has already started (libuv's pool, V8's helpers) too.
  execFileSync('taskset', ['-a', '-cp', pinning.client, String(process.pid)], { stdio: 'ignore' });
  return pinning;
}

/** "0-2,5" → [0, 1, 2, 5]. */
function expandCpuList(list: string): number[] {
  return list.split(',').flatMap((part) => {
    const [from, to = from] = part.split('-').map(Number);
    if (!Number.isInteger(from) || !Number.isInteger(to) || to! < from!) throw new Error(`not a CPU list: ${list}`);
    return Array.from({ length: to! - from! + 1 }, (_, i) => from! + i);
  });
}
