import type { InputRequest } from '@modelcontextprotocol/server';
import type { SharedStore } from '../storage/shared-store.js';
import type { StoreMigration } from '../contract/store-types.js';

/** The statuses of the tasks extension; the last three are final. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

const FINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

export function isFinal(status: TaskStatus): boolean {
  return FINAL.has(status);
}

/** One task as the store holds it. */
export interface TaskRow {
  readonly taskId: string;
  /** Whose task it is (the binding of input-round.ts's callBinding: the key, else the caller's name). */
  readonly owner: string;
  readonly tool: string;
  readonly status: TaskStatus;
  readonly statusMessage: string | undefined;
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  readonly ttlMs: number;
  /** The CallToolResult of a completed task; the JSON-RPC error of a failed one. */
  readonly result: Record<string, unknown> | undefined;
  readonly error: Record<string, unknown> | undefined;
  /** The questions not answered yet, by key. */
  readonly inputRequests: Record<string, InputRequest>;
  /** Answers delivered by tasks/update that the task has not taken yet, by key. */
  readonly answers: Record<string, unknown>;
  readonly cancelRequested: boolean;
}

/** The owner of the tasks table in the shared store's migration records; its prefix is `core_tasks_`. */
const OWNER = 'core-tasks';
const TABLE = 'core_tasks_entries';

const MIGRATIONS: readonly StoreMigration[] = [
  {
    name: 'tasks of the tasks extension',
    async up(db) {
      await db.schema
        .createTable(TABLE)
        .addColumn('task_id', 'text', (c) => c.primaryKey())
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('tool', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('status_message', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('ttl_ms', 'integer', (c) => c.notNull())
        .addColumn('result', 'text')
        .addColumn('error', 'text')
        .addColumn('input_requests', 'text', (c) => c.notNull())
        .addColumn('answers', 'text', (c) => c.notNull())
        .addColumn('cancel_requested', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('core_tasks_entries_expires').on(TABLE).column('expires_at').execute();
    },
  },
];

type Changes = Partial<Pick<TaskRow, 'status' | 'statusMessage' | 'result' | 'error' | 'inputRequests' | 'answers' | 'cancelRequested'>>;

/**
 * The tasks of the tasks extension in the shared store, so that any gateway on the store
 * answers `tasks/get`, `tasks/update` and `tasks/cancel` for a task another one runs. A task
 * is kept until its TTL has passed since it was created, then purged.
 */
export class TaskStore {
  readonly #store: SharedStore;

  private constructor(store: SharedStore) {
    this.#store = store;
  }

  static async open(store: SharedStore): Promise<TaskStore> {
    await store.migrate(OWNER, MIGRATIONS);
    return new TaskStore(store);
  }

  /** A new task `taskId`, `working`, kept `ttlMs` from now. */
  async create(taskId: string, owner: string, tool: string, ttlMs: number): Promise<TaskRow> {
    const now = new Date();
    const row: TaskRow = {
      taskId,
      owner,
      tool,
      status: 'working',
      statusMessage: undefined,
      createdAt: now.toISOString(),
      lastUpdatedAt: now.toISOString(),
      ttlMs,
      result: undefined,
      error: undefined,
      inputRequests: {},
      answers: {},
      cancelRequested: false,
    };
    await this.#store.db
      .insertInto(TABLE)
      .values({
        task_id: row.taskId,
        owner,
        tool,
        status: row.status,
        created_at: row.createdAt,
        updated_at: row.lastUpdatedAt,
        expires_at: new Date(now.getTime() + ttlMs).toISOString(),
        ttl_ms: ttlMs,
        input_requests: '{}',
        answers: '{}',
        cancel_requested: 0,
      })
      .execute();
    return row;
  }

  /** The task, if it exists, has not expired, and is `owner`'s: another caller's is as good as absent. */
  async get(taskId: string, owner?: string): Promise<TaskRow | undefined> {
    const found = await this.#store.db.selectFrom(TABLE).selectAll().where('task_id', '=', taskId).where('expires_at', '>', new Date().toISOString()).executeTakeFirst();
    if (!found || (owner !== undefined && found.owner !== owner)) return undefined;
    return fromRow(found);
  }

  /** Writes `changes` unless the task is already final (a final task never changes again). */
  async update(taskId: string, changes: Changes): Promise<void> {
    const values: Record<string, unknown> = { updated_at: new Date().toISOString() };
    if (changes.status !== undefined) values.status = changes.status;
    if ('statusMessage' in changes) values.status_message = changes.statusMessage ?? null;
    if (changes.result !== undefined) values.result = JSON.stringify(changes.result);
    if (changes.error !== undefined) values.error = JSON.stringify(changes.error);
    if (changes.inputRequests !== undefined) values.input_requests = JSON.stringify(changes.inputRequests);
    if (changes.answers !== undefined) values.answers = JSON.stringify(changes.answers);
    if (changes.cancelRequested !== undefined) values.cancel_requested = changes.cancelRequested ? 1 : 0;
    await this.#store.db.updateTable(TABLE).set(values).where('task_id', '=', taskId).where('status', 'not in', [...FINAL]).execute();
  }

  /**
   * Adds answers to the ones waiting, keeping only keys of questions still open (the
   * extension says to ignore the rest), in one transaction so that two updates lose nothing.
   */
  async deliver(taskId: string, answers: Record<string, unknown>): Promise<void> {
    await this.#change(taskId, (row) => {
      const open = parsed(row.input_requests);
      const waiting = parsed(row.answers);
      // An answer already waiting stands: a second one for the same question is ignored, as the extension says.
      for (const [key, answer] of Object.entries(answers)) if (Object.hasOwn(open, key) && !Object.hasOwn(waiting, key)) waiting[key] = answer;
      return { answers: JSON.stringify(waiting) };
    });
  }

  /** Adds an open question, and puts the task in `input_required`. */
  async ask(taskId: string, key: string, request: InputRequest): Promise<void> {
    await this.#change(taskId, (row) => ({ input_requests: JSON.stringify({ ...parsed(row.input_requests), [key]: request }), status: 'input_required' }));
  }

  /** Closes the questions `keys` with the answers taken, and puts the task back to `working` when none is left open. */
  async answered(taskId: string, keys: readonly string[]): Promise<void> {
    await this.#change(taskId, (row) => {
      const open = parsed(row.input_requests);
      const waiting = parsed(row.answers);
      for (const key of keys) {
        delete open[key];
        delete waiting[key];
      }
      return { input_requests: JSON.stringify(open), answers: JSON.stringify(waiting), status: Object.keys(open).length === 0 ? 'working' : 'input_required' };
    });
  }

  /** One read-modify-write of a task not yet final, in a transaction, so that concurrent changes lose nothing. */
  async #change(taskId: string, change: (row: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
    await this.#store.db.transaction().execute(async (tx) => {
      const row = await tx.selectFrom(TABLE).selectAll().where('task_id', '=', taskId).forUpdate().executeTakeFirst();
      if (!row || isFinal(row.status as TaskStatus)) return;
      await tx
        .updateTable(TABLE)
        .set({ ...change(row), updated_at: new Date().toISOString() })
        .where('task_id', '=', taskId)
        .execute();
    });
  }

  /** Deletes the tasks whose TTL has passed. */
  async purgeExpired(): Promise<void> {
    await this.#store.db.deleteFrom(TABLE).where('expires_at', '<=', new Date().toISOString()).execute();
  }
}

function parsed(value: unknown): Record<string, unknown> {
  return JSON.parse(value as string) as Record<string, unknown>;
}

function fromRow(row: Record<string, unknown>): TaskRow {
  const json = (value: unknown) => (value === null || value === undefined ? undefined : (JSON.parse(value as string) as Record<string, unknown>));
  return {
    taskId: row.task_id as string,
    owner: row.owner as string,
    tool: row.tool as string,
    status: row.status as TaskStatus,
    statusMessage: (row.status_message as string | null) ?? undefined,
    createdAt: row.created_at as string,
    lastUpdatedAt: row.updated_at as string,
    ttlMs: Number(row.ttl_ms),
    result: json(row.result),
    error: json(row.error),
    inputRequests: json(row.input_requests) as Record<string, InputRequest>,
    answers: json(row.answers)!,
    cancelRequested: Number(row.cancel_requested) === 1,
  };
}
