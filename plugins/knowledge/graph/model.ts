// The graph's vocabulary and the JSON a node and an edge take in tool results.
import type { EvidenceItem, Verification } from './evidence.js';

export const NODE_TYPES = ['feature', 'decision', 'pattern', 'constraint', 'dependency', 'risk', 'note'] as const;
export type NodeType = (typeof NODE_TYPES)[number];

/** Relations an agent sets with knowledge_link. */
export const AGENT_RELATIONS = ['depends_on', 'relates_to', 'affects', 'extends'] as const;
/** Relations only the plugin makes, from shared evidence and vector similarity. */
export const AUTO_RELATIONS = ['shares_evidence', 'semantically_similar'] as const;
export const RELATIONS = [...AGENT_RELATIONS, ...AUTO_RELATIONS] as const;
export type Relation = (typeof RELATIONS)[number];

/** Relations that read the same both ways: kept once per pair, the smaller id first. */
const SYMMETRIC: ReadonlySet<string> = new Set(['relates_to', 'shares_evidence', 'semantically_similar']);

export function edgeKey(from: string, to: string, relation: string): { from: string; to: string } {
  return SYMMETRIC.has(relation) && to < from ? { from: to, to: from } : { from, to };
}

export interface KnowledgeNode {
  readonly id: string;
  readonly type: NodeType;
  readonly summary: string;
  readonly content: string;
  readonly tags: readonly string[];
  readonly confidence: number;
  readonly verification_status: string;
  readonly evidence: readonly EvidenceItem[];
  readonly verification: Verification | null;
  readonly agent: string | null;
  readonly created_at: string;
  readonly updated_at: string;
  /** One more with each change of the node (0 when added). */
  readonly version: number;
}

export interface KnowledgeEdge {
  readonly from: string;
  readonly to: string;
  readonly relation: Relation;
  readonly confidence: number;
  readonly properties: Record<string, unknown>;
}
