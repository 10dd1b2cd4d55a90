import { createContext, Script, type Context } from 'node:vm';

/** Thrown by runWithin when the job was stopped at its time bound. */
export class TimeBoundExceeded extends Error {
  readonly ms: number;

  constructor(ms: number) {
    super(`it took longer than ${ms} ms`);
    this.name = 'TimeBoundExceeded';
    this.ms = ms;
  }
}

const call = new Script('job()');
/** One context for every job: a context costs about a millisecond and a few hundred KB to make. */
let sandbox: Context | undefined;

/** Attempts of a job stopped at its bound while it had the CPU for less than half of it. */
const STARVED_ATTEMPTS = 3;

/**
 * Runs the synchronous `job` and returns what it returns, or stops it after `ms` milliseconds and
 * throws TimeBoundExceeded. JavaScript cannot interrupt itself; vm's `timeout` can, by a watchdog
 * thread that terminates whatever runs (about 70 µs per run to set up), and the job's own
 * functions run in this realm as usual. A stopped job may leave what it was changing half done:
 * use it for work whose state can be thrown away or checked (a validation, a regex's caches).
 *
 * The watchdog counts wall-clock time. On a loaded machine a job can reach the bound while the
 * process waits for a CPU: such a job, stopped after using less than half the bound in CPU time,
 * is run again (up to three times in all), so that a small valid value is not refused because
 * the machine was busy. A job that really does the work (a pattern that backtracks) uses the
 * CPU it is given and is stopped at the first bound. A job whose stop leaves state a rerun would
 * trip on (an Ajv compile) gives `beforeRerun`, which puts that state back or throws it away.
 */
export function runWithin<T>(ms: number, job: () => T, options: { readonly beforeRerun?: () => void } = {}): T {
  sandbox ??= createContext({ job: undefined });
  sandbox.job = job;
  try {
    for (let attempt = 1; ; attempt++) {
      const before = process.cpuUsage();
      try {
        return call.runInContext(sandbox, { timeout: ms }) as T;
      } catch (err) {
        if ((err as { code?: unknown } | null)?.code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw err;
        const used = process.cpuUsage(before);
        const starved = (used.user + used.system) / 1000 < ms / 2;
        if (!starved || attempt === STARVED_ATTEMPTS) throw new TimeBoundExceeded(ms);
        options.beforeRerun?.();
      }
    }
  } finally {
    sandbox.job = undefined;
  }
}
