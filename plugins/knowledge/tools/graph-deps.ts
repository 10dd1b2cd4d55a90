import type { KnowledgeContext } from '../declaration.js';
import type { GraphStore } from '../graph/graph-store.js';
import type { KnowledgeGraph } from '../graph/knowledge-graph.js';
import type { KnowledgeNode } from '../graph/model.js';
import type { NodeIndex } from '../graph/node-index.js';

/** What the knowledge_ tools work with. */
export interface GraphToolDeps {
  readonly ctx: KnowledgeContext;
  readonly knowledge: KnowledgeGraph;
  readonly graph: GraphStore;
  readonly index: NodeIndex;
}

/** A node for lists and search results: no content, evidence as `path` and `lines`. */
export function briefOf(node: KnowledgeNode) {
  return {
    id: node.id,
    type: node.type,
    summary: node.summary,
    tags: node.tags,
    confidence: node.confidence,
    verification_status: node.verification_status,
    evidence: node.evidence.map((e) => ({
      path: e.path,
      ...(e.start_line !== undefined ? { lines: e.end_line && e.end_line !== e.start_line ? `${e.start_line}-${e.end_line}` : String(e.start_line) } : {}),
    })),
    updated_at: node.updated_at,
  };
}
