// A new task: checked (assignee, files, dependencies, plan link) and stored with its
// dependencies in one transaction (the caller's, when a message goes with it).
import type { Collab } from '../collab.js';
import { FileLocks } from '../locks/file-locks.js';
import { ANYONE, nowIso, type Task, type TaskKind } from '../model.js';
import { agentExists } from '../store/agent-store.js';
import type { CollabDb } from '../store/db.js';
import { planExists, planHasItem } from '../store/plan-store.js';
import { insertDependencies } from '../store/task-dependency-store.js';
import { insertTaskRow } from '../store/task-store.js';
import { checkDependenciesExist } from './dependencies.js';
import { toTask } from './task-rows.js';

export interface NewTask {
  title: string;
  description?: string;
  kind?: TaskKind;
  priority: number;
  assignee: string;
  relevant_files?: readonly string[];
  constraints?: readonly string[];
  background?: string;
  expected_duration_seconds?: number;
  depends_on?: readonly number[];
  plan_id?: string;
  plan_item_id?: string;
}

/** Refuses an assignee that is neither `any` nor a registered agent (COLLAB_AGENT_NOT_FOUND). */
export async function checkAssignee({ ctx }: Collab, db: CollabDb, assignee: string): Promise<void> {
  if (assignee === ANYONE) return;
  if (!(await agentExists(db, assignee))) throw ctx.error('COLLAB_AGENT_NOT_FOUND', `No agent is named "${assignee}": assign to a registered agent (collab_list_agents) or to "any".`, { agent: assignee });
}

/** Refuses a link to a plan or plan item that does not exist. */
async function checkPlanLink({ ctx }: Collab, db: CollabDb, planId: string | undefined, itemId: string | undefined): Promise<void> {
  if (planId === undefined && itemId === undefined) return;
  if (planId === undefined) {
    throw ctx.error('COLLAB_PLAN_NOT_FOUND', 'plan_item_id names an item of which plan? Give plan_id with it (collab_list_plans lists them).', { plan_id: null });
  }
  if (!(await planExists(db, planId))) {
    throw ctx.error('COLLAB_PLAN_NOT_FOUND', `No plan has id "${planId}": list plans with collab_list_plans.`, { plan_id: planId });
  }
  if (itemId !== undefined && !(await planHasItem(db, planId, itemId))) {
    throw ctx.error('COLLAB_PLAN_ITEM_NOT_FOUND', `Plan "${planId}" has no item "${itemId}": read it with collab_get_plan.`, { plan_id: planId, item_id: itemId });
  }
}

/** Stores a task created by `by` in its own transaction; the caller publishes its event. */
export function createTask(collab: Collab, task: NewTask, by: string): Promise<Task> {
  const files = relevantFiles(collab, task.relevant_files);
  return collab.store.transaction((trx) => insertTask(collab, trx, { ...task, relevant_files: files }, by));
}

/** Workspace paths as tasks keep them: through the sandbox, relative to its root, each once. */
export function relevantFiles({ ctx }: Collab, paths: readonly string[] | undefined): string[] {
  const locks = new FileLocks(ctx);
  return [...new Set((paths ?? []).map((path) => locks.relativePath(path)))];
}

/** Stores a task inside the caller's transaction; `relevant_files` already through relevantFiles. */
export async function insertTask(collab: Collab, trx: CollabDb, task: NewTask, by: string): Promise<Task> {
  const dependsOn = [...new Set(task.depends_on ?? [])].sort((a, b) => a - b);
  await checkAssignee(collab, trx, task.assignee);
  await checkPlanLink(collab, trx, task.plan_id, task.plan_item_id);
  await checkDependenciesExist(trx, collab.ctx.error, dependsOn);
  const now = nowIso();
  const row = await insertTaskRow(trx, {
    title: task.title,
    description: task.description ?? null,
    kind: task.kind ?? 'task',
    priority: task.priority,
    status: 'pending',
    assignee: task.assignee,
    created_by: by,
    relevant_files: JSON.stringify(task.relevant_files ?? []),
    constraints: JSON.stringify(task.constraints ?? []),
    background: task.background ?? null,
    expected_duration_s: task.expected_duration_seconds ?? null,
    progress_percent: null,
    progress_note: null,
    eta_at: null,
    blocked_reason: null,
    plan_id: task.plan_id ?? null,
    plan_item_id: task.plan_item_id ?? null,
    created_at: now,
    updated_at: now,
    started_at: null,
    finished_at: null,
    last_progress_at: null,
    stuck_at: null,
    version: 1,
  });
  if (dependsOn.length > 0) await insertDependencies(trx, row.id, dependsOn);
  return toTask(row, dependsOn);
}
