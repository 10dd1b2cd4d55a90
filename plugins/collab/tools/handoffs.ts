// Handoffs (a task moves to another agent with a summary and next steps) and review requests
// (a review task for the reviewer). Each stores its task change and its message in one
// transaction, and announces both once committed: no task moves without its message.
import type { ToolDefinition } from '@mcp-gateway/core';
import type { Collab } from '../collab.js';
import { FileLocks } from '../locks/file-locks.js';
import { nowIso, TASK_TRANSITIONS, type TaskStatus } from '../model.js';
import { putTaskNote } from '../store/task-note-store.js';
import { taskIdInProgressOf, writeTaskRow } from '../store/task-store.js';
import { publishTask, syncCurrentTask } from '../tasks/bookkeeping.js';
import { checkAssignee, insertTask, relevantFiles } from '../tasks/create-task.js';
import { taskRow, toTasks } from '../tasks/task-rows.js';
import { checkTaskRights } from '../tasks/task-rights.js';
import { handoffInput, handoffOutput, requestReviewInput, requestReviewOutput } from './handoff-schemas.js';

export const collabHandoff = {
  name: 'collab_handoff',
  title: 'Hand a task off',
  description: 'Hands a task you cannot finish to another agent, with a summary and next steps: it becomes pending for them and they get a message.',
  inputSchema: { ...handoffInput, examples: [{ to: 'system', summary: 'Parser done, tests green.', next_steps: 'Wire the parser into the CLI.', task_id: 9007199254740991 }] },
  outputSchema: handoffOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabRequestReview = {
  name: 'collab_request_review',
  title: 'Request a review',
  description: 'Asks an agent to review: creates a review task for them with the files to look at, and sends them a message.',
  inputSchema: { ...requestReviewInput, examples: [{ to: 'system', description: 'The lock expiry change: check the purge runs before every lock.', files: ['README.md'] }] },
  outputSchema: requestReviewOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
} as const satisfies ToolDefinition;

/** Statuses a task may be handed off from: it goes back to pending. */
const HANDABLE: readonly string[] = ['pending', 'in_progress'];
const TITLE_CHARS = 200;

export function registerHandoffTools(collab: Collab): void {
  const { ctx, store, identity, mailbox } = collab;
  const locks = new FileLocks(ctx);

  ctx.tool(collabHandoff, async (args, call) => {
    const from = await identity.acting(call, args.agent);
    identity.checkName(args.to);
    const result = await store.transaction(async (trx) => {
      const id = args.task_id ?? (await taskIdInProgressOf(trx, from));
      if (id === undefined) throw ctx.error('COLLAB_TASK_NOT_FOUND', `${from} has no task in progress: pass task_id.`, { agent: from });
      const row = await taskRow(trx, ctx.error, id, true);
      if (!HANDABLE.includes(row.status)) {
        throw ctx.error('COLLAB_TRANSITION_INVALID', `Task ${id} is ${row.status}; only a pending or in-progress task is handed off (a blocked or cancelled one: collab_replay_task with reassign_to).`, {
          from: row.status,
          to: 'pending',
          allowed: TASK_TRANSITIONS[row.status as TaskStatus],
        });
      }
      checkTaskRights(collab, row, from, { status: 'pending', assignee: args.to });
      await checkAssignee(collab, trx, args.to);
      const now = nowIso();
      const updated = await writeTaskRow(trx, id, { status: 'pending', assignee: args.to, last_progress_at: null, stuck_at: null, updated_at: now, version: row.version + 1 });
      const before = { id, status: row.status, assignee: row.assignee };
      await syncCurrentTask(trx, before, updated);
      // The holder's locks go with the task, whoever hands it off.
      const released = await locks.releaseForTask(trx, row.assignee, id);
      const note = `${args.summary}\n\nNext steps: ${args.next_steps}`;
      await putTaskNote(trx, { task_id: id, key: 'handoff', value: note, author: from, updated_at: now });
      const message = await mailbox.insert(trx, {
        from,
        to: args.to,
        kind: 'handoff',
        subject: `Handoff: task #${id} ${row.title}`.slice(0, ctx.config.messages.maxSubjectChars),
        body: `${from} hands task #${id} "${row.title}" over to you.\n\nSummary:\n${args.summary}\n\nNext steps:\n${args.next_steps}\n\nClaim it with collab_claim_next; its context is in collab_get_work_context.`,
        task_id: id,
      });
      return { task: (await toTasks(trx, [updated]))[0]!, before, released, message };
    });
    mailbox.announce(result.message);
    locks.announceReleased(result.before.assignee, result.released, result.task.id);
    publishTask(ctx, 'handed_off', result.task, from, result.before);
    return { task: result.task, message_id: result.message.id, released_locks: result.released };
  });

  ctx.tool(collabRequestReview, async (args, call) => {
    const from = await identity.acting(call, args.agent);
    identity.checkName(args.to);
    const files = relevantFiles(collab, args.files);
    const firstLine = args.description.split('\n', 1)[0]!;
    const title = `Review: ${firstLine}`.slice(0, TITLE_CHARS);
    const { task, message } = await store.transaction(async (trx) => {
      const task = await insertTask(collab, trx, { title, description: args.description, kind: 'review', priority: 2, assignee: args.to, relevant_files: files }, from);
      const fileList = files.length > 0 ? `\n\nFiles:\n${files.map((f) => `- ${f}`).join('\n')}` : '';
      const message = await mailbox.insert(trx, {
        from,
        to: args.to,
        kind: 'review',
        subject: title.slice(0, ctx.config.messages.maxSubjectChars),
        body: `${from} asks you to review (task #${task.id}).\n\n${args.description}${fileList}`,
        task_id: task.id,
      });
      return { task, message };
    });
    mailbox.announce(message);
    publishTask(ctx, 'review_requested', task, from);
    return { task, message_id: message.id };
  });
}
