import type { ColumnType, Generated, StoreMigration } from '@mcp-gateway/core';

/** An id the database makes: read as a number, never written. */
type Serial = Generated<number>;
/** JSON arrays and objects are stored as text on both engines. */
type Json = string;

/** Collab's tables in the shared store (SQLite or PostgreSQL); times are ISO 8601 UTC text. */
export interface CollabTables {
  collab_agents: {
    name: string;
    display_name: string | null;
    capabilities: Json;
    project: string | null;
    presence: string;
    presence_note: string | null;
    current_task_id: number | null;
    progress: string | null;
    step: number | null;
    total_steps: number | null;
    kind: string;
    registered_at: string;
    last_seen_at: string;
  };
  collab_messages: {
    id: Serial;
    from_agent: string;
    /** An agent's name, or `all`. */
    to_agent: string;
    subject: string | null;
    body: string;
    kind: string;
    reply_to: number | null;
    /** The id of the thread's first message; its own id for a first message (set right after the insert). */
    thread_id: ColumnType<number, number | undefined, number>;
    task_id: number | null;
    created_at: string;
  };
  /** One row per message an agent has read (broadcasts are read by each agent on its own). */
  collab_message_reads: {
    message_id: number;
    agent: string;
    read_at: string;
  };
  collab_tasks: {
    id: Serial;
    title: string;
    description: string | null;
    kind: string;
    priority: number;
    status: string;
    /** An agent's name, or `any`. */
    assignee: string;
    created_by: string;
    relevant_files: Json;
    constraints: Json;
    background: string | null;
    expected_duration_s: number | null;
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
    /** The last progress report (or the start): what the watchdog measures "stuck" from. */
    last_progress_at: string | null;
    /** When the watchdog flagged it stuck (once per stretch without progress). */
    stuck_at: string | null;
    /** Bumped by every write: the compare-and-set guard of concurrent updates. */
    version: number;
  };
  collab_task_deps: {
    task_id: number;
    depends_on: number;
  };
  /** A task's shared notes, key by key: the work context agents add to. */
  collab_task_notes: {
    task_id: number;
    key: string;
    value: string;
    author: string;
    updated_at: string;
  };
  collab_plans: {
    id: string;
    title: string;
    goal: string;
    context: string | null;
    created_by: string;
    /** 0/1: at most one plan is active. */
    active: number;
    created_at: string;
    updated_at: string;
  };
  collab_plan_items: {
    plan_id: string;
    id: string;
    /** Insertion order within the plan. */
    position: number;
    title: string;
    description: string | null;
    owner: string | null;
    priority: number;
    status: string;
    reasoning: string | null;
    acceptance: Json;
    constraints: Json;
    dependencies: Json;
    blockers: Json;
    notes: Json;
    created_at: string;
    updated_at: string;
    version: number;
  };
  collab_locks: {
    /** Relative to the workspace root, `/`-separated. */
    path: string;
    agent: string;
    reason: string | null;
    task_id: number | null;
    locked_at: string;
    expires_at: string;
  };
  collab_notes: {
    id: Serial;
    author: string;
    category: string;
    content: string;
    created_at: string;
  };
}

export const migrations: StoreMigration[] = [
  {
    name: 'collab',
    async up(db, dialect) {
      // SQLite's AUTOINCREMENT never hands out an id again after its row is deleted (pruned
      // messages): a read mark must not come to mean another message.
      const id = (table: string) =>
        db.schema.createTable(table).addColumn('id', 'integer', (c) => (dialect === 'postgres' ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey().autoIncrement()));

      await db.schema
        .createTable('collab_agents')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('display_name', 'text')
        .addColumn('capabilities', 'text', (c) => c.notNull())
        .addColumn('project', 'text')
        .addColumn('presence', 'text', (c) => c.notNull())
        .addColumn('presence_note', 'text')
        .addColumn('current_task_id', 'integer')
        .addColumn('progress', 'text')
        .addColumn('step', 'integer')
        .addColumn('total_steps', 'integer')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('registered_at', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', 'text', (c) => c.notNull())
        .execute();

      await id('collab_messages')
        .addColumn('from_agent', 'text', (c) => c.notNull())
        .addColumn('to_agent', 'text', (c) => c.notNull())
        .addColumn('subject', 'text')
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('reply_to', 'integer')
        .addColumn('thread_id', 'integer')
        .addColumn('task_id', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('collab_messages_to').on('collab_messages').columns(['to_agent', 'id']).execute();
      await db.schema.createIndex('collab_messages_thread').on('collab_messages').columns(['thread_id', 'id']).execute();
      await db.schema.createIndex('collab_messages_created').on('collab_messages').column('created_at').execute();
      await db.schema
        .createTable('collab_message_reads')
        .addColumn('message_id', 'integer', (c) => c.notNull())
        .addColumn('agent', 'text', (c) => c.notNull())
        .addColumn('read_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('collab_message_reads_pk', ['message_id', 'agent'])
        .execute();
      await db.schema.createIndex('collab_message_reads_agent').on('collab_message_reads').columns(['agent', 'message_id']).execute();

      await id('collab_tasks')
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('priority', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('assignee', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('relevant_files', 'text', (c) => c.notNull())
        .addColumn('constraints', 'text', (c) => c.notNull())
        .addColumn('background', 'text')
        .addColumn('expected_duration_s', 'integer')
        .addColumn('progress_percent', 'integer')
        .addColumn('progress_note', 'text')
        .addColumn('eta_at', 'text')
        .addColumn('blocked_reason', 'text')
        .addColumn('plan_id', 'text')
        .addColumn('plan_item_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text')
        .addColumn('finished_at', 'text')
        .addColumn('last_progress_at', 'text')
        .addColumn('stuck_at', 'text')
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      // collab_claim_next: pending tasks by priority, oldest first.
      await db.schema.createIndex('collab_tasks_queue').on('collab_tasks').columns(['status', 'priority', 'id']).execute();
      await db.schema.createIndex('collab_tasks_assignee').on('collab_tasks').columns(['assignee', 'status']).execute();
      await db.schema
        .createTable('collab_task_deps')
        .addColumn('task_id', 'integer', (c) => c.notNull())
        .addColumn('depends_on', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('collab_task_deps_pk', ['task_id', 'depends_on'])
        .execute();
      await db.schema.createIndex('collab_task_deps_on').on('collab_task_deps').column('depends_on').execute();
      await db.schema
        .createTable('collab_task_notes')
        .addColumn('task_id', 'integer', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('author', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('collab_task_notes_pk', ['task_id', 'key'])
        .execute();

      await db.schema
        .createTable('collab_plans')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('goal', 'text', (c) => c.notNull())
        .addColumn('context', 'text')
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('collab_plan_items')
        .addColumn('plan_id', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('owner', 'text')
        .addColumn('priority', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('reasoning', 'text')
        .addColumn('acceptance', 'text', (c) => c.notNull())
        .addColumn('constraints', 'text', (c) => c.notNull())
        .addColumn('dependencies', 'text', (c) => c.notNull())
        .addColumn('blockers', 'text', (c) => c.notNull())
        .addColumn('notes', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .addPrimaryKeyConstraint('collab_plan_items_pk', ['plan_id', 'id'])
        .execute();

      await db.schema
        .createTable('collab_locks')
        .addColumn('path', 'text', (c) => c.primaryKey())
        .addColumn('agent', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('task_id', 'integer')
        .addColumn('locked_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('collab_locks_agent').on('collab_locks').column('agent').execute();

      await id('collab_notes')
        .addColumn('author', 'text', (c) => c.notNull())
        .addColumn('category', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
];
