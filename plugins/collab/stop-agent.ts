// Stopping an agent: its tasks in progress are cancelled (each assignee hears STOP through
// delivery.ts), it is set idle, and the gateway tells it why in a `stop` message. One
// transaction, so that nothing is half stopped.
import type { Collab } from './collab.js';
import { taskChannel, type TaskEvent } from './events.js';
import { nowIso, SYSTEM_AGENT, type Message } from './model.js';
import { updateAgentRow } from './store/agent-store.js';
import { deleteLocksOfTasks } from './store/lock-store.js';
import { cancelTasksInProgressOf } from './store/task-store.js';

export interface StoppedAgent {
  cancelled: Array<{ id: number; title: string }>;
  message: Message;
}

/** Stops `target` on behalf of `by`; the caller has checked that both exist. */
export async function stopAgent({ ctx, store, mailbox }: Collab, target: string, by: string, reason: string | undefined): Promise<StoppedAgent> {
  const { cancelled, message, released } = await store.transaction(async (trx) => {
    const now = nowIso();
    // One statement: a task that another call finishes meanwhile is either cancelled here or not at all.
    const cancelled = await cancelTasksInProgressOf(trx, target, now);
    cancelled.sort((a, b) => a.id - b.id);
    await updateAgentRow(trx, target, { presence: 'idle', presence_note: null, current_task_id: null });
    // The locks taken for the cancelled tasks go with them.
    const released: Array<{ path: string; task_id: number | null }> =
      cancelled.length === 0
        ? []
        : await deleteLocksOfTasks(trx, target, cancelled.map((task) => task.id));
    const tasks = cancelled.length === 0 ? 'You had no task in progress.' : `Cancelled: ${cancelled.map((task) => `#${task.id} ${task.title}`).join('; ')}.`;
    const message = await mailbox.insert(trx, {
      from: SYSTEM_AGENT,
      to: target,
      kind: 'stop',
      subject: 'STOP',
      body: `STOP: ${by} stopped your work${reason ? `: ${reason.replace(/[.\s]+$/, '')}` : ''}. ${tasks} Stop what you are doing and wait for new instructions.`,
    });
    return { cancelled, message, released };
  });
  mailbox.announce(message);
  for (const lock of released) ctx.events.publish('collab.lock.released', { path: lock.path, agent: target, task_id: lock.task_id });
  for (const task of cancelled) {
    const event: TaskEvent = { id: task.id, title: task.title, status: 'cancelled', assignee: target, priority: task.priority, by, previous_status: 'in_progress' };
    ctx.events.publish(taskChannel('updated'), event);
  }
  ctx.events.publish('collab.agent.stopped', { name: target, by, tasks: cancelled.map((task) => task.id), message_id: message.id });
  return { cancelled: cancelled.map(({ id, title }) => ({ id, title })), message };
}
