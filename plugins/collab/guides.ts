// The guides served as resources: the protocol a driver and its workers follow
// (collab://guides/workflow), and one line per tool (collab://guides/quick-reference), made
// from the definitions the plugin registered so that it never lists a tool that is not there.

/** What the quick reference says of a tool: its name and the first sentence of its description. */
export interface ToolSummary {
  name: string;
  title?: string;
  description: string;
}

export const WORKFLOW_GUIDE = `# Working together through collab

Several agents (Claude Code, Codex, Cursor, scripts) share one codebase through this gateway.
One of them drives: it plans, splits the work into tasks and watches. The others work: they
claim tasks, edit files under locks, report progress and hand back. Every agent can do both.

## Everyone, at the start of a session

1. \`collab_join\` with your agent name (once per session; later calls leave \`agent\` out).
   REST callers, which have no session, pass \`agent\` in every call instead.
2. Read your instructions: the resource \`collab://agents/<name>/instructions\`.
3. Read what is waiting: \`collab_read_messages\`. A line starting \`[collab]\` on any tool
   result, a \`notifications/message\` or a \`collab.message\` channel message says there is news.

## The driver

1. **Plan.** \`collab_create_plan\` (id, title, goal, context): it becomes the active plan.
   Add items with \`collab_add_plan_item\`: owner, priority, acceptance criteria, constraints,
   and dependencies on items added before. Attach \`collab://plans/<id>\` to keep it in view.
2. **Split into tasks.** \`collab_create_task\` per unit of work: title, description,
   priority 1 (urgent) to 4, assignee (an agent, or \`any\`), relevant files, constraints,
   expected duration, and \`depends_on\` for tasks that must be completed first.
3. **Staff it.** Agents that are already here claim on their own. To start more, spawn
   workers of the configured kinds (\`collab_spawn_worker\`); watch them with
   \`collab_list_workers\` and \`collab_worker_output\`, stop them with \`collab_dismiss_worker\`.
4. **Watch.** \`collab_list_tasks\`, \`collab_list_agents\`, the plan resource. The watchdog
   sends you an \`alert\` message when one of your tasks is stuck (past its expected duration,
   or without progress for a while) and marks silent agents offline, releasing their locks.
   Unblock, reassign (\`collab_update_task\`), or bring a blocked or cancelled task back with
   \`collab_replay_task\`.
5. **Keep the plan true.** \`collab_update_plan_item\`: status, owner, blockers, notes.

## A worker

1. **Claim.** \`collab_claim_next\`: your own task in progress first, then unread messages,
   then the most urgent pending task you may take whose dependencies are done. It marks the
   task in progress and locks its files. \`idle\` means nothing is left: wait for a message.
2. **Lock before editing.** \`collab_lock_file\` for every other file you change; a file
   locked by someone else is theirs until they unlock it or their lock expires. Unlock
   (\`collab_unlock_file\`) as soon as you are done with it.
3. **Report.** \`collab_report_progress\` (percent, what you did, an ETA) every few minutes:
   silence is what the watchdog calls stuck. \`collab_heartbeat\` while thinking for long.
   Share what others need in the task's work context (\`collab_update_work_context\`).
4. **Finish.** \`collab_update_task\` with status \`completed\` (or \`blocked\` with the reason).
   Ask for a review with \`collab_request_review\` (files, what to look at).
5. **Hand off** what you cannot finish: \`collab_handoff\` to another agent with a summary
   and next steps; the task moves to them and they get it as a message.
6. **Talk.** \`collab_send_message\` to an agent or to \`all\`; reply with \`reply_to\` to keep a
   thread. Answer your messages before starting new work.

## Rules that keep it working

- One session acts as one agent. Never act as another agent.
- One task in progress at a time. A task assigned to another agent is theirs to start, cancel
  or pass on (or its creator's): message them instead.
- Never edit a file someone else has locked; never keep a lock you do not need.
- A STOP line in a result (your task was cancelled) means stop working on it at once.
- The rows are the truth: re-read a task or plan before acting on what a message said.
`;

/** Markdown with one line per tool, in the order they were registered. */
export function quickReference(tools: readonly ToolSummary[]): string {
  const lines = tools.map((tool) => `| \`${tool.name}\` | ${firstSentence(tool.description).replace(/\|/g, '\\|')} |`);
  return [
    '# collab quick reference',
    '',
    'Every collab tool, one line each. The acting agent: a session that called `collab_join` leaves `agent` out; a caller without a session (2026-07-28, REST) passes the `agent_handle` collab_join returned as `agent`.',
    '',
    '| tool | what it does |',
    '|---|---|',
    ...lines,
    '',
    '## Resources',
    '',
    '- `collab://plans/{id}`: a plan as Markdown (goal, progress, items by status).',
    '- `collab://agents/{name}/instructions`: who an agent is, how to work here, its tasks, its unread messages, the active plan.',
    '- `collab://guides/workflow`: the protocol for a driver and its workers.',
    '- `collab://guides/quick-reference`: this page.',
    '',
    '## Prompts',
    '',
    '- `collab_pair` (partner): read your messages and answer your partner.',
    '- `collab_code_review` (files, focus, reviewer): review files, or ask another agent to.',
    '- `collab_plan_feature` (feature, constraints): turn a feature into a plan, items and tasks with dependencies.',
    '',
  ].join('\n');
}

function firstSentence(text: string): string {
  const end = text.search(/\.(\s|$)/);
  return end === -1 ? text : text.slice(0, end + 1);
}
