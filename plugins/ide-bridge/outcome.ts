// What a build's status word means: started, finished well, finished badly, or none of these yet.

export type Outcome = 'start' | 'complete' | 'failed';

const OUTCOMES: Record<string, Outcome> = {
  running: 'start',
  in_progress: 'start',
  started: 'start',
  success: 'complete',
  succeeded: 'complete',
  completed: 'complete',
  passed: 'complete',
  failed: 'failed',
  error: 'failed',
};

/** build.start, build.complete or build.failed for a status word; undefined for the others (queued, pending, ...). */
export function buildOutcome(status: string): Outcome | undefined {
  return Object.hasOwn(OUTCOMES, status) ? OUTCOMES[status] : undefined;
}
