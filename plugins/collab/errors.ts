import type { ErrorSpec } from '@mcp-gateway/core';

const spec = (status: number, description: string): ErrorSpec => ({ status, mcp: 'result', description });

/** The plugin's error codes; README.md lists them with their HTTP status. */
export const collabErrors = {
  COLLAB_AGENT_NOT_FOUND: spec(404, 'No agent has this name: register it first (collab_join or collab_register_agent), or list them with collab_list_agents.'),
  COLLAB_AGENT_NAME_RESERVED: spec(400, 'all, any and system address groups or the gateway: choose another agent name.'),
  COLLAB_AGENT_REQUIRED: spec(400, 'The call does not say which agent acts: call collab_join once in this session, or pass agent (the agent_handle collab_join returned, or a name over REST) in every call.'),
  COLLAB_NOT_PERMITTED: spec(403, 'The caller may not act as this agent: the session is bound to another agent, or an API key is pinned to another agent (plugins.collab.config.keyAgents), or the agent belongs to another key.'),
  COLLAB_HANDLE_INVALID: spec(403, 'The agent handle passed as agent was not made by this gateway for this caller, was changed, or expired (details.reason: signature or expired): call collab_join and pass the handle it returns.'),
  COLLAB_ALREADY_JOINED: spec(409, 'This session already acts as another agent; a session binds once. Open a new session to act as someone else.'),
  COLLAB_MESSAGE_TOO_LARGE: spec(413, 'The subject or body is longer than plugins.collab.config.messages allows (details.limit): shorten it, or put the text in a file and send its path.'),
  COLLAB_MESSAGE_NOT_FOUND: spec(404, 'No message has this id (or it was pruned by retention): read the thread with collab_read_messages.'),
  COLLAB_TASK_NOT_FOUND: spec(404, 'No task has this id: list them with collab_list_tasks.'),
  COLLAB_DEPENDENCY_INVALID: spec(400, 'A dependency is the task itself, a task that does not exist, or would close a cycle (details.cycle): fix depends_on.'),
  COLLAB_DEPENDENCY_OPEN: spec(409, 'The task waits for dependencies that are not completed (details.open): finish them first, or claim another task with collab_claim_next.'),
  COLLAB_TRANSITION_INVALID: spec(409, 'The task cannot move from its status to the one asked (details.from, details.to, details.allowed). Blocked and cancelled tasks come back with collab_replay_task.'),
  COLLAB_TASK_TOO_LARGE: spec(413, 'The task would pass a cap on a list it keeps (details.field: relevant_files, constraints, depends_on or notes; details.limit, details.length): remove entries first, or split the work into another task.'),
  COLLAB_AGENT_BUSY: spec(409, 'The agent has another task in progress (details.agent, details.task_id), and an agent holds one at a time: finish, block or hand that one off first, or give this task to someone else.'),
  COLLAB_TASK_NOT_IN_PROGRESS: spec(409, 'Progress is reported on a task in progress, by its assignee (details.status, details.assignee): claim it with collab_claim_next, or set it in_progress with collab_update_task.'),
  COLLAB_PLAN_NOT_FOUND: spec(404, 'No plan has this id, or there is no active plan: create one with collab_create_plan, or list them with collab_list_plans.'),
  COLLAB_PLAN_EXISTS: spec(409, 'A plan with this id exists: choose another id, or add items to it with collab_add_plan_item.'),
  COLLAB_PLAN_TOO_LARGE: spec(413, 'The plan or item would pass a cap (details.field: items or blockers; details.limit, details.length): split the work into another plan, remove blockers that are solved, or raise plugins.collab.config.plans.maxItems.'),
  COLLAB_PLAN_ITEM_NOT_FOUND: spec(404, 'The plan has no item with this id: read it with collab_get_plan.'),
  COLLAB_PLAN_ITEM_EXISTS: spec(409, 'The plan has an item with this id already: choose another id, or change it with collab_update_plan_item.'),
  COLLAB_FILE_LOCKED: spec(409, 'Another agent holds the lock on this file (details.lock): wait for it, message its holder, or unlock with force (audited).'),
  COLLAB_WORKER_KIND_UNKNOWN: spec(400, 'No worker kind of this name is configured (plugins.collab.config.workers.kinds); a tool call can start only the commands the config names.'),
  COLLAB_WORKER_NOT_FOUND: spec(404, 'No worker has this name: list them with collab_list_workers.'),
  COLLAB_WORKER_NAME_TAKEN: spec(409, 'A live worker, or an agent that is not a worker, has this name: choose another name or leave it out.'),
  COLLAB_WORKER_NOT_RUNNING: spec(409, 'The worker is not running (exited, failed, dismissed, or between two runs): see its status with collab_list_workers.'),
  COLLAB_WORKTREE_FAILED: spec(500, 'git refused to create, commit or remove the worker\'s worktree (details.stderr says why).'),
  COLLAB_WORKER_LIMIT: spec(429, 'The worker kind runs maxInstances workers already: dismiss one (collab_dismiss_worker) or wait for one to finish.'),
  COLLAB_BUSY: spec(409, 'Other writers kept changing the same rows; nothing was changed. Try the call again.'),
} as const satisfies Record<string, ErrorSpec>;

export type CollabErrorCode = keyof typeof collabErrors;
