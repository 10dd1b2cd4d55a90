// knowledge_add, knowledge_update, knowledge_get, knowledge_forget, knowledge_list: one node at a time.
import { closedObject, type ToolDefinition } from '@mcp-gateway/core';
import { agentOf, checkNodeSize, MAX_AGENT_CHARS, type NodeLimits } from '../graph/node-limits.js';
import { briefOf, type GraphToolDeps } from './graph-deps.js';
import { edgeProperties, nodeBriefSchema, nodeFields, nodeIdSchema, nodeSchema, nodeTypeArg, verificationStatusSchema, writeOutcomeSchema } from './graph-schemas.js';

/** Edges knowledge_get answers with at most, by default: a node citing a file many cite shares evidence with each of them. */
const EDGE_PAGE = 100;
const MAX_EDGE_PAGE = 500;

const knowledgeAdd = (limits: NodeLimits) => ({
  name: 'knowledge_add',
  title: 'Add knowledge',
  description:
    'Records something learned about the codebase as a knowledge graph node. Cite evidence: it is checked against the files, ' +
    'raises confidence when verified, and a node whose evidence all fails is refused. Related nodes get linked automatically.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['type', 'summary', 'content'],
    properties: nodeFields(limits),
    examples: [
      {
        type: 'note',
        summary: 'Example: knowledge is kept per workspace',
        content: 'An example node made from the explorer. Forget it with knowledge_forget.',
        tags: ['example'],
        confidence: 0.5,
      },
    ],
  },
  outputSchema: writeOutcomeSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
}) as const satisfies ToolDefinition;

const knowledgeUpdate = (limits: NodeLimits) => ({
  name: 'knowledge_update',
  title: 'Change knowledge',
  description:
    'Changes the given fields of a node; new evidence replaces the old list and is verified again.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['id'],
    minProperties: 2,
    properties: { id: nodeIdSchema, ...nodeFields(limits) },
    examples: [{ id: 'n-000000000000', tags: ['example', 'edited'] }],
  },
  outputSchema: writeOutcomeSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
}) as const satisfies ToolDefinition;

const knowledgeGet = {
  name: 'knowledge_get',
  title: 'Read a node',
  description:
    'Reads a node in full with its edges, strongest first, and the summaries of the linked nodes. Edges are paged: pass next_edge_offset as edge_offset.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['id'],
    properties: {
      id: nodeIdSchema,
      edge_limit: { type: 'integer', minimum: 0, maximum: MAX_EDGE_PAGE, default: EDGE_PAGE, description: '0: the node alone, with edges_total.' },
      edge_offset: { type: 'integer', minimum: 0, maximum: 10_000_000, default: 0 },
    },
    examples: [{ id: 'n-000000000000' }],
  },
  outputSchema: closedObject({
    node: nodeSchema,
    edges: { type: 'array', items: closedObject({ ...edgeProperties, other: closedObject({ id: { type: 'string' }, summary: { type: 'string' } }) }) },
    edges_total: { type: 'integer', minimum: 0, description: 'Edges the node has.' },
    next_edge_offset: { type: ['integer', 'null'], description: 'The edge_offset of the next page; null on the last.' },
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

const knowledgeForget = {
  name: 'knowledge_forget',
  title: 'Forget a node',
  description: 'Deletes a node and its edges. To correct a node, use knowledge_update instead.',
  inputSchema: { type: 'object', additionalProperties: false, required: ['id'], properties: { id: nodeIdSchema }, examples: [{ id: 'n-000000000000' }] },
  outputSchema: closedObject({ id: { type: 'string' }, edges_removed: { type: 'integer' } }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
} as const satisfies ToolDefinition;

const knowledgeList = {
  name: 'knowledge_list',
  title: 'List nodes',
  description:
    'Lists nodes, last changed first, by type, verification status, tag or agent, without content (knowledge_get reads one). To search, use knowledge_recall.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      type: nodeTypeArg,
      status: verificationStatusSchema,
      tag: { type: 'string', pattern: '^[a-z0-9][a-z0-9_.:/-]{0,63}$' },
      agent: { type: 'string', minLength: 1, maxLength: MAX_AGENT_CHARS, description: 'API key or MCP client name.' },
      limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
      offset: { type: 'integer', minimum: 0, maximum: 10_000_000, default: 0 },
    },
    examples: [{}, { type: 'decision', limit: 10 }],
  },
  outputSchema: closedObject({ nodes: { type: 'array', items: nodeBriefSchema }, total: { type: 'integer' }, next_offset: { type: ['integer', 'null'] } }),
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export function registerNodeTools({ ctx, knowledge, graph }: GraphToolDeps): void {
  const limits = ctx.config.graph;
  ctx.tool(knowledgeAdd(limits), (args, call) => {
    checkNodeSize(args, limits, ctx.error);
    return knowledge.add(args, agentOf(call.caller.identity), call.signal);
  });
  ctx.tool(knowledgeUpdate(limits), ({ id, ...patch }, call) => {
    checkNodeSize(patch, limits, ctx.error);
    return knowledge.update(id, patch, call.signal);
  });
  ctx.tool(knowledgeGet, async ({ id, edge_limit, edge_offset }) => {
    const node = await knowledge.get(id);
    const { edges, total } = await graph.edgesPage(id, edge_limit, edge_offset);
    const others = await graph.getNodes(edges.map((e) => (e.from === id ? e.to : e.from)));
    const next = edge_offset + edges.length;
    return {
      node,
      edges: edges.map((e) => {
        const other = e.from === id ? e.to : e.from;
        return { ...e, other: { id: other, summary: others.get(other)?.summary ?? '' } };
      }),
      edges_total: total,
      next_edge_offset: edges.length > 0 && next < total ? next : null,
    };
  });
  ctx.tool(knowledgeForget, ({ id }) => knowledge.forget(id));
  ctx.tool(knowledgeList, async ({ limit, offset, ...filter }) => {
    const { nodes, total } = await graph.list(filter, limit, offset);
    return { nodes: nodes.map(briefOf), total, next_offset: offset + nodes.length < total ? offset + nodes.length : null };
  });
}
