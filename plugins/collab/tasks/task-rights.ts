// Who may move a task, and the one-task-in-progress rule: the checks every path that starts,
// cancels, blocks, reassigns, hands off or replays a task runs, so that no tool is a way around
// another (collab_claim_next keeps the same rule with its own conditional claim).
import type { Collab } from '../collab.js';
import { ANYONE } from '../model.js';
import { lockAgentRow } from '../store/agent-store.js';
import type { CollabDb } from '../store/db.js';
import { otherTaskInProgressOf } from '../store/task-store.js';

interface TaskParty {
  id: number;
  status: string;
  assignee: string;
  created_by: string;
}

/**
 * Throws COLLAB_NOT_PERMITTED unless `by` may change the task's status or assignee into
 * `next`. A task assigned to an agent — pending, in progress or blocked — is that agent's: only
 * it or the task's creator (a driver) moves it, so no third agent starts, cancels or takes
 * another's work, a pinned agent's included. A pending task for `any` is open: anyone may take
 * it for themselves (assign it to themselves, start it), as collab_claim_next does; cancelling,
 * blocking it or giving it to someone else is its creator's.
 */
export function checkTaskRights({ ctx }: Pick<Collab, 'ctx'>, row: TaskParty, by: string, next: { status: string; assignee: string }): void {
  if (by === row.created_by || by === row.assignee) return;
  const takesForItself = row.assignee === ANYONE && row.status === 'pending' && next.assignee === by && (next.status === 'pending' || next.status === 'in_progress');
  if (takesForItself) return;
  if (row.status === 'in_progress') {
    throw ctx.error('COLLAB_NOT_PERMITTED', `Task ${row.id} is in progress with ${row.assignee}: only ${row.assignee} or its creator ${row.created_by} may change its status or assignee, or hand it off. Send ${row.assignee} a message instead.`, {
      id: row.id,
      holder: row.assignee,
      created_by: row.created_by,
    });
  }
  const whose = row.assignee === ANYONE ? `open to anyone: take it for yourself (collab_claim_next), or ask its creator ${row.created_by}` : `assigned to ${row.assignee}: only ${row.assignee} or its creator ${row.created_by} may start, cancel, block, reassign, replay or hand it off. Send ${row.assignee} a message instead`;
  throw ctx.error('COLLAB_NOT_PERMITTED', `Task ${row.id} is ${row.status} and ${whose}.`, { id: row.id, status: row.status, assignee: row.assignee, created_by: row.created_by });
}

/**
 * Throws COLLAB_AGENT_BUSY when `agent` holds another task in progress than `taskId`: a task
 * goes in progress only for an agent with none, whoever starts or hands it over. Takes the
 * agent's row lock first, as a claim does, so two calls putting two tasks in one agent's hands
 * at once take turns and the second is refused.
 */
export async function checkFreeToHold({ ctx }: Collab, trx: CollabDb, agent: string, taskId: number): Promise<void> {
  if (agent === ANYONE) return;
  await lockAgentRow(trx, agent);
  const other = await otherTaskInProgressOf(trx, agent, taskId);
  if (other === undefined) return;
  throw ctx.error('COLLAB_AGENT_BUSY', `${agent} has task #${other.id} "${other.title}" in progress; an agent holds one task in progress at a time. Finish, block or hand off #${other.id} first, or give task ${taskId} to someone else.`, {
    agent,
    task_id: other.id,
  });
}
