import { createHash, randomBytes } from 'node:crypto';
import type { EventBus } from '../lib/events.js';
import type { Logger } from '../lib/logger.js';
import type { TaskRun } from './task-run.js';
import type { TaskRow, TaskStore } from './task-store.js';

/** The extension's name, as clients declare it and the gateway advertises it. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** How long a task is kept after it was created. */
export const TASK_TTL_MS = 60 * 60_000;
/** How often a client should poll `tasks/get`. */
export const TASK_POLL_INTERVAL_MS = 1000;
/**
 * How long a call of a tool that supports tasks runs before it becomes one: a call that
 * answers within it answers at once, and questions it asks within it go to the client as a
 * round of questions (input-round.ts), as for any tool.
 */
export const TASK_AFTER_MS = 250;

/** The channel that tells the gateway running a task that its state changed elsewhere (answers, a cancel). */
const CHANGED_CHANNEL = 'core.tasks.changed';
/** A missed event (PostgreSQL's LISTEN is best effort) costs at most this much delay. */
const RECHECK_EVERY_MS = 2000;
const PURGE_EVERY_MS = 5 * 60_000;
/**
 * Calls running as tasks at once, per caller and on the gateway. A task holds no connection, so
 * without a cap one client could start calls (process runs, ingests) without bound; past it a
 * call is answered on its own request, as for a client without the extension.
 */
const MAX_TASKS_PER_OWNER = 16;
const MAX_TASKS = 256;

/** A task this gateway runs: how to tell it that its row changed. */
interface RunningTask {
  readonly owner: string;
  readonly run: Promise<TaskRun>;
  readonly ended: Promise<void>;
}

/**
 * The tasks of this gateway and its peers on the store: the store holds every task's state, so
 * any gateway answers for any task; the gateway that runs one hears of answers and
 * cancellations made elsewhere through the event bus (a digest of the task id, never the id,
 * which /events clients could otherwise read), or at the latest on its next recheck.
 */
export class Tasks {
  readonly store: TaskStore;
  readonly #events: EventBus;
  readonly #log: Logger;
  readonly #running = new Map<string, RunningTask>();
  readonly #unsubscribe: () => void;
  readonly #timers: NodeJS.Timeout[];
  #closing = false;

  constructor(store: TaskStore, events: EventBus, log: Logger) {
    this.store = store;
    this.#events = events;
    this.#log = log;
    this.#unsubscribe = events.subscribe(CHANGED_CHANNEL, (event) => this.#changed(this.#running.get((event.data as { task: string }).task)));
    this.#timers = [
      setInterval(() => {
        for (const task of this.#running.values()) this.#changed(task);
      }, RECHECK_EVERY_MS).unref(),
      setInterval(() => void this.store.purgeExpired().catch((err: unknown) => this.#log.warn({ err }, 'expired tasks not purged')), PURGE_EVERY_MS).unref(),
    ];
  }

  /** A new task id: 128 random bits (an id may be all a caller with `auth: none` has to keep its task its own). */
  newId(): string {
    return randomBytes(16).toString('base64url');
  }

  /** Whether `owner` may start one more task here now. */
  admits(owner: string): boolean {
    if (this.#closing || this.#running.size >= MAX_TASKS) return false;
    let owned = 0;
    for (const task of this.#running.values()) if (task.owner === owner) owned++;
    return owned < MAX_TASKS_PER_OWNER;
  }

  /** Records a task this gateway runs (`run` once stored) until `done`, the record of its end, settles. */
  track(taskId: string, owner: string, run: Promise<TaskRun>, done: Promise<unknown>): void {
    const digest = digestOf(taskId);
    const ended = done.then(
      () => {},
      () => {},
    );
    this.#running.set(digest, { owner, run, ended });
    void ended.then(() => this.#running.delete(digest));
  }

  /** Tells the gateway running `task` (this one or another) that its row changed. */
  changed(task: TaskRow): void {
    this.#events.publish('core', CHANGED_CHANNEL, { task: digestOf(task.taskId) });
  }

  /** After the calls have ended (at shutdown): waits for the records of their ends, so that the store closes after them. */
  async close(): Promise<void> {
    this.#closing = true;
    this.#unsubscribe();
    for (const timer of this.#timers) clearInterval(timer);
    await Promise.all([...this.#running.values()].map((task) => task.ended));
  }

  #changed(task: RunningTask | undefined): void {
    void task?.run.then((run) => run.changed(), () => {});
  }
}

function digestOf(taskId: string): string {
  return createHash('sha256').update(taskId).digest('base64url').slice(0, 22);
}
