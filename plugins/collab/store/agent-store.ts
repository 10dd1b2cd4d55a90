// Agents' rows (collab_agents): the only module with agent SQL. What the tools return is
// agents.ts's (toAgent).
import type { ExpressionBuilder, Selectable, Updateable } from '@mcp-gateway/core';
import { nowIso } from '../model.js';
import type { CollabDb } from './db.js';
import type { CollabTables } from './schema.js';

export type AgentRow = Selectable<CollabTables['collab_agents']>;

/** The columns of an agent heard from now: seen, and idle again if it was offline. */
export function seenNow(eb: ExpressionBuilder<CollabTables, 'collab_agents'>, now: string = nowIso()) {
  return { last_seen_at: now, presence: eb.case().when('presence', '=', 'offline').then('idle').else(eb.ref('presence')).end() };
}

/** The agent's row, or undefined. */
export function findAgentRow(db: CollabDb, name: string): Promise<AgentRow | undefined> {
  return db.selectFrom('collab_agents').selectAll().where('name', '=', name).executeTakeFirst();
}

export interface AgentRegistration {
  name: string;
  display_name?: string;
  capabilities?: string[];
  project?: string;
  kind?: 'agent' | 'worker';
}

/**
 * Registers an agent, or updates the given fields of one that exists (and marks it seen).
 * One statement, so two gateways registering the same name at once both succeed.
 */
export async function upsertAgentRow(db: CollabDb, registration: AgentRegistration): Promise<{ row: AgentRow; created: boolean }> {
  const now = nowIso();
  const inserted = await db
    .insertInto('collab_agents')
    .values({
      name: registration.name,
      display_name: registration.display_name ?? null,
      capabilities: JSON.stringify(registration.capabilities ?? []),
      project: registration.project ?? null,
      presence: 'idle',
      presence_note: null,
      current_task_id: null,
      progress: null,
      step: null,
      total_steps: null,
      kind: registration.kind ?? 'agent',
      registered_at: now,
      last_seen_at: now,
    })
    .onConflict((oc) => oc.column('name').doNothing())
    .returning('name')
    .executeTakeFirst();
  const created = inserted !== undefined;
  if (!created) {
    await db
      .updateTable('collab_agents')
      .set((eb) => ({
        ...seenNow(eb, now),
        ...(registration.display_name !== undefined ? { display_name: registration.display_name } : {}),
        ...(registration.capabilities !== undefined ? { capabilities: JSON.stringify(registration.capabilities) } : {}),
        ...(registration.project !== undefined ? { project: registration.project } : {}),
      }))
      .where('name', '=', registration.name)
      .execute();
  }
  const row = await db.selectFrom('collab_agents').selectAll().where('name', '=', registration.name).executeTakeFirstOrThrow();
  return { row, created };
}

/** Marks the agent seen at `now` (idle again if it was offline); answers whether it exists. */
export async function markAgentSeen(db: CollabDb, agent: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('collab_agents')
    .set((eb) => seenNow(eb, now))
    .where('name', '=', agent)
    .executeTakeFirst();
  return result.numUpdatedRows !== 0n;
}

/** Marks the agent seen now, and with `report` its progress, step and total steps. */
export async function recordHeartbeat(db: CollabDb, agent: string, report: { progress: string | null; step: number | null; total_steps: number | null } | undefined): Promise<void> {
  await db
    .updateTable('collab_agents')
    .set((eb) => ({
      ...seenNow(eb),
      ...(report !== undefined ? report : {}),
    }))
    .where('name', '=', agent)
    .execute();
}

/** Writes `changes` to the agent's row. */
export async function updateAgentRow(db: CollabDb, name: string, changes: Updateable<CollabTables['collab_agents']>): Promise<void> {
  await db.updateTable('collab_agents').set(changes).where('name', '=', name).execute();
}

/** What collab_list_agents filters by. */
export interface AgentListFilter {
  /** Agents whose names sort after this one (the cursor). */
  after_name?: string | undefined;
  /** Agents seen at or after this time. */
  seen_since?: string | undefined;
  project?: string | undefined;
  presence?: string | undefined;
  /** Agents seen before this time read as offline. */
  stale_before: string;
}

/** Agents that match `filter`, by name, at most `limit`. */
export function listAgentRows(db: CollabDb, filter: AgentListFilter, limit: number): Promise<AgentRow[]> {
  let query = db.selectFrom('collab_agents').selectAll().orderBy('name');
  if (filter.after_name !== undefined) query = query.where('name', '>', filter.after_name);
  if (filter.seen_since !== undefined) query = query.where('last_seen_at', '>=', filter.seen_since);
  if (filter.project !== undefined) query = query.where('project', '=', filter.project);
  // The same rule as toAgent: quiet for staleSeconds reads as offline whatever was stored.
  const staleBefore = filter.stale_before;
  if (filter.presence === 'offline') query = query.where((eb) => eb.or([eb('presence', '=', 'offline'), eb('last_seen_at', '<', staleBefore)]));
  else if (filter.presence !== undefined) query = query.where('presence', '=', filter.presence).where('last_seen_at', '>=', staleBefore);
  return query.limit(limit).execute();
}

/** The agent's current task id (null when none), or undefined for an unknown agent. */
export async function currentTaskIdOf(db: CollabDb, agent: string): Promise<number | null | undefined> {
  const row = await db.selectFrom('collab_agents').select('current_task_id').where('name', '=', agent).executeTakeFirst();
  return row?.current_task_id;
}

/** The agent's kind (`agent` or `worker`), or undefined for an unknown agent. */
export async function agentKindOf(db: CollabDb, name: string): Promise<string | undefined> {
  const row = await db.selectFrom('collab_agents').select('kind').where('name', '=', name).executeTakeFirst();
  return row?.kind;
}

/** Those of `names` that are registered agents. */
export async function existingAgentNames(db: CollabDb, names: readonly string[]): Promise<string[]> {
  const rows = await db.selectFrom('collab_agents').select('name').where('name', 'in', [...names]).execute();
  return rows.map((row) => row.name);
}

/** The first `limit` agent names, sorted. */
export async function agentNames(db: CollabDb, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('collab_agents').select('name').orderBy('name').limit(limit).execute();
  return rows.map((row) => row.name);
}

/** Agents not marked offline, by name, at most `limit`: who a plan can count on. */
export function agentsNotOffline(db: CollabDb, limit: number) {
  return db.selectFrom('collab_agents').select(['name', 'capabilities', 'presence']).where('presence', '!=', 'offline').orderBy('name').limit(limit).execute();
}

/**
 * Names starting `<kind>-` of agents that are no worker, or workers seen after `since`: the
 * default worker names another process may be acting as.
 */
export async function agentNamesInUse(db: CollabDb, kind: string, since: string): Promise<string[]> {
  const rows = await db
    .selectFrom('collab_agents')
    .select('name')
    .where('name', 'like', `${kind}-%`)
    .where((eb) => eb.or([eb('kind', '!=', 'worker'), eb('last_seen_at', '>', since)]))
    .execute();
  return rows.map((row) => row.name);
}

/** Agents not marked offline and not seen since `cutoff`, at most `limit`. */
export function staleAgents(db: CollabDb, cutoff: string, limit: number): Promise<Array<{ name: string; last_seen_at: string }>> {
  return db.selectFrom('collab_agents').select(['name', 'last_seen_at']).where('presence', '!=', 'offline').where('last_seen_at', '<', cutoff).limit(limit).execute();
}

/**
 * Marks the agent offline if it is not, and still has the last_seen_at it was read with (an
 * agent heard from since the read stays as it is); answers whether it did.
 */
export async function markAgentOffline(db: CollabDb, name: string, lastSeenAt: string): Promise<boolean> {
  const result = await db.updateTable('collab_agents').set({ presence: 'offline' }).where('name', '=', name).where('presence', '!=', 'offline').where('last_seen_at', '=', lastSeenAt).executeTakeFirst();
  return result.numUpdatedRows !== 0n;
}

/** Whether an agent of this name is registered. */
export async function agentExists(db: CollabDb, name: string): Promise<boolean> {
  const known = await db.selectFrom('collab_agents').select('name').where('name', '=', name).executeTakeFirst();
  return known !== undefined;
}

/**
 * Takes the agent's row lock until the transaction ends (PostgreSQL; SQLite's write lock
 * serialises writers anyway): whatever puts a task in an agent's hands takes it first.
 */
export async function lockAgentRow(trx: CollabDb, agent: string): Promise<void> {
  await trx.selectFrom('collab_agents').select('name').where('name', '=', agent).forUpdate().executeTakeFirst();
}

/** Clears the agent's current task, only where it still points at `taskId`. */
export async function clearCurrentTask(db: CollabDb, agent: string, taskId: number): Promise<void> {
  await db.updateTable('collab_agents').set({ current_task_id: null }).where('name', '=', agent).where('current_task_id', '=', taskId).execute();
}

/** Makes `taskId` the agent's current task. */
export async function setCurrentTask(db: CollabDb, agent: string, taskId: number): Promise<void> {
  await db.updateTable('collab_agents').set({ current_task_id: taskId }).where('name', '=', agent).execute();
}

/** Records the agent's progress line, and that it was seen at `seenAt`. */
export async function recordAgentProgress(db: CollabDb, agent: string, progress: string, seenAt: string): Promise<void> {
  await db.updateTable('collab_agents').set({ progress, last_seen_at: seenAt }).where('name', '=', agent).execute();
}
