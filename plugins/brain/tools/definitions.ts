// The brain_ tools as the catalog lists them: names, descriptions, schemas, examples, hints.
import type { ToolDefinition } from '../../../core/index.js';
import { forgetInput, forgetOutput, importInput, importOutput, listInput, listOutput, recallInput, recallOutput, rememberInput, rememberOutput } from './schemas.js';

export const brainRemember = {
  name: 'brain_remember',
  title: 'Remember',
  description:
    'Stores a long-term memory (a fact, decision, convention, bug, procedure...) that agents can recall in later sessions and other projects. ' +
    'Write it self-contained. To correct a memory, remember the new one with supersedes: the old one is left out of recall from then on. ' +
    'Errors: BRAIN_CONTENT_TOO_LARGE, BRAIN_MEMORY_NOT_FOUND (supersedes), BRAIN_ID_CONFLICT; with a remote brain also BREAKER_OPEN, BRAIN_REMOTE_FAILED, BRAIN_REMOTE_REFUSED, BRAIN_QUEUE_FULL.',
  inputSchema: {
    ...rememberInput,
    examples: [{ content: 'Example memory from the explorer: the brain keeps what agents learn across sessions.', type: 'observation', tags: ['example'], confidence: 0.5, expires_in: 3600 }],
  },
  outputSchema: rememberOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
} as const satisfies ToolDefinition;

export const brainRecall = {
  name: 'brain_recall',
  title: 'Recall',
  description:
    'Finds the memories closest to a query, best first, by words and (with the embeddings plugin) meaning. Superseded and expired memories are left out unless asked. ' +
    'Filter by org, project, type or types, agent_id, tags, min_confidence. With a remote brain that is down, the answer holds only what this gateway wrote and says so in partial.',
  inputSchema: { ...recallInput, examples: [{ query: 'how are tests run', top_k: 5 }, { query: 'deploy', types: ['decision', 'convention'], min_confidence: 0.5 }] },
  outputSchema: recallOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export const brainForget = {
  name: 'brain_forget',
  title: 'Forget',
  description:
    'Forgets a memory: its content and tags are erased and it is never recalled again; a tombstone with the reason is kept so that gateways holding a copy drop theirs. Forgetting twice is not an error. Errors: BRAIN_MEMORY_NOT_FOUND.',
  inputSchema: { ...forgetInput, examples: [{ id: 'no-such-memory', reason: 'an example from the explorer' }] },
  outputSchema: forgetOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export const brainList = {
  name: 'brain_list',
  title: 'List memories',
  description:
    'Memories newest first (or oldest first), filtered like brain_recall, a page at a time: pass next_cursor as cursor for the next page. include_forgotten adds tombstones.',
  inputSchema: { ...listInput, examples: [{}, { types: ['decision'], limit: 10 }] },
  outputSchema: listOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export const brainImport = {
  name: 'brain_import',
  title: 'Import memories',
  description:
    'Stores memories exactly as brain_list or `mcp-gateway brain export` gave them (ids, agents, times, tombstones): how a brain moves to another gateway. ' +
    'Ids already here are skipped (a tombstone forgets a live copy), so an import can be run again. Grant it only to keys that may write memories in anyone\'s name.',
  inputSchema: {
    ...importInput,
    examples: [
      {
        memories: [
          {
            // Live but expired an hour after it was written, so nothing recalls it; a tombstone
            // here would forget a live memory of the same id, and an id already here is skipped.
            id: '00000000-0000-4000-8000-00000000e001',
            agent_id: 'example',
            type: 'fact',
            content: 'An example memory from the explorer, imported already expired.',
            tags: ['example'],
            org: null,
            project: null,
            confidence: 0.5,
            supersedes_id: null,
            superseded_by: null,
            expires_at: '2026-01-01T01:00:00.000Z',
            created_at: '2026-01-01T00:00:00.000Z',
            updated_at: '2026-01-01T00:00:00.000Z',
            forgotten_at: null,
            forget_reason: null,
          },
        ],
      },
    ],
  },
  outputSchema: importOutput,
  // Destructive: a tombstone in the input forgets the live memory of that id.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;
