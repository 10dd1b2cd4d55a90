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

/**
 * Runs the synchronous `job` and returns what it returns, or stops it after `ms` milliseconds and
 * throws TimeBoundExceeded. JavaScript cannot interrupt itself; vm's `timeout` can, by a watchdog
 * thread that terminates whatever runs (about 70 µs per run to set up), and the job's own
 * functions run in this realm as usual. A stopped job may leave what it was changing half done:
 * use it for work whose state can be thrown away or checked (a validation, a regex's caches).
 */
export function runWithin<T>(ms: number, job: () => T): T {
  sandbox ??= createContext({ job: undefined });
  sandbox.job = job;
  try {
    return call.runInContext(sandbox, { timeout: ms }) as T;
  } catch (err) {
    if ((err as { code?: unknown } | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new TimeBoundExceeded(ms);
    throw err;
  } finally {
    sandbox.job = undefined;
  }
}
