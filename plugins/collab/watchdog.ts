// The watchdog: a sweep every watchdog.intervalSeconds that marks silent agents offline (and
// releases their locks), deletes expired locks and flags stuck tasks, alerting the task's
// creator. Every write is conditional, so several gateways on one store each find a thing
// once: the gateway whose update wins publishes the event and sends the alert.
import type { Collab } from './collab.js';
import { taskChannel, type TaskEvent } from './events.js';
import type { NewMessage } from './mailbox.js';
import { ANYONE, nowIso, SYSTEM_AGENT, type Message, type TaskStatus } from './model.js';
import { existingAgentNames, markAgentOffline, staleAgents } from './store/agent-store.js';
import { deleteLocksExpiredBefore, deleteLocksOf } from './store/lock-store.js';
import { flagTaskStuck, unflaggedTasksInProgress } from './store/task-store.js';

/** What a sweep found (and the watchdog counts since the gateway started). */
export interface WatchdogFindings {
  agents_offline: number;
  locks_released: number;
  locks_expired: number;
  tasks_stuck: number;
}

/** In-progress tasks looked at per sweep at most; the rest wait for the next one. */
const TASKS_PER_SWEEP = 500;
const AGENTS_PER_SWEEP = 500;

const none = (): WatchdogFindings => ({ agents_offline: 0, locks_released: 0, locks_expired: 0, tasks_stuck: 0 });
const minutes = (ms: number) => `${Math.max(1, Math.round(ms / 60_000))} min`;

export class Watchdog {
  readonly #collab: Collab;
  readonly #found = none();
  #sweeps = 0;
  #failures = 0;
  #lastSweepAt: string | undefined;
  #lastError: string | undefined;
  #running: Promise<void> | undefined;

  constructor(collab: Collab) {
    this.#collab = collab;
  }

  /** Starts sweeping (the timer never keeps the process alive), and reports in gateway_status. */
  start(): void {
    const { ctx } = this.#collab;
    const timer = setInterval(() => this.#tick(), ctx.config.watchdog.intervalSeconds * 1000);
    timer.unref();
    ctx.onClose(async () => {
      clearInterval(timer);
      await this.#running;
    });
    ctx.reportStatus(() => ({
      ok: this.#lastError === undefined,
      detail: {
        watchdog: {
          interval_seconds: ctx.config.watchdog.intervalSeconds,
          sweeps: this.#sweeps,
          failures: this.#failures,
          last_sweep_at: this.#lastSweepAt ?? null,
          last_error: this.#lastError ?? null,
          found: { ...this.#found },
        },
      },
      gauges: [
        ...Object.entries(this.#found).map(([kind, value]) => ({ name: 'watchdog_findings', help: 'What the watchdog found since the gateway started, by kind.', labels: { kind }, value })),
        { name: 'watchdog_sweeps', help: 'Watchdog sweeps since the gateway started.', value: this.#sweeps },
      ],
    }));
  }

  /** One sweep, unless the last one still runs; a failure is logged and the next tick tries again. */
  #tick(): void {
    if (this.#running !== undefined) return;
    this.#running = this.sweep()
      .then(
        () => {
          this.#lastError = undefined;
        },
        (err: unknown) => {
          this.#failures += 1;
          this.#lastError = err instanceof Error ? err.message : String(err);
          this.#collab.ctx.log.warn({ err }, 'collab: the watchdog sweep failed; it runs again at the next interval');
        },
      )
      .finally(() => {
        this.#running = undefined;
      });
  }

  /** Runs the three checks once; answers what this gateway found. */
  async sweep(now: number = Date.now()): Promise<WatchdogFindings> {
    const found = none();
    const { signal } = this.#collab.ctx;
    for (const step of [() => this.#staleAgents(now, found), () => this.#expiredLocks(now, found), () => this.#stuckTasks(now, found)]) {
      if (signal.aborted) break;
      await step();
    }
    this.#sweeps += 1;
    this.#lastSweepAt = nowIso(now);
    for (const key of Object.keys(found) as Array<keyof WatchdogFindings>) this.#found[key] += found[key];
    return found;
  }

  /** Agents not heard from for presence.staleSeconds go offline; their locks are released. */
  async #staleAgents(now: number, found: WatchdogFindings): Promise<void> {
    const { ctx, store } = this.#collab;
    const cutoff = nowIso(now - ctx.config.presence.staleSeconds * 1000);
    const stale = await staleAgents(store.db, cutoff, AGENTS_PER_SWEEP);
    for (const agent of stale) {
      const released = await store.transaction(async (trx) => {
        // Unchanged last_seen_at: an agent heard from since the read stays as it is.
        if (!(await markAgentOffline(trx, agent.name, agent.last_seen_at))) return undefined;
        return deleteLocksOf(trx, agent.name);
      });
      if (released === undefined) continue;
      found.agents_offline += 1;
      ctx.events.publish('collab.agent.offline', { name: agent.name, last_seen_at: agent.last_seen_at, locks_released: released.length });
      for (const lock of released) {
        found.locks_released += 1;
        ctx.events.publish('collab.lock.released', { path: lock.path, agent: agent.name, task_id: lock.task_id, reason: 'offline', by: SYSTEM_AGENT });
      }
    }
  }

  /** Locks past their expiry are deleted (the gateway that deletes a row announces it). */
  async #expiredLocks(now: number, found: WatchdogFindings): Promise<void> {
    const { ctx, store } = this.#collab;
    const expired = await deleteLocksExpiredBefore(store.db, nowIso(now));
    for (const lock of expired) {
      found.locks_expired += 1;
      ctx.events.publish('collab.lock.expired', { path: lock.path, agent: lock.agent, task_id: lock.task_id, expires_at: lock.expires_at });
    }
  }

  /**
   * In-progress tasks past their expected duration, or without progress for
   * watchdog.stuckAfterSeconds, are flagged once (until progress clears stuck_at): an event
   * for the assignee and an alert message to the creator and the assignee.
   */
  async #stuckTasks(now: number, found: WatchdogFindings): Promise<void> {
    const { ctx, store, mailbox } = this.#collab;
    const silentMs = ctx.config.watchdog.stuckAfterSeconds * 1000;
    const running = await unflaggedTasksInProgress(store.db, TASKS_PER_SWEEP);
    for (const task of running) {
      const started = Date.parse(task.started_at!);
      const lastProgress = task.last_progress_at === null ? started : Date.parse(task.last_progress_at);
      const overdue = task.expected_duration_s !== null && now - started > task.expected_duration_s * 1000;
      const silent = now - lastProgress > silentMs;
      if (!overdue && !silent) continue;
      const why = overdue
        ? `in progress for ${minutes(now - started)}, expected ${minutes(task.expected_duration_s! * 1000)}`
        : `no progress reported for ${minutes(now - lastProgress)}`;
      const recipients = [...new Set([task.created_by, task.assignee])].filter((agent) => agent !== ANYONE && agent !== SYSTEM_AGENT);
      const alerts = await store.transaction(async (trx) => {
        // The version guard: one gateway flags it, and not a task that moved since the read.
        if (!(await flagTaskStuck(trx, task.id, task.version, nowIso(now)))) return undefined;
        const known = recipients.length === 0 ? [] : await existingAgentNames(trx, recipients);
        const sent: Message[] = [];
        for (const name of known) sent.push(await mailbox.insert(trx, this.#alert(task, name, why)));
        return sent;
      });
      if (alerts === undefined) continue;
      found.tasks_stuck += 1;
      const event: TaskEvent = { id: task.id, title: task.title, status: task.status as TaskStatus, assignee: task.assignee, priority: task.priority, by: SYSTEM_AGENT };
      ctx.events.publish(taskChannel('stuck'), event);
      for (const alert of alerts) mailbox.announce(alert);
    }
  }

  #alert(task: { id: number; title: string; assignee: string }, to: string, why: string): NewMessage {
    const yours = to === task.assignee;
    return {
      from: SYSTEM_AGENT,
      to,
      kind: 'alert',
      task_id: task.id,
      subject: `Task #${task.id} looks stuck`,
      body: yours
        ? `Your task #${task.id} "${task.title}" looks stuck: ${why}. Report progress (collab_report_progress), mark it blocked with the reason, or hand it off (collab_handoff).`
        : `Task #${task.id} "${task.title}" (assignee ${task.assignee}) looks stuck: ${why}. Ask ${task.assignee} (collab_send_message), reassign it (collab_update_task) or replay it.`,
    };
  }
}
