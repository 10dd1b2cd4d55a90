// The brain_ tools as the catalog lists them: names, descriptions, schemas, examples, hints.
import type { ToolDefinition } from '@mcp-gateway/core';
import { forgetInput, forgetOutput, importInput, importOutput, listInput, listOutput, recallInput, recallOutput, rememberInput, rememberOutput } from './schemas.js';

export const brainRemember = {
  name: 'brain_remember',
  title: 'Remember',
  description:
    'Stores a long-term memory (a fact, decision, convention, bug, procedure...) for agents to recall in later sessions and other projects. ' +
    'To correct a memory, remember the new one with supersedes.',
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
    'Finds the memories closest to a query, best first, by words and meaning, leaving out superseded and expired ones unless asked. ' +
    'Recall before starting a task; brain_list pages without a query.',
  inputSchema: { ...recallInput, examples: [{ query: 'how are tests run', top_k: 5 }, { query: 'deploy', types: ['decision', 'convention'], min_confidence: 0.5 }] },
  outputSchema: recallOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export const brainForget = {
  name: 'brain_forget',
  title: 'Forget',
  description:
    'Forgets a memory for good: content and tags are erased, and a tombstone with the reason makes copies elsewhere go too. To correct a memory, use brain_remember with supersedes instead.',
  inputSchema: { ...forgetInput, examples: [{ id: 'no-such-memory', reason: 'an example from the explorer' }] },
  outputSchema: forgetOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export const brainList = {
  name: 'brain_list',
  title: 'List memories',
  description:
    'Lists memories by time, filtered like brain_recall. Paged: pass next_cursor as cursor. include_forgotten adds tombstones.',
  inputSchema: { ...listInput, examples: [{}, { types: ['decision'], limit: 10 }] },
  outputSchema: listOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export const brainImport = {
  name: 'brain_import',
  title: 'Import memories',
  description:
    'Stores memories exactly as brain_list or `mcp-gateway brain export` gave them, ids, agents and times kept, to move a brain to another gateway. ' +
    'Ids already here are skipped, so it can run again; a tombstone forgets the live copy.',
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
