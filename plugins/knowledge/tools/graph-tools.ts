// knowledge_link, knowledge_unlink, knowledge_recall, knowledge_summary, knowledge_verify: the graph as a whole.
import { closedObject, type ToolDefinition } from '@mcp-gateway/core';
import { recall } from '../graph/recall.js';
import { searchModeArg } from '../search-mode.js';
import { NODE_TYPES, RELATIONS } from '../graph/model.js';
import { agentOf } from '../graph/node-limits.js';
import { briefOf, type GraphToolDeps } from './graph-deps.js';
import { agentRelationSchema, edgeSchema, nodeBriefProperties, nodeIdSchema, nodeTypeArg } from './graph-schemas.js';

/**
 * Nodes knowledge_verify lists at most (the counts cover every node checked): a check of the whole
 * graph would otherwise answer with one entry per node, each with up to maxEvidence problems.
 */
export const MAX_VERIFY_LISTED = 200;

const knowledgeLink = {
  name: 'knowledge_link',
  title: 'Link two nodes',
  description:
    'Adds an edge between two nodes, or changes its confidence. Edges of confidence ≥ 0.5 let knowledge_recall reach one node from the other.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['from', 'to', 'relation'],
    properties: { from: nodeIdSchema, to: nodeIdSchema, relation: agentRelationSchema, confidence: { type: 'number', minimum: 0, maximum: 1, default: 0.9 } },
    examples: [{ from: 'n-000000000000', to: 'n-000000000001', relation: 'relates_to' }],
  },
  outputSchema: edgeSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

const knowledgeUnlink = {
  name: 'knowledge_unlink',
  title: 'Unlink two nodes',
  description: 'Removes the edges between two nodes, either way: of one relation, or all. 0 removed is no error.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['from', 'to'],
    properties: { from: nodeIdSchema, to: nodeIdSchema, relation: { enum: RELATIONS } },
    examples: [{ from: 'n-000000000000', to: 'n-000000000001', relation: 'relates_to' }],
  },
  outputSchema: closedObject({ removed: { type: 'integer' } }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

const summaryProperties = {
  total: { type: 'integer' },
  types: { type: 'object', additionalProperties: closedObject({ count: { type: 'integer' }, recent: { type: 'array', items: { type: 'string' }, description: 'The summaries of up to three of the most recently changed.' } }) },
};

const knowledgeRecall = {
  name: 'knowledge_recall',
  title: 'Recall knowledge',
  description:
    'Finds what the knowledge graph knows about a question, by words and meaning, plus nodes strongly linked to the hits. ' +
    'Ask it before exploring code. Without query: counts by type.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      query: { type: 'string', minLength: 1, maxLength: 2000 },
      limit: { type: 'integer', minimum: 1, maximum: 50, default: 5 },
      types: { type: 'array', items: nodeTypeArg, uniqueItems: true, minItems: 1 },
      include_content: { type: 'boolean', default: true, description: 'false: summaries only.' },
      mode: searchModeArg,
    },
    examples: [{ query: 'how are errors reported to callers' }, {}],
  },
  outputSchema: closedObject(
    {
      query: { type: 'string' },
      mode: { enum: ['hybrid', 'lexical', 'vector'] },
      degraded: { type: 'string', description: 'Why vectors took no part.' },
      results: {
        type: 'array',
        items: closedObject(
          {
            ...nodeBriefProperties,
            content: { type: 'string' },
            score: { type: 'number' },
            lexical_score: { type: 'number' },
            vector_similarity: { type: ['number', 'null'] },
            expanded_from: closedObject({ id: { type: 'string' }, relation: { type: 'string' } }),
          },
          ['content', 'expanded_from'],
        ),
      },
      summary: closedObject(summaryProperties),
    },
    ['query', 'mode', 'degraded', 'results', 'summary'],
  ),
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

const knowledgeSummary = {
  name: 'knowledge_summary',
  title: 'Summarise knowledge',
  description: 'Counts nodes by type, with three recent summaries each, and by verification status: a first look at what the graph knows.',
  inputSchema: { type: 'object', additionalProperties: false, properties: {}, examples: [{}] },
  outputSchema: closedObject({
    ...summaryProperties,
    statuses: { type: 'object', additionalProperties: { type: 'integer' } },
    vectors: closedObject({ available: { type: 'boolean' }, reason: { type: 'string' }, engine: { type: 'string' } }, ['reason', 'engine']),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

const knowledgeVerify = {
  name: 'knowledge_verify',
  title: 'Check evidence again',
  description:
    'Checks evidence against the files now: of the given ids, of nodes citing changed files (run it after editing code), or of all. ' +
    'Failing nodes become stale: fix them with knowledge_update or drop them with knowledge_forget. ' +
    `Lists ${MAX_VERIFY_LISTED} at most; knowledge_list by status finds the rest.`,
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      ids: { type: 'array', items: nodeIdSchema, minItems: 1, maxItems: 1000, uniqueItems: true },
      changed: { type: 'boolean', default: false },
    },
    examples: [{ ids: ['n-000000000000'] }],
  },
  outputSchema: closedObject(
    {
      checked: { type: 'integer' },
      stale: { type: 'integer' },
      omitted: { type: 'integer', minimum: 0, description: `Nodes checked but not listed in results (only the first ${MAX_VERIFY_LISTED} are).` },
      changed_files: { type: 'array', items: { type: 'string' } },
      results: {
        type: 'array',
        items: closedObject({
          id: { type: 'string' },
          summary: { type: 'string' },
          before: { type: 'string' },
          after: { type: 'string' },
          confidence: { type: 'number' },
          problems: {
            type: 'array',
            description: 'Evidence items not verified now: partial (e.g. the snippet moved to other lines) or failed, each with why.',
            items: closedObject({ index: { type: 'integer' }, path: { type: 'string' }, status: { enum: ['partial', 'failed'] }, reason: { type: 'string' } }, ['reason']),
          },
        }),
      },
    },
    ['changed_files'],
  ),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export function registerGraphTools({ ctx, knowledge, graph, index }: GraphToolDeps): void {
  const summary = async () => {
    const counts = await graph.countBy('type');
    const types: Record<string, { count: number; recent: string[] }> = {};
    for (const type of NODE_TYPES) {
      const count = counts.get(type) ?? 0;
      if (count === 0) continue;
      const { nodes } = await graph.list({ type }, 3, 0);
      types[type] = { count, recent: nodes.map((n) => n.summary) };
    }
    return { total: [...counts.values()].reduce((sum, n) => sum + n, 0), types };
  };

  ctx.tool(knowledgeLink, ({ from, to, relation, confidence }, call) => knowledge.link(from, to, relation, confidence, agentOf(call.caller.identity)));
  ctx.tool(knowledgeUnlink, async ({ from, to, relation }) => ({ removed: await graph.removeEdges(from, to, relation) }));
  ctx.tool(knowledgeRecall, async ({ query, limit, types, include_content, mode }, call) => {
    if (query === undefined) return { summary: await summary() };
    const answer = await recall(query, { limit, mode, ...(types ? { types } : {}), signal: call.signal }, { index, graph, settings: ctx.config.recall });
    return {
      query,
      mode: answer.mode,
      ...(answer.degraded ? { degraded: answer.degraded } : {}),
      results: answer.hits.map((hit) => ({
        ...briefOf(hit.node),
        ...(include_content ? { content: hit.node.content } : {}),
        score: hit.score,
        lexical_score: hit.lexical_score,
        vector_similarity: hit.vector_similarity,
        ...(hit.expanded_from ? { expanded_from: hit.expanded_from } : {}),
      })),
    };
  });
  ctx.tool(knowledgeSummary, async () => {
    // One grouped count instead of a listing per status.
    const counted = await graph.countBy('verification_status');
    const statuses = Object.fromEntries(['verified', 'partial', 'unverified', 'stale'].map((status) => [status, counted.get(status) ?? 0]));
    const down = knowledge.vectorsUnavailable();
    return { ...(await summary()), statuses, vectors: down ? { available: false, reason: down } : { available: true, engine: index.vectorEngine } };
  });
  ctx.tool(knowledgeVerify, async ({ ids, changed }, call) => {
    const { results, changed_files } = await knowledge.reverify(ids ? { ids } : { changed }, call.signal);
    // What the caller must act on first: a changed status, then problems; the order within each kept.
    const rank = (r: (typeof results)[number]) => (r.after !== r.before ? 0 : r.problems.length > 0 ? 1 : 2);
    const listed = [...results].sort((a, b) => rank(a) - rank(b)).slice(0, MAX_VERIFY_LISTED);
    return {
      checked: results.length,
      stale: results.filter((r) => r.after === 'stale').length,
      omitted: results.length - listed.length,
      ...(changed_files ? { changed_files } : {}),
      results: listed,
    };
  });
}
