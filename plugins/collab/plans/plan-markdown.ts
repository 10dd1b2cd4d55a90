// A plan as Markdown, for the resource collab://plans/<id>: what a client attaches to a
// conversation so that the model sees the goal, where things stand and who does what.
import type { Plan, PlanItem, PlanItemStatus } from '../model.js';

/** A task linked to a plan item (collab_tasks.plan_item_id). */
export interface LinkedTask {
  id: number;
  title: string;
  status: string;
  assignee: string;
  plan_item_id: string | null;
}

/** The order a reader wants: what moves, what is stuck, what is next, what is done. */
const SECTIONS: ReadonlyArray<[PlanItemStatus, string]> = [
  ['in_progress', 'In progress'],
  ['blocked', 'Blocked'],
  ['pending', 'Pending'],
  ['completed', 'Completed'],
  ['cancelled', 'Cancelled'],
];

export const planUri = (id: string) => `collab://plans/${id}`;

export function planMarkdown(plan: Plan, tasks: readonly LinkedTask[] = []): string {
  const { progress } = plan;
  const out: string[] = [`# ${plan.title}`, '', `Plan \`${plan.id}\`${plan.active ? ' (active)' : ''}, by ${plan.created_by}, updated ${plan.updated_at}.`, '', `**Goal:** ${plan.goal}`];
  if (plan.context) out.push('', '## Context', '', plan.context);
  out.push(
    '',
    '## Progress',
    '',
    `${progress.completed}/${progress.total} completed · ${progress.in_progress} in progress · ${progress.blocked} blocked · ${progress.pending} pending · ${progress.cancelled} cancelled`,
  );
  if (plan.items.length === 0) out.push('', 'No items yet: add them with collab_add_plan_item.');
  if (plan.next_offset !== null) {
    out.push('', `Showing the first ${plan.items.length} of ${progress.total} items; collab_get_plan with offset ${plan.next_offset} reads the rest.`);
  }
  for (const [status, heading] of SECTIONS) {
    const items = plan.items.filter((item) => item.status === status);
    if (items.length === 0) continue;
    out.push('', `## ${heading} (${items.length})`);
    for (const item of items) out.push('', ...itemMarkdown(item, tasks.filter((t) => t.plan_item_id === item.id)));
  }
  // A task names an item that exists (create-task.ts checks); one of an item past this page is not loose.
  const loose = tasks.filter((t) => t.plan_item_id === null || (plan.next_offset === null && !plan.items.some((item) => item.id === t.plan_item_id)));
  if (loose.length > 0) out.push('', '## Other tasks of this plan', '', ...loose.map(taskLine));
  return `${out.join('\n')}\n`;
}

function itemMarkdown(item: PlanItem, tasks: readonly LinkedTask[]): string[] {
  const out = [`### ${item.title} (\`${item.id}\`)`, '', `Owner: ${item.owner ?? 'none'} · priority ${item.priority}`];
  if (item.description) out.push('', item.description);
  if (item.dependencies.length > 0) out.push('', `Depends on: ${item.dependencies.map((d) => `\`${d}\``).join(', ')}`);
  if (item.reasoning) out.push('', `Reasoning: ${item.reasoning}`);
  list(out, 'Acceptance', item.acceptance);
  list(out, 'Constraints', item.constraints);
  list(out, 'Blockers', item.blockers);
  list(
    out,
    'Notes',
    item.notes.map((note) => `${note.at} ${note.author}: ${note.text}`),
  );
  if (tasks.length > 0) out.push('', 'Tasks:', '', ...tasks.map(taskLine));
  return out;
}

function list(out: string[], label: string, lines: readonly string[]): void {
  if (lines.length === 0) return;
  // Continuation lines indented, so that a note of several lines stays one list entry.
  out.push('', `${label}:`, '', ...lines.map((line) => `- ${line.replace(/\n/g, '\n  ')}`));
}

const taskLine = (task: LinkedTask) => `- #${task.id} ${task.title} (${task.status}, ${task.assignee})`;
