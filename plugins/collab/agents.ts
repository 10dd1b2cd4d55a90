// Agents as stored and as the tools return them; an agent not heard from within
// presence.staleSeconds reads as offline whatever it last said.
import type { ExpressionBuilder, Selectable } from '../../core/index.js';
import type { CollabStore } from './context.js';
import { parseJson } from './context.js';
import { nowIso, type Agent, type Presence } from './model.js';
import type { CollabTables } from './store/schema.js';

export type AgentRow = Selectable<CollabTables['collab_agents']>;

/** The columns of an agent heard from now: seen, and idle again if it was offline. */
export function seenNow(eb: ExpressionBuilder<CollabTables, 'collab_agents'>, now: string = nowIso()) {
  return { last_seen_at: now, presence: eb.case().when('presence', '=', 'offline').then('idle').else(eb.ref('presence')).end() };
}

export function toAgent(row: AgentRow, staleMs: number, now: number = Date.now()): Agent {
  const stale = now - Date.parse(row.last_seen_at) > staleMs;
  return {
    name: row.name,
    display_name: row.display_name,
    capabilities: parseJson<string[]>(row.capabilities, []),
    project: row.project,
    presence: stale ? 'offline' : (row.presence as Presence),
    presence_note: row.presence_note,
    current_task_id: row.current_task_id,
    progress: row.progress,
    step: row.step,
    total_steps: row.total_steps,
    kind: row.kind === 'worker' ? 'worker' : 'agent',
    registered_at: row.registered_at,
    last_seen_at: row.last_seen_at,
  };
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
export async function upsertAgent(store: CollabStore, registration: AgentRegistration): Promise<{ row: AgentRow; created: boolean }> {
  const now = nowIso();
  const inserted = await store.db
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
    await store.db
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
  const row = await store.db.selectFrom('collab_agents').selectAll().where('name', '=', registration.name).executeTakeFirstOrThrow();
  return { row, created };
}

/** The agent's row, or undefined. */
export function findAgent(store: CollabStore, name: string): Promise<AgentRow | undefined> {
  return store.db.selectFrom('collab_agents').selectAll().where('name', '=', name).executeTakeFirst();
}
