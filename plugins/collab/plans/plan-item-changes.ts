// What collab_update_plan_item changes in an item: computed from the row as read, for the
// compare-and-set write of PlanBook.updateItem.
import type { PlanItemStatus } from '../model.js';
import type { PlanItemRow } from '../store/plan-store.js';
import { toPlanItem, type PlanNote } from './plan-rows.js';

export interface PlanItemChanges {
  status?: PlanItemStatus;
  /** An agent, or null to clear the owner. */
  owner?: string | null;
  add_blocker?: string;
  remove_blocker?: string;
  add_note?: string;
  reasoning?: string;
  acceptance?: string[];
  constraints?: string[];
}

/**
 * The columns an update writes, from the row as read, the names of what changed, and how many
 * blockers the item has then. It keeps the newest `maxNotes` notes (plans.maxNotesPerItem), so
 * that a plan read as a resource stays readable.
 */
export function applyChanges(row: PlanItemRow, changes: PlanItemChanges, by: string, now: string, maxNotes: number) {
  const values: Partial<Pick<PlanItemRow, 'status' | 'owner' | 'blockers' | 'notes' | 'reasoning' | 'acceptance' | 'constraints'>> = {};
  const changed: string[] = [];
  if (changes.status !== undefined && changes.status !== row.status) {
    values.status = changes.status;
    changed.push('status');
  }
  if (changes.owner !== undefined && changes.owner !== row.owner) {
    values.owner = changes.owner;
    changed.push('owner');
  }
  const item = toPlanItem(row);
  let blockers = item.blockers;
  if (changes.add_blocker !== undefined && !blockers.includes(changes.add_blocker)) blockers = [...blockers, changes.add_blocker];
  if (changes.remove_blocker !== undefined) blockers = blockers.filter((b) => b !== changes.remove_blocker);
  if (blockers.length !== item.blockers.length) {
    values.blockers = JSON.stringify(blockers);
    changed.push('blockers');
  }
  if (changes.add_note !== undefined) {
    const note: PlanNote = { author: by, text: changes.add_note, at: now };
    values.notes = JSON.stringify([...item.notes, note].slice(-maxNotes));
    changed.push('notes');
  }
  if (changes.reasoning !== undefined && changes.reasoning !== row.reasoning) {
    values.reasoning = changes.reasoning;
    changed.push('reasoning');
  }
  for (const key of ['acceptance', 'constraints'] as const) {
    const next = changes[key];
    if (next !== undefined && JSON.stringify(next) !== JSON.stringify(item[key])) {
      values[key] = JSON.stringify(next);
      changed.push(key);
    }
  }
  return { values, changed, blockers: blockers.length };
}
