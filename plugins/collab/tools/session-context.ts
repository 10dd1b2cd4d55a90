// collab_session_context: where an agent stands, in one read — what Stringwork's
// get_session_context says, as structured data. Only collab_join binds a session; this reads.
import type { ToolDefinition } from '@mcp-gateway/core';
import { toAgent } from '../agents.js';
import type { Collab } from '../collab.js';
import { previewOf } from '../mailbox.js';
import { nowIso, type MessageKind, type TaskKind, type TaskStatus } from '../model.js';
import { findAgentRow } from '../store/agent-store.js';
import { liveLocksOf } from '../store/lock-store.js';
import { newestUnread } from '../store/message-store.js';
import { latestNotes } from '../store/note-store.js';
import { activePlanRef } from '../store/plan-store.js';
import { taskSummariesOf } from '../store/task-store.js';
import { workspaceInfo } from '../workspace-info.js';
import { toNote } from './notes.js';
import { sessionContextInput, sessionContextOutput } from './session-context-schemas.js';

const PREVIEWS = 5;
const NOTES = 5;
const TASKS_PER_STATUS = 20;
/** An agent may hold any number of locks: the first by path here, all of them through collab_list_locks. */
const LOCKS = 50;

export const collabSessionContext = {
  name: 'collab_session_context',
  title: 'Session context',
  description:
    'Where you stand: presence, unread messages, your tasks and locks, the latest notes, the workspace and the active plan. Call it after collab_join and after a break.',
  inputSchema: { ...sessionContextInput, examples: [{}] },
  outputSchema: sessionContextOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export function registerSessionContextTool({ ctx, store, identity, mailbox }: Collab): void {
  const staleMs = ctx.config.presence.staleSeconds * 1000;

  ctx.tool(collabSessionContext, async (args, call) => {
    const name = await identity.acting(call, args.agent);
    const db = store.db;
    const tasks = (status: TaskStatus) =>
      taskSummariesOf(db, name, status, TASKS_PER_STATUS).then((rows) => rows.map((row) => ({ ...row, kind: row.kind as TaskKind, status: row.status as TaskStatus })));
    const [row, unread, previews, inProgress, pending, locks, notes, plan, workspace] = await Promise.all([
      findAgentRow(store.db, name),
      mailbox.unreadCount(name),
      newestUnread(db, name, PREVIEWS),
      tasks('in_progress'),
      tasks('pending'),
      liveLocksOf(db, name, nowIso(), LOCKS),
      latestNotes(db, NOTES),
      activePlanRef(db),
      workspaceInfo(ctx.workspace.root),
    ]);
    return {
      // acting() found it a moment ago; agents are never deleted.
      agent: toAgent(row!, staleMs),
      session_bound: identity.boundAgent(call.caller.sessionId) === name,
      unread_messages: unread,
      unread_previews: previews.map((m) => ({ id: m.id, from: m.from_agent, to: m.to_agent, subject: m.subject, kind: m.kind as MessageKind, preview: previewOf(m.body), created_at: m.created_at })),
      tasks: { in_progress: inProgress, pending },
      locks,
      notes: notes.map(toNote),
      workspace,
      active_plan: plan ?? null,
    };
  });
}
