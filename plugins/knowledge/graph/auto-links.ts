// The edges the plugin makes itself when a node is added or changed: `shares_evidence` to the
// nodes citing the same files, `semantically_similar` to those whose vectors are close.
import type { GraphStore } from './graph-store.js';
import type { KnowledgeNode } from './model.js';
import type { NodeIndex } from './node-index.js';

export interface AutoLinks {
  readonly shares_evidence: number;
  readonly semantically_similar: number;
}

/** Replaces the node's automatic edges with those its evidence and `vector` (when it has one) give now. */
export async function relinkAutomatically(
  node: KnowledgeNode,
  vector: readonly number[] | null,
  deps: { graph: GraphStore; index: NodeIndex; similarLinkThreshold: number },
): Promise<AutoLinks> {
  const { graph, index } = deps;
  await graph.removeEdgesOf(node.id, ['shares_evidence', 'semantically_similar']);

  let sharing = 0;
  const files = [...new Set(node.evidence.map((e) => e.path))];
  for (const [other, shared] of await graph.nodesCiting(files, node.id)) {
    const paths = [...new Set(shared)].sort();
    const confidence = paths.length >= 2 ? 0.9 : 0.7;
    // Undefined when either node went meanwhile: no edge is left to a forgotten node.
    if (await graph.upsertEdge({ from: node.id, to: other, relation: 'shares_evidence', confidence, properties: { shared_files: paths, shared_count: paths.length } }, null)) sharing++;
  }

  let similar = 0;
  if (vector) {
    for (const hit of await index.search({ vector, limit: 10 })) {
      const cosine = 2 * (hit.vectorScore ?? hit.score) - 1;
      if (hit.id === node.id || cosine < deps.similarLinkThreshold) continue;
      const link = { from: node.id, to: hit.id, relation: 'semantically_similar' as const, confidence: Math.round(cosine * 1000) / 1000, properties: { similarity: cosine } };
      if (await graph.upsertEdge(link, null)) similar++;
    }
  }
  return { shares_evidence: sharing, semantically_similar: similar };
}
