// The workers this gateway runs: spawn (agent row, task, worktree, process through the process
// plugin), health checks with restarts, and the end of each — exited, failed or dismissed; at
// every end its unfinished task goes back to pending for anyone, and its driver is alerted
// unless it dismissed the worker itself. State is in memory (worker.ts says why).
import type { ManagedProcessHandle, ProcessApi, ProcessExit } from '@mcp-gateway/plugin-process/api';
import type { CollabContext, CollabStore } from '../context.js';
import type { Mailbox } from '../mailbox.js';
import { nowIso, SYSTEM_AGENT, type Task } from '../model.js';
import { agentKindOf, agentNamesInUse, upsertAgentRow } from '../store/agent-store.js';
import { workerArgv, workerEnv } from './command.js';
import { verdict, type HealthLimits } from './health.js';
import { isLive, type Worker, type WorkerStatus } from './worker.js';
import { assignToWorker, releaseFromWorker, taskForWorker } from './worker-task.js';
import { Worktrees, type CommitResult } from './worktree.js';

export interface WorkersDeps {
  readonly ctx: CollabContext;
  readonly store: CollabStore;
  readonly mailbox: Mailbox;
  readonly process: ProcessApi;
  /** When an agent last called a collab tool on this gateway (AgentIdentity.lastCall): a worker's heartbeat. */
  readonly lastCall: (agent: string) => number | undefined;
}

export interface SpawnRequest {
  readonly kind: string;
  readonly driver: string;
  readonly name?: string;
  readonly taskId?: number;
  readonly input?: string;
}

type KindConfig = CollabContext['config']['workers']['kinds'][string];

/** How long a worker gets between SIGTERM and SIGKILL when it is restarted, failed or dismissed. */
const STOP_GRACE_MS = 2000;

/** Ended workers kept for collab_list_workers and collab_worker_output; older ones are forgotten. */
export const KEEP_ENDED_WORKERS = 100;

export class Workers {
  readonly #ctx: CollabContext;
  readonly #store: CollabStore;
  readonly #mailbox: Mailbox;
  readonly #process: ProcessApi;
  readonly #lastCall: (agent: string) => number | undefined;
  readonly worktrees: Worktrees;
  readonly #byName = new Map<string, Worker>();
  /** Names being spawned (awaiting git or the process): they hold their kind's slot already. */
  readonly #reserved = new Map<string, string>();
  readonly #timer: NodeJS.Timeout;
  #checking = false;
  #closing = false;

  constructor(deps: WorkersDeps) {
    this.#ctx = deps.ctx;
    this.#store = deps.store;
    this.#mailbox = deps.mailbox;
    this.#process = deps.process;
    this.#lastCall = deps.lastCall;
    this.worktrees = new Worktrees(deps.ctx);
    this.#timer = setInterval(() => void this.check(), deps.ctx.config.workers.healthCheckSeconds * 1000);
    this.#timer.unref();
  }

  /** The configured kind; COLLAB_WORKER_KIND_UNKNOWN otherwise. */
  kindOf(kind: string): KindConfig {
    const config = Object.hasOwn(this.#ctx.config.workers.kinds, kind) ? this.#ctx.config.workers.kinds[kind] : undefined;
    if (!config) {
      const known = Object.keys(this.#ctx.config.workers.kinds);
      throw this.#ctx.error('COLLAB_WORKER_KIND_UNKNOWN', `No worker kind "${kind}" is configured (plugins.collab.config.workers.kinds${known.length ? `: ${known.join(', ')}` : ' is empty'}).`, { kind, known });
    }
    return config;
  }

  /** The worker named `name`; COLLAB_WORKER_NOT_FOUND otherwise. */
  get(name: string): Worker {
    const worker = this.#byName.get(name);
    if (!worker) throw this.#ctx.error('COLLAB_WORKER_NOT_FOUND', `No worker is named "${name}" on this gateway: list them with collab_list_workers.`, { name });
    return worker;
  }

  list(): Worker[] {
    return [...this.#byName.values()];
  }

  async spawn(request: SpawnRequest): Promise<Worker> {
    const kind = this.kindOf(request.kind);
    // Read before the checks below, which run with the reservation in one synchronous stretch.
    const elsewhere = request.name === undefined ? await this.#namesInUseElsewhere(request.kind) : undefined;
    const live = this.list().filter((w) => w.kind === request.kind && isLive(w)).length + [...this.#reserved.values()].filter((k) => k === request.kind).length;
    if (live >= kind.maxInstances) {
      throw this.#ctx.error('COLLAB_WORKER_LIMIT', `Kind "${request.kind}" runs ${live} of its ${kind.maxInstances} workers (maxInstances): dismiss one or wait for one to end.`, { kind: request.kind, maxInstances: kind.maxInstances });
    }
    const name = request.name ?? this.#defaultName(request.kind, elsewhere!);
    this.#checkNameFree(name);
    this.#reserved.set(name, request.kind);
    try {
      await this.#checkAgentName(name);
      // Checked before its agent row is made, and again when it is given (assignToWorker).
      if (request.taskId !== undefined) await taskForWorker(this.#ctx, this.#store.db, request.taskId, name, request.driver);
      await upsertAgentRow(this.#store.db, { name, kind: 'worker', display_name: `${request.kind} worker` });
      // Given to it before its process starts: a task someone else took meanwhile is refused, not taken over.
      if (request.taskId !== undefined) await assignToWorker(this.#ctx, this.#store, request.taskId, name, request.driver);
      let worker: Worker;
      try {
        worker = await this.#launch(request, name);
      } catch (err) {
        // Nothing runs for it: the task it was just given goes back.
        if (request.taskId !== undefined) await releaseFromWorker(this.#ctx, this.#store, request.taskId, name, request.driver);
        throw err;
      }
      // Most recent last: the oldest ended workers are forgotten first.
      this.#byName.delete(name);
      this.#byName.set(name, worker);
      this.#publish(worker, 'starting');
      if (request.input !== undefined && request.input !== '') await worker.handle!.write(request.input);
      return worker;
    } finally {
      this.#reserved.delete(name);
    }
  }

  /** Its worktree and its first run; a spawn that meets the shutdown stops what it started. */
  async #launch(request: SpawnRequest, name: string): Promise<Worker> {
    const kind = this.kindOf(request.kind);
    const place = kind.worktree === 'auto' && (await this.worktrees.repository()) !== null ? await this.worktrees.create(name) : undefined;
    const now = Date.now();
    const worker: Worker = {
      name,
      kind: request.kind,
      driver: request.driver,
      taskId: request.taskId ?? null,
      worktree: place?.worktree ?? null,
      cwd: place?.cwd ?? this.#ctx.workspace.root,
      status: 'starting',
      restarts: 0,
      spawnedMs: now,
      runStartedMs: now,
      reason: null,
      exitCode: null,
    };
    const shuttingDown = () => this.#ctx.error('COLLAB_WORKER_NOT_RUNNING', `The gateway is shutting down: worker "${name}" is not started.`, { name, status: worker.status });
    if (this.#closing) throw shuttingDown();
    await this.#startRun(worker);
    // close() did not see it: it stops here.
    if (this.#closing) {
      await this.#stopRun(worker);
      throw shuttingDown();
    }
    return worker;
  }

  /** Writes to the worker's stdin; COLLAB_WORKER_NOT_RUNNING between runs and after its end. */
  async input(worker: Worker, text: string, signal: AbortSignal): Promise<void> {
    const handle = worker.handle;
    if (!handle?.running || !isLive(worker) || worker.status === 'restarting') {
      throw this.#ctx.error('COLLAB_WORKER_NOT_RUNNING', `Worker "${worker.name}" is ${worker.status}: nothing reads its stdin now.`, { name: worker.name, status: worker.status });
    }
    try {
      await handle.write(text, signal);
    } catch (err) {
      if ((err as { code?: string }).code?.startsWith('PROCESS_')) {
        throw this.#ctx.error('COLLAB_WORKER_NOT_RUNNING', `Worker "${worker.name}" closed its stdin or ended meanwhile.`, { name: worker.name, status: worker.status });
      }
      throw err;
    }
  }

  /** Commits the worker's worktree; a worker without one has nothing to commit. */
  async commit(worker: Worker, message: string): Promise<CommitResult> {
    if (!worker.worktree) return { committed: false, commit: null, files: 0 };
    const result = await this.worktrees.commit(worker.worktree, message, worker.name);
    if (result.committed) this.#ctx.events.publish('collab.worker.committed', { name: worker.name, branch: worker.worktree.branch, commit: result.commit, files: result.files });
    return result;
  }

  /**
   * Stops the worker, commits its worktree first when `commitMessage` is given, removes the
   * worktree (the branch stays), and gives its unfinished task back to everyone.
   */
  async dismiss(worker: Worker, by: string, commitMessage?: string): Promise<CommitResult | null> {
    this.#setStatus(worker, 'dismissed', `dismissed by ${by}`);
    await this.#stopRun(worker);
    const commit = commitMessage !== undefined ? await this.commit(worker, commitMessage) : null;
    if (worker.worktree) await this.worktrees.remove(worker.worktree);
    // Its driver dismissed it: no alert. (A worker that had ended gave its task back then.)
    await this.#releaseTask(worker, by);
    return commit;
  }

  /** One health check of every running worker (skipped while the previous one still runs). */
  async check(now: number = Date.now()): Promise<void> {
    if (this.#checking || this.#closing) return;
    this.#checking = true;
    try {
      const watched = this.list().filter((w) => w.status === 'starting' || w.status === 'running' || w.status === 'degraded');
      if (watched.length === 0) return;
      // The workers call this gateway (it gave them its addresses): its own record of their calls is exact.
      for (const worker of watched) worker.heartbeatMs = this.#lastCall(worker.name) ?? worker.heartbeatMs;
      const { degradedAfterSeconds, unhealthyAfterSeconds } = this.#ctx.config.workers;
      for (const worker of watched) {
        // A worker dismissed or ended while the heartbeats were read is no longer ours to judge.
        if (!(worker.status === 'starting' || worker.status === 'running' || worker.status === 'degraded')) continue;
        const limits: HealthLimits = { degradedMs: degradedAfterSeconds * 1000, unhealthyMs: unhealthyAfterSeconds * 1000, timeoutMs: this.kindOf(worker.kind).timeoutSeconds * 1000 };
        const found = verdict(worker, worker.handle?.lastOutputMs(), limits, now);
        if (found.kind === 'timeout') await this.#fail(worker, `ran longer than timeoutSeconds (${this.kindOf(worker.kind).timeoutSeconds} s)`);
        else if (found.kind === 'unhealthy') {
          this.#setStatus(worker, 'unhealthy', `silent for ${Math.round(found.silentMs / 1000)} s`);
          await this.#restartOrFail(worker, worker.reason!);
        } else if (found.status !== worker.status) this.#setStatus(worker, found.status, worker.reason);
      }
    } catch (err) {
      this.#ctx.log.error({ err }, 'collab: a worker health check failed');
    } finally {
      this.#checking = false;
    }
  }

  /**
   * Shutdown: every worker stops, and an unfinished task goes back to pending for anyone (no
   * gateway will run these workers again); worktrees and branches stay for a later spawn of the same name.
   */
  async close(): Promise<void> {
    this.#closing = true;
    clearInterval(this.#timer);
    const live = this.list().filter(isLive);
    await Promise.all(this.list().map((worker) => this.#stopRun(worker)));
    for (const worker of live) {
      try {
        await this.#releaseTask(worker, SYSTEM_AGENT);
      } catch (err) {
        this.#ctx.log.error({ err, worker: worker.name }, 'collab: giving back the task of a worker at shutdown failed');
      }
    }
  }

  async #startRun(worker: Worker): Promise<void> {
    const kind = this.kindOf(worker.kind);
    const values = { agent: worker.name, taskId: worker.taskId, dir: worker.cwd };
    const { command, args } = workerArgv(kind.command, values);
    const handle = await this.#process.start({ command, args, cwd: worker.cwd, env: workerEnv(kind.env, values, this.#ctx.listening()), label: `collab worker ${worker.name}` });
    worker.handle = handle;
    worker.runStartedMs = Date.now();
    handle.onExit((exit) => void this.#onExit(worker, handle, exit));
  }

  async #stopRun(worker: Worker): Promise<void> {
    const handle = worker.handle;
    if (handle?.running) await handle.stop(STOP_GRACE_MS);
  }

  async #onExit(worker: Worker, handle: ManagedProcessHandle, exit: ProcessExit): Promise<void> {
    // Runs we ended ourselves (a restart, a failure, a dismissal, shutdown) are accounted for.
    if (this.#closing || worker.handle !== handle || !isLive(worker) || worker.status === 'restarting' || worker.status === 'unhealthy') return;
    worker.exitCode = exit.exit_code;
    try {
      if (exit.status === 'exited') await this.#exited(worker);
      else await this.#restartOrFail(worker, exit.exit_code !== null ? `exited with code ${exit.exit_code}` : `ended by ${exit.signal ?? 'an unknown cause'}`);
    } catch (err) {
      this.#ctx.log.error({ err, worker: worker.name }, 'collab: handling a worker exit failed');
    }
  }

  async #restartOrFail(worker: Worker, reason: string): Promise<void> {
    if (worker.restarts >= this.kindOf(worker.kind).restarts) return this.#fail(worker, `${reason}; restarted ${worker.restarts} times already`);
    this.#setStatus(worker, 'restarting', reason);
    worker.restarts += 1;
    await this.#stopRun(worker);
    if (this.#closing || worker.status !== 'restarting') return;
    try {
      await this.#startRun(worker);
    } catch (err) {
      if (worker.status === 'restarting') await this.#fail(worker, `could not be restarted: ${(err as Error).message}`);
      return;
    }
    // Dismissed (or failed, or shut down) while the new run started: that run is not wanted.
    if (this.#closing || worker.status !== 'restarting') {
      await this.#stopRun(worker);
      return;
    }
    this.#setStatus(worker, 'starting', reason);
  }

  /** It exited with code 0: done — but a task it did not finish goes back to everyone, and its driver hears it. */
  async #exited(worker: Worker): Promise<void> {
    this.#setStatus(worker, 'exited', 'exited with code 0');
    const task = await this.#releaseTask(worker, SYSTEM_AGENT);
    if (!task) return;
    await this.#alert(worker, `Worker ${worker.name} exited without finishing its task`, `Worker ${worker.name} (kind ${worker.kind}) exited with code 0 without completing its task #${task.id} "${task.title}": it is pending again, for anyone. Its recent output: collab_worker_output {"name": "${worker.name}"}.`);
  }

  /** The worker is over: stopped, its task back to pending for anyone, its driver told. */
  async #fail(worker: Worker, reason: string): Promise<void> {
    this.#setStatus(worker, 'failed', reason);
    await this.#stopRun(worker);
    const task = await this.#releaseTask(worker, SYSTEM_AGENT);
    const about = task ? ` Its task #${task.id} "${task.title}" is pending again, for anyone.` : '';
    await this.#alert(worker, `Worker ${worker.name} failed`, `Worker ${worker.name} (kind ${worker.kind}) failed: ${reason}.${about} Its recent output: collab_worker_output {"name": "${worker.name}"}.`);
  }

  async #alert(worker: Worker, subject: string, body: string): Promise<void> {
    await this.#mailbox.send({ from: SYSTEM_AGENT, to: worker.driver, kind: 'alert', subject, body, task_id: worker.taskId });
  }

  #setStatus(worker: Worker, status: WorkerStatus, reason: string | null): void {
    worker.status = status;
    worker.reason = reason;
    this.#publish(worker, status);
    if (!isLive(worker)) this.#forgetOldEnded();
  }

  /** Names are the callers' to choose: ended workers are kept up to a bound, the oldest spawned dropped first. */
  #forgetOldEnded(): void {
    const ended = this.list().filter((w) => !isLive(w));
    for (const worker of ended.slice(0, Math.max(0, ended.length - KEEP_ENDED_WORKERS))) this.#byName.delete(worker.name);
  }

  #publish(worker: Worker, change: string): void {
    this.#ctx.events.publish(`collab.worker.${change}`, { name: worker.name, kind: worker.kind, driver: worker.driver, status: worker.status, task_id: worker.taskId, restarts: worker.restarts, reason: worker.reason });
  }

  /** The first free `<kind>-<n>`: not ours and live, nor in use elsewhere (see #namesInUseElsewhere). */
  #defaultName(kind: string, elsewhere: ReadonlySet<string>): string {
    for (let n = 1; ; n++) {
      const name = `${kind}-${n}`;
      // An ended worker of ours is known to be over: its agent row is ours to take again.
      if (!this.#taken(name) && (!elsewhere.has(name) || this.#byName.has(name))) return name;
    }
  }

  /**
   * Default names that would collide with an agent of the store: one that is no worker, or a
   * worker seen within presence.staleSeconds — perhaps another gateway's on the same PostgreSQL
   * store, which this gateway cannot see run (two processes must never act as one agent).
   */
  async #namesInUseElsewhere(kind: string): Promise<Set<string>> {
    const since = nowIso(Date.now() - this.#ctx.config.presence.staleSeconds * 1000);
    return new Set(await agentNamesInUse(this.#store.db, kind, since));
  }

  #taken(name: string): boolean {
    const worker = this.#byName.get(name);
    return this.#reserved.has(name) || (worker !== undefined && isLive(worker)) || Object.values(this.#ctx.config.keyAgents).includes(name);
  }

  #checkNameFree(name: string): void {
    if (this.#taken(name)) throw this.#ctx.error('COLLAB_WORKER_NAME_TAKEN', `"${name}" is a live worker's name, or an agent pinned to an API key: choose another, or leave name out.`, { name });
  }

  /** A worker may take over an earlier worker's agent, never an agent that joined by itself. */
  async #checkAgentName(name: string): Promise<void> {
    const kind = await agentKindOf(this.#store.db, name);
    if (kind !== undefined && kind !== 'worker') throw this.#ctx.error('COLLAB_WORKER_NAME_TAKEN', `"${name}" is a registered agent that is not a worker: choose another name, or leave name out.`, { name });
  }

  /** Its task, if still open and its own, goes back to pending for anyone (locks released); returns it then. */
  async #releaseTask(worker: Worker, by: string): Promise<Task | undefined> {
    if (worker.taskId === null) return undefined;
    return releaseFromWorker(this.#ctx, this.#store, worker.taskId, worker.name, by);
  }
}
