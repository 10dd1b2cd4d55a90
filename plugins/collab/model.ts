// What collab is about: agents, messages, tasks, plans, locks — as the tools return them.
// Times are ISO 8601 UTC with milliseconds (text order is time order on both engines).

/** An agent's name: lower case, how tools and other agents address it. */
export const AGENT_NAME_PATTERN = '^[a-z][a-z0-9_-]{0,63}$';
/** Names that address a group (`all`, `any`) or the gateway itself (`system`): no agent may take them. */
export const RESERVED_AGENT_NAMES = ['all', 'any', 'system'] as const;
/** The sender of what the gateway says itself: watchdog alerts, STOP directives. */
export const SYSTEM_AGENT = 'system';
/** A message to everyone; a task anybody may take. */
export const BROADCAST = 'all';
export const ANYONE = 'any';

/** What an agent says it is doing; `offline` is what the watchdog says of an agent that went quiet. */
export const PRESENCE_STATES = ['idle', 'working', 'reviewing', 'away', 'offline'] as const;
export type Presence = (typeof PRESENCE_STATES)[number];

export interface Agent {
  name: string;
  display_name: string | null;
  capabilities: string[];
  project: string | null;
  presence: Presence;
  presence_note: string | null;
  current_task_id: number | null;
  /** The last heartbeat's progress text and steps. */
  progress: string | null;
  step: number | null;
  total_steps: number | null;
  /** `agent` (joined by itself) or `worker` (started by this gateway). */
  kind: 'agent' | 'worker';
  registered_at: string;
  last_seen_at: string;
}

export const MESSAGE_KINDS = ['message', 'handoff', 'review', 'alert', 'stop'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export interface Message {
  id: number;
  from: string;
  /** An agent, or `all`. */
  to: string;
  subject: string | null;
  body: string;
  kind: MessageKind;
  /** The message this one answers, and the first message of its thread. */
  reply_to: number | null;
  thread_id: number;
  task_id: number | null;
  created_at: string;
  /** For the reader asking: whether it has read it. */
  read?: boolean;
}

export const TASK_STATUSES = ['pending', 'in_progress', 'completed', 'blocked', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
/** Statuses a task leaves only by replay (blocked, cancelled) or never (completed). */
export const OPEN_TASK_STATUSES: readonly TaskStatus[] = ['pending', 'in_progress', 'blocked'];

/**
 * Allowed moves. pending → in_progress → completed | blocked | cancelled; blocked and cancelled
 * come back to pending by collab_replay_task; a pending task may be cancelled or blocked too.
 */
export const TASK_TRANSITIONS: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = {
  pending: ['in_progress', 'blocked', 'cancelled'],
  in_progress: ['completed', 'blocked', 'cancelled', 'pending'],
  blocked: ['cancelled'],
  cancelled: [],
  completed: [],
};

export const TASK_KINDS = ['task', 'review'] as const;
export type TaskKind = (typeof TASK_KINDS)[number];

export interface Task {
  id: number;
  title: string;
  description: string | null;
  kind: TaskKind;
  /** 1 (most urgent) to 4. */
  priority: number;
  status: TaskStatus;
  /** An agent, or `any`. */
  assignee: string;
  created_by: string;
  relevant_files: string[];
  constraints: string[];
  background: string | null;
  depends_on: number[];
  expected_duration_seconds: number | null;
  progress_percent: number | null;
  progress_note: string | null;
  eta_at: string | null;
  blocked_reason: string | null;
  plan_id: string | null;
  plan_item_id: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export const PLAN_ITEM_STATUSES = ['pending', 'in_progress', 'completed', 'blocked', 'cancelled'] as const;
export type PlanItemStatus = (typeof PLAN_ITEM_STATUSES)[number];

export interface PlanItem {
  id: string;
  title: string;
  description: string | null;
  owner: string | null;
  priority: number;
  status: PlanItemStatus;
  reasoning: string | null;
  acceptance: string[];
  constraints: string[];
  dependencies: string[];
  blockers: string[];
  notes: { author: string; text: string; at: string }[];
  created_at: string;
  updated_at: string;
}

export interface Plan {
  id: string;
  title: string;
  goal: string;
  context: string | null;
  created_by: string;
  active: boolean;
  created_at: string;
  updated_at: string;
  /** One page of the items, in the order they were added (collab_get_plan's offset and limit). */
  items: PlanItem[];
  /** Items per status, of the whole plan. */
  progress: Record<PlanItemStatus, number> & { total: number };
  /** The offset of the next page of items; null when this page is the last. */
  next_offset: number | null;
}

export interface FileLock {
  /** Relative to the workspace root, with `/`: the same file on every gateway of a team. */
  path: string;
  agent: string;
  reason: string | null;
  task_id: number | null;
  locked_at: string;
  expires_at: string;
}

export const NOTE_CATEGORIES = ['decision', 'note', 'question', 'blocker'] as const;
export type NoteCategory = (typeof NOTE_CATEGORIES)[number];

export interface SessionNote {
  id: number;
  author: string;
  category: NoteCategory;
  content: string;
  created_at: string;
}

/** Now, as stored: ISO 8601 UTC with milliseconds. */
export function nowIso(now: number = Date.now()): string {
  return new Date(now).toISOString();
}
