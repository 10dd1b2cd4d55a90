// The knowledge graph's part of the plugin's setup: tables, index, tools and resources.
import type { OptionalVectors, PluginStore } from '@mcp-gateway/core';
import type { KnowledgeContext } from '../declaration.js';
import { registerGraphTools } from '../tools/graph-tools.js';
import { registerNodeTools } from '../tools/node-tools.js';
import { GraphStore } from './graph-store.js';
import { KnowledgeGraph } from './knowledge-graph.js';
import { NodeIndex } from './node-index.js';
import { registerTypeResources, typeResourceUri } from './resources.js';
import type { GraphTables } from './schema.js';

export async function registerGraph(ctx: KnowledgeContext, vectors: OptionalVectors): Promise<void> {
  const graph = new GraphStore(ctx.store as PluginStore<GraphTables>);
  const index = await NodeIndex.open(ctx.store, vectors, graph, ctx.log);
  const knowledge = new KnowledgeGraph({
    graph,
    index,
    workspace: ctx.workspace,
    events: ctx.events,
    config: ctx.config,
    error: (code, message, details) => ctx.error(code, message, details),
    vectorsUnavailable: () => vectors.unavailable(),
    typeChanged: (type) => ctx.resourceUpdated(typeResourceUri(type)),
  });
  registerNodeTools({ ctx, knowledge, graph, index });
  registerGraphTools({ ctx, knowledge, graph, index });
  registerTypeResources(ctx, graph);
  // Whether searches are hybrid now, for gateway_status and /health: vectors missing is not a fault.
  ctx.reportStatus(() => {
    const down = vectors.unavailable();
    return { ok: true, detail: { search: down ? 'lexical' : 'hybrid', ...(down ? { reason: down } : { vectorSpace: vectors.space, vectorEngine: index.vectorEngine }) } };
  });
  // The counts now, the work not awaited: a large graph re-indexes in the background while the tools already answer.
  const drift = await index.drift();
  void index.catchUp(drift, ctx.signal).catch((err: unknown) => ctx.log.warn({ err }, 'knowledge: catching the index up failed; it is tried again at the next start'));
}
