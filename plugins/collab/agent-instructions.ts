// The resource collab://agents/<name>/instructions: what one agent needs to start working
// here — who it is, the protocol, its tasks now, its unread messages, the active plan.
import { toAgent } from './agents.js';
import type { Collab } from './collab.js';
import { ANYONE, type Agent } from './model.js';
import { planUri } from './plans/plan-markdown.js';
import type { PlanSummary } from './plans/plan-rows.js';
import { findAgentRow } from './store/agent-store.js';
import { countPendingTasks, openTasksOf } from './store/task-store.js';

/** Tasks listed at most; the rest are counted. */
const TASKS_SHOWN = 20;
/** The agent's open items of the active plan listed at most. */
const ITEMS_SHOWN = 20;

export async function agentInstructions({ ctx, store, mailbox, plans }: Collab, name: string): Promise<string> {
  const row = await findAgentRow(store.db, name);
  if (row === undefined) {
    throw ctx.error('COLLAB_AGENT_NOT_FOUND', `No agent is named "${name}": register it first (collab_join or collab_register_agent), or list them with collab_list_agents.`, { agent: name });
  }
  const agent = toAgent(row, ctx.config.presence.staleSeconds * 1000);
  const tasks = await openTasksOf(store.db, name, TASKS_SHOWN + 1);
  const anyone = await countPendingTasks(store.db, ANYONE);
  const unread = await mailbox.unreadCount(name);
  const active = await plans.active();
  const mine = active === undefined ? [] : await plans.openItemsOf(active.id, name, ITEMS_SHOWN + 1);

  const out = [...whoYouAre(agent), '', ...HOW_TO_WORK(name), '', '## Your tasks', ''];
  if (tasks.length === 0) out.push('None assigned to you by name.');
  for (const task of tasks.slice(0, TASKS_SHOWN)) {
    const progress = task.progress_percent === null ? '' : `, ${task.progress_percent}%`;
    out.push(`- #${task.id} ${task.title} (${task.status}, priority ${task.priority}${progress})`);
  }
  if (tasks.length > TASKS_SHOWN) out.push(`- … more: collab_list_tasks with assignee ${name}.`);
  if (anyone > 0) out.push('', `${anyone} pending task${anyone === 1 ? '' : 's'} open to anyone: collab_claim_next takes the most urgent you may.`);
  out.push('', '## Messages', '', unread === 0 ? 'No unread messages.' : `${unread} unread message${unread === 1 ? '' : 's'}: read them first with collab_read_messages.`);
  out.push('', '## Active plan', '', ...(active === undefined ? ['No plan is active.'] : activePlan(active, mine)));
  return `${out.join('\n')}\n`;
}

function whoYouAre(agent: Agent): string[] {
  const out = [`# Instructions for ${agent.name}`, '', `You are **${agent.name}**${agent.display_name ? ` (${agent.display_name})` : ''}, an ${agent.kind === 'worker' ? 'agent started by the gateway for its tasks' : 'agent'} working with others on one codebase through this gateway.`];
  const facts = [`presence: ${agent.presence}`];
  if (agent.capabilities.length > 0) facts.push(`capabilities: ${agent.capabilities.join(', ')}`);
  if (agent.project) facts.push(`project: ${agent.project}`);
  out.push('', `${facts.join(' · ')}.`);
  return out;
}

const HOW_TO_WORK = (name: string) => [
  '## How to work here',
  '',
  `1. Join once per session: \`collab_join\` with name \`${name}\` (a 2026-07-28 client or a REST caller, which have no session, pass the \`agent_handle\` it returns as \`agent\` in every call instead).`,
  '2. Read your messages (`collab_read_messages`) and answer what needs an answer.',
  '3. Take work with `collab_claim_next`: your task in progress first, else the most urgent one you may take. It locks the task\'s files.',
  '4. Lock every other file before editing it (`collab_lock_file`); unlock when done (`collab_unlock_file`).',
  '5. Report progress every few minutes (`collab_report_progress`: percent, what you did, ETA); silence is flagged as stuck.',
  '6. Complete with `collab_update_task` (status `completed`), or mark it `blocked` with the reason.',
  '7. Hand off what you cannot finish (`collab_handoff`, with a summary and next steps); ask for reviews with `collab_request_review`.',
  '',
  'The whole protocol: `collab://guides/workflow`; every tool in one line: `collab://guides/quick-reference`.',
];

function activePlan(plan: PlanSummary, mine: ReadonlyArray<{ id: string; title: string; status: string }>): string[] {
  const { progress } = plan;
  const out = [`**${plan.title}** (\`${plan.id}\`): ${plan.goal}`, '', `${progress.completed}/${progress.total} items completed, ${progress.in_progress} in progress, ${progress.blocked} blocked.`];
  if (mine.length > 0) out.push('', 'Your items:', '', ...mine.slice(0, ITEMS_SHOWN).map((item) => `- \`${item.id}\` ${item.title} (${item.status})`));
  if (mine.length > ITEMS_SHOWN) out.push('- … more: collab_get_plan pages through all of them.');
  out.push('', `The whole plan: \`${planUri(plan.id)}\`.`);
  return out;
}
