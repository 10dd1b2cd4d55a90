// The events collab publishes (on /events, and to every gateway sharing the store). Each is a
// hint with ids, names and states, and carries only what every agent of the team may read with
// the tools (task titles, plan ids): never a message's subject or body, which only its
// recipients may read, since an /events subscriber needs no more than the `events` scope.
// The rows are the truth.
import type { TaskStatus } from './model.js';

/** `collab.task.<change>`: created, updated, claimed, handed_off, replayed, stuck, review_requested. */
export interface TaskEvent {
  id: number;
  title: string;
  status: TaskStatus;
  assignee: string;
  priority: number;
  /** Who made the change (`system` for the watchdog). */
  by: string;
  previous_status?: TaskStatus;
  previous_assignee?: string;
}

export type TaskChange = 'created' | 'updated' | 'claimed' | 'handed_off' | 'replayed' | 'stuck' | 'review_requested';

export const taskChannel = (change: TaskChange) => `collab.task.${change}`;
