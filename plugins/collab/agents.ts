// Agents as the tools return them; an agent not heard from within presence.staleSeconds reads
// as offline whatever it last said. Their rows are store/agent-store.ts's.
import { parseJson } from './context.js';
import type { Agent, Presence } from './model.js';
import type { AgentRow } from './store/agent-store.js';

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
