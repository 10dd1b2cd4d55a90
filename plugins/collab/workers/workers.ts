// The workers this gateway runs: spawn (agent row, worktree, process through the process
// plugin), health checks with restarts, and the end of each — exited, failed (its task back
// to pending and an alert to its driver), or dismissed. State is in memory (worker.ts says why).
import type { ManagedProcessHandle, ProcessApi, ProcessExit } from '../../process/api.js';
import { upsertAgent } from '../agents.js';
import type { CollabContext, CollabStore } from '../context.js';
import { taskChannel, type TaskEvent } from '../events.js';
import type { Mailbox } from '../mailbox.js';
import { ANYONE, nowIso, SYSTEM_AGENT, type TaskStatus } from '../model.js';
import { workerArgv, workerEnv } from './command.js';
import { verdict, type HealthLimits } from './health.js';
import { isLive, type Worker, type WorkerStatus } from './worker.js';
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
    const live = this.list().filter((w) => w.kind === request.kind && isLive(w)).length + [...this.#reserved.values()].filter((k) => k === request.kind).length;
    if (live >= kind.maxInstances) {
      throw this.#ctx.error('COLLAB_WORKER_LIMIT', `Kind "${request.kind}" runs ${live} of its ${kind.maxInstances} workers (maxInstances): dismiss one or wait for one to end.`, { kind: request.kind, maxInstances: kind.maxInstances });
    }
    const name = request.name ?? this.#defaultName(request.kind);
    this.#checkNameFree(name);
    this.#reserved.set(name, request.kind);
    try {
      await this.#checkAgentName(name);
      const task = request.taskId === undefined ? undefined : await this.#openTask(request.taskId);
      await upsertAgent(this.#store, { name, kind: 'worker', display_name: `${request.kind} worker` });
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
      await this.#startRun(worker);
      this.#byName.set(name, worker);
      if (task) await this.#assign(worker, task, request.driver);
      this.#publish(worker, 'starting');
      if (request.input !== undefined && request.input !== '') await worker.handle!.write(request.input);
      return worker;
    } finally {
      this.#reserved.delete(name);
    }
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
    const wasLive = isLive(worker);
    this.#setStatus(worker, 'dismissed', `dismissed by ${by}`);
    await this.#stopRun(worker);
    const commit = commitMessage !== undefined ? await this.commit(worker, commitMessage) : null;
    if (worker.worktree) await this.worktrees.remove(worker.worktree);
    if (wasLive) await this.#releaseTask(worker, by);
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

  /** Shutdown: every worker stops; worktrees and branches stay for a later spawn of the same name. */
  async close(): Promise<void> {
    this.#closing = true;
    clearInterval(this.#timer);
    await Promise.all(this.list().map((worker) => this.#stopRun(worker)));
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
      if (exit.status === 'exited') this.#setStatus(worker, 'exited', 'exited with code 0');
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
      this.#setStatus(worker, 'starting', reason);
    } catch (err) {
      await this.#fail(worker, `could not be restarted: ${(err as Error).message}`);
    }
  }

  /** The worker is over: stopped, its task back to pending for anyone, its driver told. */
  async #fail(worker: Worker, reason: string): Promise<void> {
    this.#setStatus(worker, 'failed', reason);
    await this.#stopRun(worker);
    const task = await this.#releaseTask(worker, SYSTEM_AGENT);
    const about = task ? ` Its task #${task.id} "${task.title}" is pending again, for anyone.` : '';
    await this.#mailbox.send({
      from: SYSTEM_AGENT,
      to: worker.driver,
      kind: 'alert',
      subject: `Worker ${worker.name} failed`,
      body: `Worker ${worker.name} (kind ${worker.kind}) failed: ${reason}.${about} Its recent output: collab_worker_output {"name": "${worker.name}"}.`,
      task_id: worker.taskId,
    });
  }

  #setStatus(worker: Worker, status: WorkerStatus, reason: string | null): void {
    worker.status = status;
    worker.reason = reason;
    this.#publish(worker, status);
  }

  #publish(worker: Worker, change: string): void {
    this.#ctx.events.publish(`collab.worker.${change}`, { name: worker.name, kind: worker.kind, driver: worker.driver, status: worker.status, task_id: worker.taskId, restarts: worker.restarts, reason: worker.reason });
  }

  #defaultName(kind: string): string {
    for (let n = 1; ; n++) {
      const name = `${kind}-${n}`;
      if (!this.#taken(name)) return name;
    }
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
    const agent = await this.#store.db.selectFrom('collab_agents').select('kind').where('name', '=', name).executeTakeFirst();
    if (agent && agent.kind !== 'worker') throw this.#ctx.error('COLLAB_WORKER_NAME_TAKEN', `"${name}" is a registered agent that is not a worker: choose another name, or leave name out.`, { name });
  }

  async #openTask(id: number) {
    const task = await this.#store.db.selectFrom('collab_tasks').select(['id', 'title', 'status', 'assignee', 'priority']).where('id', '=', id).executeTakeFirst();
    if (!task) throw this.#ctx.error('COLLAB_TASK_NOT_FOUND', `No task has id ${id}: list them with collab_list_tasks.`, { id });
    if (task.status === 'completed' || task.status === 'cancelled') {
      throw this.#ctx.error('COLLAB_TRANSITION_INVALID', `Task ${id} is ${task.status}: a worker can only be given an open task.`, { id, from: task.status, to: 'in_progress', allowed: [] });
    }
    return task;
  }

  async #assign(worker: Worker, task: { id: number; title: string; status: string; assignee: string; priority: number }, by: string): Promise<void> {
    await this.#store.db
      .updateTable('collab_tasks')
      .set((eb) => ({ assignee: worker.name, updated_at: nowIso(), version: eb('version', '+', 1) }))
      .where('id', '=', task.id)
      .execute();
    const event: TaskEvent = { id: task.id, title: task.title, status: task.status as TaskStatus, assignee: worker.name, priority: task.priority, by, previous_assignee: task.assignee };
    this.#ctx.events.publish(taskChannel('updated'), event);
  }

  /** Its task, if still open and its own, goes back to pending for anyone; returns it then. */
  async #releaseTask(worker: Worker, by: string): Promise<{ id: number; title: string } | undefined> {
    if (worker.taskId === null) return undefined;
    const task = await this.#store.db
      .updateTable('collab_tasks')
      .set((eb) => ({ status: 'pending', assignee: ANYONE, updated_at: nowIso(), started_at: null, version: eb('version', '+', 1) }))
      .where('id', '=', worker.taskId)
      .where('assignee', '=', worker.name)
      .where('status', 'in', ['pending', 'in_progress'])
      .returning(['id', 'title', 'priority'])
      .executeTakeFirst();
    if (!task) return undefined;
    const event: TaskEvent = { id: task.id, title: task.title, status: 'pending', assignee: ANYONE, priority: task.priority, by, previous_assignee: worker.name };
    this.#ctx.events.publish(taskChannel('updated'), event);
    return task;
  }
}
