// Working on a task: progress reports, and its work context (files, background, constraints,
// shared notes) that whoever works on it reads and adds to.
import type { ToolDefinition } from '@mcp-gateway/core';
import type { Collab } from '../collab.js';
import { parseJson } from '../context.js';
import { checkCap, MAX_TASK_CONSTRAINTS, MAX_TASK_FILES } from '../limits.js';
import { FileLocks } from '../locks/file-locks.js';
import { nowIso, type TaskStatus } from '../model.js';
import { recordAgentProgress } from '../store/agent-store.js';
import type { CollabDb } from '../store/db.js';
import { putTaskNote, taskNoteKeys, taskNotes } from '../store/task-note-store.js';
import { updateTaskRow } from '../store/task-store.js';
import { publishTask } from '../tasks/bookkeeping.js';
import { loadTask, taskRow } from '../tasks/task-rows.js';
import { reportProgressInput, taskResultOutput, updateWorkContextInput, workContextInput, workContextOutput } from './task-schemas.js';

export const collabReportProgress = {
  name: 'collab_report_progress',
  title: 'Report progress on a task',
  description: 'Reports progress on your task in progress. Call it every few minutes, or the watchdog flags the task stuck.',
  inputSchema: { ...reportProgressInput, examples: [{ task_id: 9007199254740991, description: 'Tests written, fixing the last two', percent: 70, eta_seconds: 600 }] },
  outputSchema: taskResultOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabGetWorkContext = {
  name: 'collab_get_work_context',
  title: "Get a task's work context",
  description: 'What working on a task needs: its files, background, constraints and shared notes. Read it before you start.',
  inputSchema: { ...workContextInput, examples: [{ task_id: 1 }] },
  outputSchema: workContextOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabUpdateWorkContext = {
  name: 'collab_update_work_context',
  title: "Add to a task's work context",
  description: "Adds to a task's work context what others working on it need: a shared note, files, constraints or a new background.",
  inputSchema: { ...updateWorkContextInput, examples: [{ task_id: 9007199254740991, key: 'decision', value: 'Locks are keyed by workspace-relative path.' }] },
  outputSchema: workContextOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export function registerTaskWorkTools(collab: Collab): void {
  const { ctx, store, identity } = collab;

  ctx.tool(collabReportProgress, async (args, call) => {
    const by = await identity.acting(call, args.agent);
    const now = Date.now();
    const task = await store.transaction(async (trx) => {
      const row = await taskRow(trx, ctx.error, args.task_id, true);
      if (row.status !== 'in_progress' || row.assignee !== by) {
        throw ctx.error('COLLAB_TASK_NOT_IN_PROGRESS', `Task ${row.id} is ${row.status}${row.status === 'in_progress' ? ` in ${row.assignee}'s hands` : ''}: report progress only on your task in progress.`, {
          id: row.id,
          status: row.status,
          assignee: row.assignee,
        });
      }
      await updateTaskRow(trx, row.id, {
        progress_note: args.description,
        ...(args.percent !== undefined ? { progress_percent: args.percent } : {}),
        ...(args.eta_seconds !== undefined ? { eta_at: nowIso(now + args.eta_seconds * 1000) } : {}),
        last_progress_at: nowIso(now),
        stuck_at: null,
        updated_at: nowIso(now),
        version: row.version + 1,
      });
      await recordAgentProgress(trx, by, args.description, nowIso(now));
      return loadTask(trx, ctx.error, row.id);
    });
    publishTask(ctx, 'updated', task, by);
    return { task };
  });

  ctx.tool(collabGetWorkContext, async (args) => workContext(collab, store.db, args.task_id));

  ctx.tool(collabUpdateWorkContext, async (args, call) => {
    const by = await identity.acting(call, args.agent);
    const locks = new FileLocks(ctx);
    const added = (args.add_files ?? []).map((path) => locks.relativePath(path));
    const context = await store.transaction(async (trx) => {
      const row = await taskRow(trx, ctx.error, args.task_id, true);
      const now = nowIso();
      const files = merged(row.relevant_files, added);
      const constraints = merged(row.constraints, args.add_constraints);
      const tooMany = (field: string, length: number, limit: number, unit: string) =>
        checkCap(ctx.error, 'COLLAB_TASK_TOO_LARGE', `Task ${row.id} with these ${unit}`, length, { field, limit, unit, advice: `A task keeps at most ${limit}: split the work into another task.` });
      // Only a list that grows is refused: one stored before the caps were there stays readable and editable.
      if (added.length > 0) tooMany('relevant_files', files.length, MAX_TASK_FILES, 'files');
      if (args.add_constraints !== undefined) tooMany('constraints', constraints.length, MAX_TASK_CONSTRAINTS, 'constraints');
      if (args.key !== undefined) await checkNoteRoom(collab, trx, row.id, args.key);
      await updateTaskRow(trx, row.id, {
        relevant_files: JSON.stringify(files),
        constraints: JSON.stringify(constraints),
        background: args.background ?? row.background,
        updated_at: now,
        version: row.version + 1,
      });
      if (args.key !== undefined && args.value !== undefined) {
        await putTaskNote(trx, { task_id: row.id, key: args.key, value: args.value, author: by, updated_at: now });
      }
      return workContext(collab, trx, row.id);
    });
    publishTask(ctx, 'updated', await loadTask(store.db, ctx.error, args.task_id), by);
    return context;
  });
}

/** The list kept in `column` with `more` added, each entry once. */
function merged(column: string, more: readonly string[] | undefined): string[] {
  return [...new Set([...parseJson<string[]>(column, []), ...(more ?? [])])];
}

/** Refuses a new note key past tasks.maxNotesPerTask (COLLAB_TASK_TOO_LARGE); an existing key is replaced, whatever the count. */
async function checkNoteRoom({ ctx }: Collab, db: CollabDb, taskId: number, key: string): Promise<void> {
  const keys = await taskNoteKeys(db, taskId);
  if (keys.includes(key)) return;
  const limit = ctx.config.tasks.maxNotesPerTask;
  checkCap(ctx.error, 'COLLAB_TASK_TOO_LARGE', `Task ${taskId} with the note "${key}"`, keys.length + 1, {
    field: 'notes',
    limit,
    unit: 'notes',
    setting: 'plugins.collab.config.tasks.maxNotesPerTask',
    advice: 'Replace an existing note (the same key) instead.',
  });
}

async function workContext({ ctx }: Collab, db: CollabDb, id: number) {
  const row = await taskRow(db, ctx.error, id);
  const notes = await taskNotes(db, id);
  return {
    task_id: row.id,
    title: row.title,
    status: row.status as TaskStatus,
    relevant_files: parseJson<string[]>(row.relevant_files, []),
    background: row.background,
    constraints: parseJson<string[]>(row.constraints, []),
    notes,
  };
}
