// The edges the plugin makes itself when a node is added or changed: `shares_evidence` to the
// nodes citing the same files, `semantically_similar` to those whose vectors are close.
import type { GraphStore } from './graph-store.js';
import type { KnowledgeNode } from './model.js';
import type { NodeIndex } from './node-index.js';

export interface AutoLinks {
  readonly shares_evidence: number;
  readonly semantically_similar: number;
}

/** Replaces the node's automatic edges with those its evidence and vector give now. */
export async function relinkAutomatically(
  node: KnowledgeNode,
  deps: { graph: GraphStore; index: NodeIndex; similarLinkThreshold: number; signal?: AbortSignal },
): Promise<AutoLinks> {
  const { graph, index } = deps;
  await graph.removeEdgesOf(node.id, ['shares_evidence', 'semantically_similar']);

  const files = [...new Set(node.evidence.map((e) => e.path))];
  const sharing = await graph.nodesCiting(files, node.id);
  for (const [other, shared] of sharing) {
    const paths = [...new Set(shared)].sort();
    const confidence = paths.length >= 2 ? 0.9 : 0.7;
    await graph.upsertEdge({ from: node.id, to: other, relation: 'shares_evidence', confidence, properties: { shared_files: paths, shared_count: paths.length } }, null);
  }

  let similar = 0;
  const vector = await index.vectorOf(node, deps.signal);
  if (vector) {
    const hits = await index.search({ vector, limit: 10 });
    for (const hit of hits) {
      const cosine = 2 * (hit.vectorScore ?? hit.score) - 1;
      if (hit.id === node.id || cosine < deps.similarLinkThreshold) continue;
      await graph.upsertEdge({ from: node.id, to: hit.id, relation: 'semantically_similar', confidence: Math.round(cosine * 1000) / 1000, properties: { similarity: cosine } }, null);
      similar++;
    }
  }
  return { shares_evidence: sharing.size, semantically_similar: similar };
}
